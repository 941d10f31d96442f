import type { AgentsClient } from '../../client/agents';
import { isMain } from '../../client/mainBranch';
import type { Agent, Branch, Deployment, PhoneNumber, RealtimeConfig, Topic } from '../../contract/agents';

/** What the Agents model reads from the platform. */
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

/**
 * The platform's calls the Agents model makes besides the reads it keeps: every write of the agents family, and the
 * reads a write needs at that moment (one agent or deployment by id, the behavior a branch copy starts from).
 */
export type AgentsPlatform = Pick<
  AgentsClient,
  | 'getAgent'
  | 'createAgent'
  | 'createBranch'
  | 'merge'
  | 'getBehavior'
  | 'updateBehavior'
  | 'listTopics'
  | 'createTopic'
  | 'updateTopic'
  | 'deleteTopic'
  | 'getDeployment'
  | 'publish'
  | 'promote'
  | 'rollback'
  | 'listRealtimeConfigs'
  | 'updateVariables'
  | 'listPhoneNumbers'
  | 'importPhoneNumbers'
>;

export { isMain };

/** The agent's main among its branches. */
export function mainOf<B extends Pick<Branch, 'name' | 'isDefault'>>(
  branches: readonly B[] | undefined,
): B | undefined {
  return branches?.find(isMain);
}

/** main first, then by name. */
export function orderBranches<B extends Pick<Branch, 'name' | 'isDefault'>>(branches: readonly B[]): B[] {
  return [...branches].sort((a, b) => Number(isMain(b)) - Number(isMain(a)) || a.name.localeCompare(b.name));
}
