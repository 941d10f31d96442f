import { CHAT_API_KEY_HEADER, CHAT_TOKEN_HEADER, CHAT_VERSIONS } from '../../contract/chat';
import type { HttpError, RequestContext } from '../http';
import type { Platform } from '../platform';
import type { StoredAccount, StoredApiKey, StoredConnector, StoredProject } from '../state';
import { chatError } from './chatErrors';
import { requireJsonContentType } from '../jsonBody';
import { chatConnectorOfToken } from './environmentConnectors';

export interface ChatCaller {
  readonly key: StoredApiKey;
  readonly connector: StoredConnector;
  readonly account: StoredAccount;
  readonly project: StoredProject;
}

/**
 * Checks the version segment, the X-API-KEY and X-TOKEN headers and that both belong to the
 * project of the path (slug or prefixed ids). The spec calls these header names case-sensitive, so
 * they are read from the raw names as sent (`req.rawHeaders`; Node lowercases `req.headers`): a
 * name in another case is a missing header, and the 401 names the one expected.
 */
export function authenticateChat(platform: Platform, ctx: RequestContext): ChatCaller {
  const version = ctx.param('version');
  if (!(CHAT_VERSIONS as readonly string[]).includes(version)) {
    throw chatError(404, `Chat API version ${version} is not available; use ${CHAT_VERSIONS.join(', ')}`);
  }
  const apiKey = exactHeader(ctx, CHAT_API_KEY_HEADER);
  const token = exactHeader(ctx, CHAT_TOKEN_HEADER);
  if (!apiKey || !token) throw missingHeaders(ctx, { apiKey, token });
  const key = platform.findKey('chat', apiKey);
  if (!key) throw chatError(401, 'Invalid API key');
  const connector = chatConnectorOfToken(platform, token);
  if (!connector) throw chatError(401, 'Invalid connector token');
  const { account, project } = platform.resolveProjectPath(
    ctx.param('account'),
    ctx.param('project'),
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

/** The value of the header sent under exactly this name, or undefined. */
function exactHeader(ctx: RequestContext, name: string): string | undefined {
  const raw = ctx.req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i] === name) return raw[i + 1];
  return undefined;
}

/** 401 naming each header expected; one sent in another case is named as it came, so the fix is plain. */
function missingHeaders(ctx: RequestContext, sent: { apiKey?: string; token?: string }): HttpError {
  const names = ctx.req.rawHeaders.filter((_, i) => i % 2 === 0);
  const wanted = [!sent.apiKey ? CHAT_API_KEY_HEADER : undefined, !sent.token ? CHAT_TOKEN_HEADER : undefined].filter(
    (h): h is string => h !== undefined,
  );
  let caseWrong = false;
  const parts = wanted.map((h) => {
    const other = names.find((n) => n.toLowerCase() === h.toLowerCase());
    caseWrong ||= other !== undefined;
    return other === undefined ? h : `${h} (not ${other})`;
  });
  const note = caseWrong ? 'header names are case-sensitive, ' : '';
  return chatError(401, `Missing authentication headers: ${note}send ${parts.join(' and ')}`);
}
