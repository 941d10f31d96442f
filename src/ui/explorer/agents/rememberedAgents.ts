import type * as vscode from 'vscode';

const KEY = 'agentWorkbench.rememberedAgents';

/**
 * Agent ids a person entered by hand, per profile, for platforms that do not list agents (an
 * assumed endpoint, see docs/api-assumptions.md). Kept in the workspace's state.
 */
export class RememberedAgents {
  constructor(private readonly state: vscode.Memento) {}

  list(profileId: string): string[] {
    return this.state.get<Record<string, string[]>>(KEY, {})[profileId] ?? [];
  }

  async add(profileId: string, agentId: string): Promise<void> {
    const all = this.state.get<Record<string, string[]>>(KEY, {});
    const ids = all[profileId] ?? [];
    if (!ids.includes(agentId)) await this.state.update(KEY, { ...all, [profileId]: [...ids, agentId] });
  }

  async remove(profileId: string, agentId: string): Promise<void> {
    const all = this.state.get<Record<string, string[]>>(KEY, {});
    await this.state.update(KEY, { ...all, [profileId]: (all[profileId] ?? []).filter((id) => id !== agentId) });
  }
}
