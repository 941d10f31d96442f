import type { Environment } from '../../contract/common';
import type { Platform } from '../platform';
import type { StoredConnector } from '../state';

/**
 * The Chat connector that reaches `agentId` in `environment`, added like the agent's own when it has none there:
 * the seeds give each agent a sandbox connector only, and comparing two environments on the local platform needs
 * one in each. Undefined when the agent has no Chat connector at all.
 */
export function chatConnectorServing(
  platform: Platform,
  agentId: string | undefined,
  environment: Environment,
): StoredConnector | undefined {
  const chats = platform.state.connectors.filter(
    (c) => c.kind === 'chat' && (agentId === undefined || c.agentId === agentId),
  );
  const model = chats[0];
  if (!model) return undefined;
  const serving = chats.find((c) => c.environment === environment && c.agentId === model.agentId);
  if (serving) return serving;
  const added: StoredConnector = {
    ...model,
    id: `${model.id}_${environment}`,
    token: `${model.token}_${environment}`,
    environment,
  };
  platform.state.connectors.push(added);
  platform.mutated();
  return added;
}
