import type { Agent, Branch, Deployment, PhoneNumber, RealtimeConfig, Topic } from '../../contract/agents';

/** What the Agents tree reads from the platform. */
export interface AgentsSource {
  /** Every agent of the workspace (all pages). */
  listAgents(signal?: AbortSignal): Promise<Agent[]>;
  /** One agent (an assumed endpoint: it may be missing on a platform). */
  getAgent?(agentId: string): Promise<Agent>;
  listBranches(agentId: string): Promise<Branch[]>;
  getBehavior(agentId: string, branchId: string): Promise<string>;
  listTopics(agentId: string, branchId: string): Promise<Topic[]>;
  listDeployments(agentId: string): Promise<Deployment[]>;
  listPhoneNumbers(agentId: string): Promise<PhoneNumber[]>;
  listRealtimeConfigs(agentId: string): Promise<RealtimeConfig[]>;
}

/** main first, then by name. */
export function orderBranches(branches: readonly Branch[]): Branch[] {
  return [...branches].sort(
    (a, b) =>
      Number(b.isDefault ?? b.name === 'main') - Number(a.isDefault ?? a.name === 'main') ||
      a.name.localeCompare(b.name),
  );
}
