import type { Environment } from '../../contract/common';
import type { Platform } from '../platform';
import type { AgentContent } from './model';
import { activeDeploymentOf, mainBranchOf } from './store';

/**
 * The content (behavior and knowledge topics) an agent serves in an environment: what its
 * active deployment there froze, or main's draft when the environment has no deployment yet.
 * Throws when the agent does not exist. The result is shared: callers must not change it.
 */
export function servedContent(platform: Platform, agentId: string, environment: Environment): AgentContent {
  const state = platform.state.agents;
  const deployment = activeDeploymentOf(state, agentId, environment);
  if (deployment) return deployment.content;
  const main = mainBranchOf(state, agentId);
  if (!main) throw new Error(`Agent ${agentId} has no main branch`);
  return main.content;
}

/** The runtime values of an agent's real-time configs, by config name; they apply at once, unpublished. */
export function servedVariables(
  platform: Platform,
  agentId: string,
): Record<string, Readonly<Record<string, unknown>>> {
  const out: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const config of platform.state.agents.realtimeConfigs)
    if (config.agentId === agentId) out[config.name] = config.variables;
  return out;
}
