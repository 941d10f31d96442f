import type { Agent, Behavior, Branch, Deployment, PhoneNumber, RealtimeConfig, Topic } from '../../contract/agents';
import type {
  StoredAgent,
  StoredBranch,
  StoredDeployment,
  StoredPhoneNumber,
  StoredRealtimeConfig,
  StoredTopic,
} from './model';
import { MAIN_BRANCH_NAME } from './store';

/** Stored records as the Agents API shows them (content and internal fields left out). */

export function toAgent(agent: StoredAgent, defaultBranchId: string | undefined): Agent {
  return {
    agentId: agent.agentId,
    name: agent.name,
    description: agent.description,
    accountId: agent.accountId,
    projectId: agent.projectId,
    ...(defaultBranchId ? { defaultBranchId } : {}),
    createdAt: agent.createdAt,
    createdBy: agent.createdBy,
    updatedAt: agent.updatedAt,
  };
}

export function toBranch(branch: StoredBranch): Branch {
  return {
    branchId: branch.branchId,
    name: branch.name,
    agentId: branch.agentId,
    isDefault: branch.name === MAIN_BRANCH_NAME,
    createdAt: branch.createdAt,
    createdBy: branch.createdBy,
    updatedAt: branch.updatedAt,
    updatedBy: branch.updatedBy ?? branch.createdBy,
    mergedAt: branch.mergedAt,
  };
}

export function toBehavior(branch: StoredBranch): Behavior {
  return {
    behavior: branch.content.behavior,
    branchId: branch.branchId,
    updatedAt: branch.behaviorUpdatedAt ?? branch.createdAt,
    updatedBy: branch.behaviorUpdatedBy ?? branch.createdBy,
  };
}

export function toTopic(topic: StoredTopic, branchId: string): Topic {
  return {
    topicId: topic.topicId,
    name: topic.name,
    content: topic.content,
    branchId,
    createdAt: topic.createdAt,
    ...(topic.createdBy ? { createdBy: topic.createdBy } : {}),
    updatedAt: topic.updatedAt,
    ...((topic.updatedBy ?? topic.createdBy) ? { updatedBy: topic.updatedBy ?? topic.createdBy } : {}),
  };
}

export function toDeployment(d: StoredDeployment): Deployment {
  return {
    id: d.id,
    accountId: d.accountId,
    agentId: d.agentId,
    environment: d.environment,
    artifactVersion: d.artifactVersion,
    version: d.version,
    createdBy: d.createdBy,
    createdAt: d.createdAt,
    metadata: d.metadata,
    active: d.active,
  };
}

export function toPhoneNumber(n: StoredPhoneNumber): PhoneNumber {
  return {
    number: n.number,
    projectId: n.projectId,
    accountId: n.accountId,
    clientEnv: n.clientEnv,
    connectorId: n.connectorId,
  };
}

export function toRealtimeConfig(c: StoredRealtimeConfig): RealtimeConfig {
  return {
    name: c.name,
    schema: c.schema,
    variables: c.variables,
    updatedAt: c.updatedAt,
    ...(c.updatedBy ? { updatedBy: c.updatedBy } : {}),
  };
}
