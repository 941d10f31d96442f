import {
  accessTokenReplySchema,
  type MessagingPlatform,
  sessionReplySchema,
  sessionRequestSchema,
} from '../contract/messaging';
import { backoffDelay, sleep } from '../core/retry';
import { AccessToken } from './accessToken';
import type { ClientContext } from './context';
import { PlatformError } from './errors';
import { MessagingSession, type MessagingSessionOptions } from './messagingSession';
import { validateInput } from './validate';

export interface SessionOptions {
  /** Answers arrive as incremental chunks, then the complete message (default false). */
  streamingEnabled?: boolean;
  /** web, ios, android or custom (default web). */
  platform?: MessagingPlatform;
}

/** A created session and the access token it belongs to: only that token opens its WebSocket. */
export interface CreatedSession {
  sessionId: string;
  accessToken: AccessToken;
  streamingEnabled: boolean;
  platform: MessagingPlatform;
}

/** Statuses at which the platform answered that no session was made, so asking again cannot make two. */
const SESSION_NOT_MADE = new Set(['rateLimited', 'server', 'badGateway', 'unavailable']);

/**
 * Messaging API over HTTP: access tokens and sessions, and the WebSocket sessions made from them.
 */
export class MessagingClient {
  constructor(private readonly ctx: ClientContext) {}

  /**
   * A new access token for the profile's connector token and host. Repeated automatically on
   * 429 (after Retry-After), 5xx and network failures: an extra token is harmless, it only expires.
   */
  async accessToken(signal?: AbortSignal): Promise<AccessToken> {
    const operation = 'Get a messaging access token';
    const token = await this.ctx.credential('messagingConnectorToken', 'messaging', operation);
    const host = await this.ctx.credential('messagingHost', 'messaging', operation);
    const res = await this.ctx.transport.request({
      family: 'messaging',
      operation,
      baseUrl: this.ctx.base('messaging'),
      method: 'POST',
      path: '/api/v1/access-token',
      headers: { 'X-Token': token, 'X-Host': host },
      body: {},
      schema: accessTokenReplySchema,
      retry: 'safe',
      signal,
    });
    return new AccessToken(res.body.access_token, res.body.expires_in);
  }

  /**
   * Creates a session with `accessToken`, or with a new token when none is given. Not repeated
   * after a network failure or timeout: the request may have made a session whose id never
   * arrived. Repeated only when the platform answered that it made none: 429 (after
   * Retry-After) and 5xx ("Failed to create session", which the spec says to retry with backoff).
   */
  async createSession(
    options: SessionOptions = {},
    accessToken?: AccessToken,
    signal?: AbortSignal,
  ): Promise<CreatedSession> {
    const operation = 'Start a messaging session';
    const body = validateInput(
      sessionRequestSchema,
      { streaming_enabled: options.streamingEnabled, platform: options.platform },
      'messaging',
      operation,
    );
    const token = accessToken ?? (await this.accessToken(signal));
    const { backoff, maxRetryAfterMs } = this.ctx.transport.options;
    for (let retries = 0; ; retries++) {
      try {
        const res = await this.ctx.transport.request({
          family: 'messaging',
          operation,
          baseUrl: this.ctx.base('messaging'),
          method: 'POST',
          path: '/api/v1/sessions',
          headers: { Authorization: `Bearer ${token.reveal()}` },
          body,
          schema: sessionReplySchema,
          retry: 'never',
          signal,
        });
        return {
          sessionId: res.body.session_id,
          accessToken: token,
          streamingEnabled: body.streaming_enabled,
          platform: body.platform,
        };
      } catch (err) {
        if (!(err instanceof PlatformError) || !SESSION_NOT_MADE.has(err.kind) || retries >= backoff.retries) throw err;
        const wait =
          err.kind === 'rateLimited' && err.retryAfterMs !== undefined
            ? err.retryAfterMs
            : backoffDelay(backoff, retries + 1);
        if (wait > maxRetryAfterMs) throw err;
        await sleep(wait, signal);
      }
    }
  }

  /** A session object for a created session (or one created earlier), not yet connected. */
  session(
    created: Pick<CreatedSession, 'sessionId' | 'accessToken'> & Partial<CreatedSession>,
    options: Partial<Omit<MessagingSessionOptions, 'sessionId' | 'accessToken' | 'messagingUrl'>> = {},
  ): MessagingSession {
    return new MessagingSession({
      messagingUrl: this.ctx.base('messaging'),
      sessionId: created.sessionId,
      accessToken: created.accessToken,
      renewAccessToken: () => this.accessToken(),
      // "Error: Session not found" → "start a new session": made with the same options as this one.
      newSession: () => this.createSession({ streamingEnabled: created.streamingEnabled, platform: created.platform }),
      ...options,
    });
  }

  /** Creates a session with a new access token and connects to it; resolves once the history has arrived. */
  async startSession(
    options: SessionOptions = {},
    sessionOptions: Partial<Omit<MessagingSessionOptions, 'sessionId' | 'accessToken' | 'messagingUrl'>> = {},
  ): Promise<MessagingSession> {
    const created = await this.createSession(options);
    const session = this.session(created, sessionOptions);
    try {
      await session.connect();
    } catch (err) {
      session.dispose();
      throw err;
    }
    return session;
  }
}
