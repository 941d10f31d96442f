import { AGENT_ID_PATTERN, BRANCH_ID_PATTERN, DEPLOYMENT_ID_PATTERN, TOPIC_ID_PATTERN } from '../../contract/agents';
import { buildError, type RequestContext } from '../http';
import type { Platform } from '../platform';
import type { StoredApiKey } from '../state';
import type { AgentsState, StoredAgent, StoredBranch, StoredDeployment, StoredTopic } from './model';
import { requireId } from './validate';

/**
 * Who may do what in the Agents API. Checks run in the order a caller can fix them: the key
 * (401), its permission to write (403), the shape of ids (422), existence (404), then the
 * account the resource belongs to (403).
 */
export class AgentsAccess {
  constructor(readonly platform: Platform) {}

  get state(): AgentsState {
    return this.platform.state.agents;
  }

  /** The Agents key of the request; `write` refuses read-only keys. */
  key(ctx: RequestContext, write: boolean): StoredApiKey {
    const key = this.platform.requireBuildKey('agents', ctx.header('x-api-key'));
    if (write && key.readOnly)
      throw buildError(403, 'This API key is read-only: it cannot create, change or deploy', [
        { field: 'x-api-key', message: 'read-only key' },
      ]);
    return key;
  }

  agent(ctx: RequestContext, key: StoredApiKey): StoredAgent {
    const agentId = requireId(ctx.params.agentId, AGENT_ID_PATTERN, 'agentId');
    const agent = this.state.agents[agentId];
    if (!agent) throw buildError(404, `Agent not found: ${agentId}`, [{ field: 'agentId', message: 'no such agent' }]);
    if (agent.accountId !== key.accountId)
      throw buildError(403, 'This API key has no access to this agent', [
        { field: 'agentId', message: 'belongs to another workspace' },
      ]);
    return agent;
  }

  branch(ctx: RequestContext, agent: StoredAgent): StoredBranch {
    const branchId = requireId(ctx.params.branchId, BRANCH_ID_PATTERN, 'branchId');
    const branch = this.state.branches[branchId];
    if (!branch || branch.agentId !== agent.agentId)
      throw buildError(404, `Branch not found: ${branchId}`, [
        { field: 'branchId', message: 'no such branch of this agent' },
      ]);
    return branch;
  }

  topic(ctx: RequestContext, branch: StoredBranch): StoredTopic {
    const topicId = requireId(ctx.params.topicId, TOPIC_ID_PATTERN, 'topicId');
    const topic = branch.content.topics[topicId];
    if (!topic)
      throw buildError(404, `Topic not found on this branch: ${topicId}`, [
        { field: 'topicId', message: 'no such topic on this branch' },
      ]);
    return topic;
  }

  deployment(ctx: RequestContext, agent: StoredAgent): StoredDeployment {
    const deploymentId = requireId(ctx.params.deploymentId, DEPLOYMENT_ID_PATTERN, 'deploymentId');
    const deployment = this.state.deployments[deploymentId];
    if (!deployment || deployment.agentId !== agent.agentId) {
      throw buildError(404, `Deployment not found: ${deploymentId}`, [
        { field: 'deploymentId', message: 'no such deployment of this agent' },
      ]);
    }
    return deployment;
  }
}

/** The name recorded as createdBy/updatedBy for changes made with a key. */
export function actorOf(key: StoredApiKey): string {
  return key.label;
}
