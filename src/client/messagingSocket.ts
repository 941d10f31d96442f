import type { IncomingMessage } from 'node:http';
import WebSocket, { type RawData } from 'ws';
import { messagingErrorBodySchema } from '../contract/messaging';
import type { Redactor } from '../core/redact';
import { kindOfStatus, PlatformError } from './errors';

export const OPEN_OPERATION = 'Open the messaging session';

export interface SocketHandlers {
  /** The connection is open (the upgrade succeeded). */
  opened?(): void;
  message(text: string): void;
  /** The handshake was refused with an HTTP status (400, 401, 404, 429) and the platform's message. */
  refused(error: PlatformError): void;
  /** The connection ended: before the upgrade (network failure, with `error`) or after it. */
  closed(code: number, error?: PlatformError): void;
}

export interface SocketOptions {
  handshakeTimeoutMs: number;
  /** Ping interval; a connection that leaves a ping unanswered this long is dropped. 0: none. */
  heartbeatMs: number;
}

/** `{messaging_url}/ws` with the query of the handshake, on ws:// or wss://. */
export function socketUrl(messagingUrl: string, query: Record<string, string | undefined>): URL {
  const url = new URL(`${messagingUrl.replace(/\/+$/, '')}/ws`);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

/**
 * One WebSocket connection of a session. Exactly one of `refused` and `closed` is called, once.
 * The URL carries the access token, so every error text passes through the redactor and no
 * error keeps the original as its cause.
 */
export class SessionSocket {
  private readonly ws: WebSocket;
  private done = false;
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    url: URL,
    private readonly redactor: Redactor,
    options: SocketOptions,
    private readonly handlers: SocketHandlers,
  ) {
    this.ws = new WebSocket(url, { handshakeTimeout: options.handshakeTimeoutMs, followRedirects: false });
    let lastError: string | undefined;
    this.ws.on('error', (err: Error) => {
      lastError = this.redactor.redact((err as { code?: string }).code ?? err.message);
    });
    this.ws.on('unexpected-response', (_req, res: IncomingMessage) => void this.refusal(res));
    this.ws.on('open', () => {
      this.startHeartbeat(options.heartbeatMs);
      if (!this.done) this.handlers.opened?.();
    });
    this.ws.on('message', (data: RawData) => {
      if (!this.done) this.handlers.message(text(data));
    });
    this.ws.on('close', (code: number) => {
      this.stopHeartbeat();
      if (this.done) return;
      this.done = true;
      const error =
        code === 1006 && lastError
          ? new PlatformError({
              family: 'messaging',
              kind: 'network',
              operation: OPEN_OPERATION,
              serverMessage: lastError,
            })
          : undefined;
      this.handlers.closed(code, error);
    });
  }

  /** Resolves once written; rejects when the connection is not open. */
  send(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error('not open'));
        return;
      }
      this.ws.send(text, (err) => (err ? reject(new Error(this.redactor.redact(err.message))) : resolve()));
    });
  }

  /** Closes with a close frame; no handler is called afterwards. */
  close(code = 1000, reason = ''): void {
    this.done = true;
    this.stopHeartbeat();
    if (this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
    else this.ws.close(code, reason);
  }

  /** Drops the connection without a close frame; `closed` follows as for a broken network. */
  drop(): void {
    this.ws.terminate();
  }

  private async refusal(res: IncomingMessage): Promise<void> {
    const status = res.statusCode ?? 0;
    let body = '';
    try {
      for await (const chunk of res) body += String(chunk);
    } catch {
      // The status says enough.
    }
    if (this.done) return;
    this.done = true;
    this.ws.terminate();
    let serverMessage: string | undefined;
    try {
      const parsed = messagingErrorBodySchema.safeParse(JSON.parse(body));
      if (parsed.success) serverMessage = parsed.data.message;
    } catch {
      serverMessage = body.length > 0 && body.length < 300 ? body : undefined;
    }
    this.handlers.refused(
      new PlatformError({
        family: 'messaging',
        kind: kindOfStatus(status),
        operation: OPEN_OPERATION,
        status,
        ...(serverMessage ? { serverMessage: this.redactor.redact(serverMessage) } : {}),
      }),
    );
  }

  private startHeartbeat(everyMs: number): void {
    if (everyMs <= 0) return;
    let answered = true;
    this.ws.on('pong', () => (answered = true));
    this.heartbeat = setInterval(() => {
      if (!answered) {
        this.ws.terminate();
        return;
      }
      answered = false;
      this.ws.ping();
    }, everyMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

interface Pending {
  seq: number;
  text: string;
  resolve(socket: SessionSocket): void;
  reject(err: unknown): void;
}

/**
 * What the client sends, in the order it was given. Kept while there is no ready connection
 * and written once one is; a write that fails goes back in its place for the next connection.
 */
export class SendQueue {
  private readonly items: Pending[] = [];
  private sequence = 0;
  private target: SessionSocket | undefined;
  private refusal: (() => unknown) | undefined;

  /** Resolves with the socket it was written to, once written; rejects when the queue is closed first. */
  push(text: string): Promise<SessionSocket> {
    if (this.refusal) return Promise.reject(this.refusal());
    return new Promise((resolve, reject) => {
      this.items.push({ seq: (this.sequence += 1), text, resolve, reject });
      this.flush();
    });
  }

  /** Writes what waits, and from now on everything at once, to this socket. */
  resume(socket: SessionSocket): void {
    this.target = socket;
    this.flush();
  }

  /** Keeps what comes from now on until the next `resume`. */
  pause(): void {
    this.target = undefined;
  }

  /** Rejects what waits and whatever comes later with `error()`. */
  close(error: () => unknown): void {
    this.target = undefined;
    this.refusal = error;
    for (const item of this.items.splice(0)) item.reject(error());
  }

  private flush(): void {
    const socket = this.target;
    if (!socket) return;
    for (const item of this.items.splice(0))
      socket.send(item.text).then(
        () => item.resolve(socket),
        () => this.putBack(item, socket),
      );
  }

  /**
   * A write the socket refused waits for the next `resume`: that socket is closing, so it stops being
   * the target (sending to it again at once would loop without end, before its close event can run).
   */
  private putBack(item: Pending, socket: SessionSocket): void {
    if (this.refusal) return item.reject(this.refusal());
    if (this.target === socket) this.target = undefined;
    this.items.push(item);
    this.items.sort((a, b) => a.seq - b.seq);
  }
}
