/**
 * `agent.json`: the file at the root of an agent's folder in the workspace, saying which agent,
 * profile and branch the folder mirrors. It holds no secrets.
 *
 *   <workspace>/<agent-slug>/agent.json
 *   { "agentId": "ag_support", "name": "Support Desk", "profile": "local",
 *     "branch": { "branchId": "br_support_main", "name": "main" } }
 */
export const AGENT_MANIFEST = 'agent.json';

export interface AgentManifest {
  agentId: string;
  name: string;
  /** The connection profile the folder belongs to. */
  profile: string;
  /** The branch checked out into the folder. */
  branch: { branchId: string; name: string };
}

/** Reads a manifest; undefined (never an exception) when the text is not one. */
export function parseAgentManifest(text: string): AgentManifest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const branch = v.branch as Record<string, unknown> | undefined;
  if (
    typeof v.agentId !== 'string' ||
    !v.agentId ||
    typeof v.profile !== 'string' ||
    typeof branch !== 'object' ||
    branch === null
  )
    return undefined;
  if (typeof branch.branchId !== 'string' || !branch.branchId || typeof branch.name !== 'string') return undefined;
  return {
    agentId: v.agentId,
    name: typeof v.name === 'string' ? v.name : v.agentId,
    profile: v.profile,
    branch: { branchId: branch.branchId, name: branch.name },
  };
}

export function serializeAgentManifest(m: AgentManifest): string {
  return `${JSON.stringify({ agentId: m.agentId, name: m.name, profile: m.profile, branch: m.branch }, null, 2)}\n`;
}

/** Which branch of each agent is checked out, for one profile; the first folder found wins. */
export function checkedOutBranches(manifests: readonly AgentManifest[], profileId: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of manifests) if (m.profile === profileId && !out.has(m.agentId)) out.set(m.agentId, m.branch.branchId);
  return out;
}
