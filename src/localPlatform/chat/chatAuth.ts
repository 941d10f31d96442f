import { CHAT_VERSIONS } from '../../contract/chat';
import type { RequestContext } from '../http';
import type { Platform } from '../platform';
import type { StoredAccount, StoredApiKey, StoredConnector, StoredProject } from '../state';
import { chatError } from './chatErrors';
import { requireJsonContentType } from '../jsonBody';

export interface ChatCaller {
  readonly key: StoredApiKey;
  readonly connector: StoredConnector;
  readonly account: StoredAccount;
  readonly project: StoredProject;
}

/**
 * Checks the version segment, the X-API-KEY and X-TOKEN headers and that both belong to the
 * project of the path (slug or prefixed ids). Header names are matched without regard to case,
 * as HTTP requires (Node lowercases them; fetch sends them lower case).
 */
export function authenticateChat(platform: Platform, ctx: RequestContext): ChatCaller {
  const version = ctx.params.version!;
  if (!(CHAT_VERSIONS as readonly string[]).includes(version)) {
    throw chatError(404, `Chat API version ${version} is not available; use ${CHAT_VERSIONS.join(', ')}`);
  }
  const apiKey = ctx.header('x-api-key');
  const token = ctx.header('x-token');
  if (!apiKey || !token) {
    const missing = [!apiKey ? 'X-API-KEY' : undefined, !token ? 'X-TOKEN' : undefined].filter(Boolean).join(' and ');
    throw chatError(401, `Missing authentication headers: send ${missing}`);
  }
  const key = platform.findKey('chat', apiKey);
  if (!key) throw chatError(401, 'Invalid API key');
  const connector = platform.state.connectors.find((c) => c.token === token && c.kind === 'chat');
  if (!connector) throw chatError(401, 'Invalid connector token');
  const { account, project } = platform.resolveProjectPath(
    ctx.params.account!,
    ctx.params.project!,
    key,
    (status, msg) => chatError(status, msg),
  );
  if (connector.projectId !== project.id)
    throw chatError(403, 'This connector token is not authorized for this project');
  return { key, connector, account, project };
}

/** Chat bodies are JSON: a body of another media type is refused rather than guessed at. */
export function requireJsonBody(ctx: RequestContext): void {
  requireJsonContentType(ctx.raw, (message) => chatError(415, message));
}
