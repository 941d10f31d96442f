import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { HANDSHAKE_ERRORS, type MessagingErrorBody, type ServerEvent } from '../../contract/messaging';
import type { Platform } from '../platform';
import { timeOutIncompleteFrames } from './frameTimeout';
import { claimsOf } from './handshakeRoutes';
import { findSession, isIdle, type StoredSession } from './store';
import { minimalEvent } from '../minimal';
import { specOnlyEvent } from '../specOnlyEvents';

/** What the hub hands over once a socket is open. */
export interface SocketHandlers {
  /** A socket of a session opened; `cursor` is the raw query value, if any. */
  connected(session: StoredSession, ws: WebSocket, cursor: string | null): void;
  /** A message of the client's; `released` when it arrived during a hold and is handled now that the hold ended. */
  message(sessionId: string, ws: WebSocket, data: string, released?: boolean): void;
  /** The session is found idle at the handshake: it is expired before the refusal. */
  idle(session: StoredSession): void;
}

/**
 * The open WebSockets of the messaging family, by session. They live here, not in the state:
 * the state keeps sessions and their history, which outlive any connection (MSG-26).
 */
export class SocketHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  private readonly sockets = new Map<string, Set<WebSocket>>();
  /** Upgrades accepted but not yet open, counted against the connection limit. */
  private readonly pending = new Map<string, number>();
  /**
   * Sockets held back, as on a slow network: what is sent to them, and what they send, waits here in order until
   * the hold ends; a socket that drops meanwhile loses both, as data in flight is lost with a broken connection.
   */
  private readonly held = new Map<WebSocket, { out: string[]; in: string[] }>();

  constructor(
    private readonly platform: Platform,
    private readonly handlers: SocketHandlers,
  ) {}

  /**
   * Checks the handshake (MSG-11..14) and answers a plain HTTP error with `{message}` before
   * any upgrade, or opens the socket.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, query: URLSearchParams): void {
    socket.on('error', () => undefined);
    const token = query.get('access_token');
    const sessionId = query.get('session_id');
    if (!token || !sessionId) return refuse(socket, HANDSHAKE_ERRORS.invalidParameters);
    const claims = claimsOf(this.platform, token);
    if (!claims) return refuse(socket, HANDSHAKE_ERRORS.authenticationFailed);
    const session = findSession(this.platform, sessionId);
    if (session?.status === 'active' && isIdle(this.platform, session)) this.handlers.idle(session);
    if (!session || session.status !== 'active') return refuse(socket, HANDSHAKE_ERRORS.sessionNotFound);
    if (claims.jti !== session.tokenId) return refuse(socket, HANDSHAKE_ERRORS.authenticationFailed);
    if (this.count(session.id) >= this.platform.options.maxConnectionsPerSession)
      return refuse(socket, HANDSHAKE_ERRORS.connectionLimit);
    // Count the socket now: the upgrade completes asynchronously and a burst must not overshoot the limit.
    this.pending.set(session.id, (this.pending.get(session.id) ?? 0) + 1);
    let settled = false;
    const settle = (): void => {
      if (!settled) this.settle(session.id);
      settled = true;
    };
    socket.once('close', settle);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      settle();
      this.setOf(session.id).add(ws);
      ws.on('error', () => undefined);
      timeOutIncompleteFrames(ws, socket, this.platform.options.wsFrameTimeoutMs);
      ws.on('close', () => this.forget(session.id, ws));
      ws.on('message', (data: RawData, isBinary: boolean) => {
        const text = isBinary ? '\u0000binary' : rawText(data);
        const held = this.held.get(ws);
        if (held) held.in.push(text);
        else this.handlers.message(session.id, ws, text);
      });
      this.handlers.connected(session, ws, query.get('cursor'));
    });
  }

  count(sessionId: string): number {
    return (this.sockets.get(sessionId)?.size ?? 0) + (this.pending.get(sessionId) ?? 0);
  }

  /** Sessions with at least one open socket. */
  sessionIds(): string[] {
    return [...this.sockets.keys()];
  }

  send(ws: WebSocket, event: ServerEvent): void {
    const text = this.text(event);
    if (text !== undefined) this.deliver(ws, text);
  }

  broadcast(sessionId: string, event: ServerEvent): void {
    const set = this.sockets.get(sessionId);
    if (!set) return;
    const text = this.text(event);
    if (text === undefined) return;
    for (const ws of set) this.deliver(ws, text);
  }

  /**
   * Holds every open socket of a session for `ms`: what is sent either way meanwhile arrives late and in order, or
   * never when the socket drops first (what the history keeps is replayed on the next connect).
   */
  hold(sessionId: string, ms: number): void {
    for (const ws of this.sockets.get(sessionId) ?? []) {
      if (this.held.has(ws)) continue;
      this.held.set(ws, { out: [], in: [] });
      setTimeout(() => {
        const held = this.held.get(ws);
        this.held.delete(ws);
        if (!held || ws.readyState !== ws.OPEN) return;
        for (const text of held.in) this.handlers.message(sessionId, ws, text, true);
        for (const text of held.out) this.deliver(ws, text);
      }, ms).unref();
    }
  }

  /** Keeps a message of the client's until the socket's hold ends; false when the socket is not held. */
  holdIncoming(ws: WebSocket, text: string): boolean {
    const held = this.held.get(ws);
    held?.in.push(text);
    return held !== undefined;
  }

  private deliver(ws: WebSocket, text: string): void {
    const held = this.held.get(ws);
    if (held) held.out.push(text);
    else if (ws.readyState === ws.OPEN) ws.send(text);
  }

  /**
   * An event as sent: in the spec-minimal mode without our history positions; in the spec-only mode also
   * renamed where the spec names no type, and not at all for the echo of a user's message.
   */
  private text(event: ServerEvent): string | undefined {
    const mode = this.platform.responses.mode;
    const sent = mode === 'spec-only' ? specOnlyEvent(event) : mode === 'minimal' ? minimalEvent(event) : event;
    return sent === undefined ? undefined : JSON.stringify(sent);
  }

  /** Closes every socket of a session with a close frame. */
  close(sessionId: string, code = 1000, reason = ''): void {
    for (const ws of this.sockets.get(sessionId) ?? []) ws.close(code, reason);
  }

  /** Drops every socket of a session without a close frame, as a broken network would. */
  terminate(sessionId: string): void {
    for (const ws of this.sockets.get(sessionId) ?? []) ws.terminate();
  }

  closeAll(code: number, reason: string): void {
    for (const id of this.sessionIds()) this.close(id, code, reason);
    this.sockets.clear();
  }

  dispose(): void {
    for (const id of this.sessionIds()) this.terminate(id);
    this.sockets.clear();
    this.pending.clear();
    this.held.clear();
    this.wss.close();
  }

  private setOf(sessionId: string): Set<WebSocket> {
    let set = this.sockets.get(sessionId);
    if (!set) {
      set = new Set();
      this.sockets.set(sessionId, set);
    }
    return set;
  }

  private settle(sessionId: string): void {
    const n = (this.pending.get(sessionId) ?? 0) - 1;
    if (n > 0) this.pending.set(sessionId, n);
    else this.pending.delete(sessionId);
  }

  private forget(sessionId: string, ws: WebSocket): void {
    this.held.delete(ws);
    const set = this.sockets.get(sessionId);
    if (!set) return;
    set.delete(ws);
    if (set.size === 0) this.sockets.delete(sessionId);
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

function refuse(socket: Duplex, error: { status: number; message: string }): void {
  const body: MessagingErrorBody = { message: error.message };
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      'Connection: close\r\n\r\n' +
      text,
  );
}
