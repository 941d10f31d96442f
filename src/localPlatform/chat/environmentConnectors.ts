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

const ENVIRONMENT_SUFFIX = /_(sandbox|pre-release|live)$/;

/**
 * The Chat connector a token names: one stored, or the one of another environment that the token of an agent's
 * connector with `_<environment>` appended names (added then, as `chatConnectorServing` adds it). So a person can
 * reach each environment of a local agent with the seed's token: `<token>_pre-release`, `<token>_live`.
 */
export function chatConnectorOfToken(platform: Platform, token: string): StoredConnector | undefined {
  const stored = platform.state.connectors.find((c) => c.token === token && c.kind === 'chat');
  if (stored) return stored;
  const suffix = ENVIRONMENT_SUFFIX.exec(token);
  if (!suffix) return undefined;
  const base = token.slice(0, -suffix[0].length);
  const model = platform.state.connectors.find((c) => c.token === base && c.kind === 'chat');
  if (!model) return undefined;
  const serving = chatConnectorServing(platform, model.agentId, suffix[1] as Environment);
  return serving?.token === token ? serving : undefined;
}
