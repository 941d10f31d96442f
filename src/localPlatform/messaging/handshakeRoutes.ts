import {
  type AccessTokenReply,
  MESSAGING_HTTP_ERRORS as E,
  type MessagingErrorBody,
  sessionRequestSchema,
  type SessionReply,
} from '../../contract/messaging';
import { HttpError, type RequestContext, type Router } from '../http';
import type { Platform } from '../platform';
import type { StoredConnector } from '../state';
import { takeHttpFault } from './injectedErrors';
import type { RateLimiter } from './rateLimit';
import { messagingOf, newSessionId, type StoredSession } from './store';
import { type AccessClaims, issueAccessToken, verifyAccessToken } from './tokens';
import { requireJsonContentType } from '../jsonBody';

export function messagingError(
  status: number,
  message: string,
  errors?: Array<{ field: string; message: string }>,
  headers: Record<string, string> = {},
): HttpError {
  const body: MessagingErrorBody = { message, ...(errors ? { errors } : {}) };
  return new HttpError(status, body, headers);
}

function hostOf(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '');
}

/** X-Host matches the registered domain or any subdomain of it, or the app namespace exactly. */
export function hostMatches(xHost: string, connector: StoredConnector): boolean {
  if (connector.appNamespace && xHost.trim() === connector.appNamespace) return true;
  if (!connector.hostDomain) return false;
  const host = hostOf(xHost);
  const domain = hostOf(connector.hostDomain);
  return host === domain || host.endsWith(`.${domain}`);
}

/** The verified claims of a messaging access token whose connector still exists. */
export function claimsOf(platform: Platform, token: string): AccessClaims | undefined {
  const claims = verifyAccessToken(messagingOf(platform).secret, token, Math.floor(platform.clock.now() / 1000));
  if (!claims || !platform.state.connectors.some((c) => c.id === claims.sub && c.kind === 'webchat')) return undefined;
  return claims;
}

function limit(limiter: RateLimiter, key: string): void {
  const r = limiter.hit(key);
  if (!r.ok) throw messagingError(429, E.rateLimited, undefined, { 'retry-after': String(r.retryAfterSeconds) });
}

/** POST /api/v1/access-token and POST /api/v1/sessions (MSG-1..10, MSG-28, MSG-30). */
export function addHandshakeRoutes(router: Router, platform: Platform, limiter: RateLimiter): void {
  router.post('/api/v1/access-token', (ctx) => {
    const token = ctx.header('x-token');
    const host = ctx.header('x-host');
    limit(limiter, `token:${ctx.req.socket.remoteAddress ?? ''}:${token ?? ''}`);
    if (!token || !host) throw messagingError(401, E.missingAuthHeaders);
    const connector = platform.state.connectors.find((c) => c.token === token && c.kind === 'webchat');
    if (!connector) throw messagingError(401, E.unknownConnectorToken);
    if (!connector.hostDomain && !connector.appNamespace) throw messagingError(401, E.connectorWithoutHost);
    if (!hostMatches(host, connector)) throw messagingError(401, E.hostMismatch);
    requireJsonContentType(ctx.raw, (message) =>
      messagingError(415, message, [{ field: 'Content-Type', message: 'must be application/json' }]),
    );
    if (takeHttpFault(platform, 'access-token', ctx.method, ctx.path)) throw messagingError(500, E.accessTokenFailed);
    const ttl = platform.options.accessTokenTtlSeconds;
    const issued = issueAccessToken(
      messagingOf(platform).secret,
      connector.id,
      hostOf(host),
      Math.floor(platform.clock.now() / 1000),
      ttl,
    );
    const reply: AccessTokenReply = { access_token: issued.token, expires_in: ttl, token_type: 'Bearer' };
    return { body: reply };
  });

  router.post('/api/v1/sessions', (ctx) => {
    const authorization = ctx.header('authorization');
    if (!authorization) throw messagingError(400, E.missingAccessToken);
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!bearer) throw messagingError(401, E.missingAuthHeaders);
    const claims = claimsOf(platform, bearer[1]!);
    if (!claims) throw messagingError(401, E.invalidAccessToken);
    limit(limiter, `session:${claims.jti}`);
    const body = sessionBody(ctx);
    if (takeHttpFault(platform, 'session', ctx.method, ctx.path)) throw messagingError(500, E.sessionFailed);
    const connector = platform.state.connectors.find((c) => c.id === claims.sub)!;
    const session: StoredSession = {
      id: newSessionId(),
      connectorId: connector.id,
      tokenId: claims.jti,
      accountId: connector.accountId,
      projectId: connector.projectId,
      agentId: connector.agentId,
      environment: connector.environment,
      streaming: body.streaming_enabled,
      platform: body.platform,
      userAgent: ctx.header('user-agent') ?? null,
      createdAt: platform.now(),
      lastActivityMs: platform.clock.now(),
      status: 'active',
      conversationId: null,
      joined: false,
      handoff: null,
      events: [],
      seq: 0,
    };
    messagingOf(platform).sessions[session.id] = session;
    const reply: SessionReply = { session_id: session.id };
    return { body: reply };
  });
}

/**
 * The spec marks Content-Type required on sessions, and its generic statuses for the messaging endpoints give
 * 400 for missing headers: so a request without one is a 400, even with an empty body. A Content-Type that is
 * not JSON is a case the spec is silent on, and keeps the 415 of every JSON family.
 */
const MISSING_CONTENT_TYPE = 'Missing headers: send Content-Type: application/json';

function sessionBody(ctx: RequestContext): { streaming_enabled: boolean; platform: StoredSession['platform'] } {
  if (ctx.header('content-type') === undefined) {
    throw messagingError(400, MISSING_CONTENT_TYPE, [{ field: 'Content-Type', message: 'is required' }]);
  }
  requireJsonContentType(ctx.raw, (message) =>
    messagingError(415, message, [{ field: 'Content-Type', message: 'must be application/json' }]),
  );
  const raw = ctx.json(() => messagingError(400, E.parseError, [{ field: 'body', message: 'must be valid JSON' }]));
  const parsed = sessionRequestSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({
      field: i.path.length > 0 ? i.path.map(String).join('.') : 'body',
      message: i.message,
    }));
    throw messagingError(400, E.parseError, errors);
  }
  return parsed.data;
}
