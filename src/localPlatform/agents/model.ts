/** Stored shapes of the Agents API family (build and deploy). Internal to the local platform. */

export interface StoredTopic {
  topicId: string;
  name: string;
  content: string;
  createdAt: string;
  updatedAt: string;
  createdBy?: string;
  updatedBy?: string;
}

/** The branch-scoped content of an agent: what merges compare and deployments freeze. */
export interface AgentContent {
  behavior: string;
  topics: Record<string, StoredTopic>;
}

export interface StoredAgent {
  agentId: string;
  name: string;
  description: string;
  accountId: string;
  /** Each agent is served under one project of its account (chat, conversations, numbers). */
  projectId: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
}

export interface StoredBranch {
  branchId: string;
  agentId: string;
  name: string;
  /** main's content when the branch was created (or last merged): the merge base. */
  base: AgentContent;
  content: AgentContent;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy?: string;
  mergedAt: string | null;
  /** When and by whom the behavior last changed (the branch's creation when absent). */
  behaviorUpdatedAt?: string;
  behaviorUpdatedBy?: string;
}

export type Environment = 'sandbox' | 'pre-release' | 'live';

export interface StoredDeployment {
  id: string;
  accountId: string;
  agentId: string;
  environment: Environment;
  artifactVersion: string;
  version: string;
  createdBy: string;
  createdAt: string;
  metadata: Record<string, unknown>;
  /** The content this deployment serves. */
  content: AgentContent;
  /** False once a newer deployment replaced it in its environment. */
  active: boolean;
}

export interface StoredPhoneNumber {
  number: string;
  projectId: string;
  accountId: string;
  clientEnv: Environment;
  connectorId: string;
  agentId: string;
}

export interface StoredRealtimeConfig {
  agentId: string;
  name: string;
  /** A JSON Schema (draft 2020-12 subset) the variables are checked against. */
  schema: Record<string, unknown>;
  variables: Record<string, unknown>;
  updatedAt: string;
  updatedBy?: string;
}

export interface AgentsState {
  agents: Record<string, StoredAgent>;
  branches: Record<string, StoredBranch>;
  deployments: Record<string, StoredDeployment>;
  phoneNumbers: StoredPhoneNumber[];
  realtimeConfigs: StoredRealtimeConfig[];
}

export function emptyAgentsState(): AgentsState {
  return { agents: {}, branches: {}, deployments: {}, phoneNumbers: [], realtimeConfigs: [] };
}
