import type { Agent } from '../../../contract/agents';
import type { AgentModel } from '../../model/agentsModel';
import type { TreeNode } from '../treeNode';

/**
 * An agent's node as the groups below it (deployments, numbers, real-time configs) see it: the agent and its
 * model. The groups name this rather than the agent node's class, which builds them.
 */
export interface AgentParent extends TreeNode {
  readonly agent: Agent;
  readonly model: AgentModel;
}
