import * as vscode from 'vscode';
import type { ConnectionProfile } from '../../../client/profile';
import type { Deployment } from '../../../contract/agents';
import type { ChatHeader } from '../../../protocol/chat';
import type { AgentRef } from '../../connection/agentReach';
import type { UiClients } from '../../model/platformClients';
import { servedIn } from '../../model/served';

/**
 * The environment a chat talks to. The spec does not say which environment a chat or messaging connector serves;
 * the playground's connectors are sandbox ones (docs/api-assumptions.md), so an edit is chatted with once published
 * to sandbox.
 */
export const CHAT_ENVIRONMENT = 'sandbox';

/**
 * What the chat header says: the agent, the profile's project, the environment, the version served there, and a
 * push to main newer than that version (which the chat does not answer from until it is published).
 */
export async function chatHeader(
  profile: ConnectionProfile,
  agent: AgentRef | undefined,
  clients: UiClients,
  signal?: AbortSignal,
  /** The agent's deployments that publish, promote and rollback returned here, for a platform that does not list them. */
  kept: readonly Deployment[] = [],
): Promise<ChatHeader> {
  const base: ChatHeader = {
    agent: agent?.name ?? vscode.l10n.t('the agent of project {0}', profile.projectId),
    project: profile.projectId,
    environment: CHAT_ENVIRONMENT,
  };
  if (!agent) return base;
  const { listed, serving, mainChangedAfter } = await servedIn(clients, agent.agentId, CHAT_ENVIRONMENT, kept, signal);
  if (!serving)
    return {
      ...base,
      note: listed
        ? vscode.l10n.t('Nothing is published to {0} yet.', CHAT_ENVIRONMENT)
        : vscode.l10n.t(
            'This platform does not list deployments, and nothing was published to {0} from here: which version it serves is not known.',
            CHAT_ENVIRONMENT,
          ),
    };
  const header = { ...base, version: serving.version };
  if (!mainChangedAfter) return header;
  return {
    ...header,
    note: vscode.l10n.t(
      'main has changes pushed after version {0}: the chat answers from them once they are published to {1}.',
      serving.version,
      CHAT_ENVIRONMENT,
    ),
  };
}
