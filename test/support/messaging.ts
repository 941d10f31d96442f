import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import type { AccessTokenReply, ServerEvent, SessionReply } from '../../src/contract/messaging';
import { LOCAL_CONNECTORS } from '../../src/localPlatform/seed/credentials';
import type { LocalPlatform } from '../../src/localPlatform/server';
import { call } from './http';
import type { FaultRequest } from '../../src/localPlatform/adminApi';
import { LocalAdmin } from './localAdmin';

/** Longest a test waits for an event before failing (a guard, not a timing assertion). */
const WAIT_MS = 5000;

/** A real `ws` client that records every event the server sends. */
export class EventClient {
  readonly events: ServerEvent[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.events.push(JSON.parse(String(data)) as ServerEvent);
      for (const w of this.waiters) w();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        resolve({ code, reason: String(reason) });
        for (const w of this.waiters) w();
      }),
    );
  }

  /** Opens a socket; rejects with the refusal's status and body when the handshake is refused. */
  static open(url: string): Promise<EventClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const client = new EventClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res: IncomingMessage) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += String(c)));
        res.on('end', () =>
          reject(new Refusal(res.statusCode ?? 0, text ? (JSON.parse(text) as { message: string }) : { message: '' })),
        );
      });
      ws.once('error', (err) => reject(err));
    });
  }

  send(event: unknown): void {
    this.ws.send(typeof event === 'string' ? event : JSON.stringify(event));
  }

  /** The first event (after `after`, if given) that matches; waits for it when it has not come yet. */
  waitFor(match: (e: ServerEvent) => boolean, after?: ServerEvent): Promise<ServerEvent> {
    const find = () => {
      const start = after ? this.events.indexOf(after) + 1 : 0;
      return this.events.slice(start).find(match);
    };
    const found = find();
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`no matching event within ${WAIT_MS} ms; got ${this.events.map((e) => e.type).join(', ')}`));
      }, WAIT_MS);
      const check = (): void => {
        const e = find();
        if (!e) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve(e);
      };
      this.waiters.push(check);
    });
  }

  type(type: string, after?: ServerEvent): Promise<ServerEvent> {
    return this.waitFor((e) => e.type === type, after);
  }

  /** The next error system message with this text. */
  systemError(text: string, after?: ServerEvent): Promise<ServerEvent> {
    return this.waitFor((e) => e.type === 'EVENT_TYPE_SYSTEM_MESSAGE' && e.payload.text === text, after);
  }

  close(): void {
    this.ws.close();
  }
}

export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly body: { message: string },
  ) {
    super(`refused with ${status}: ${body.message}`);
  }
}

/** The refusal of a handshake that is expected to fail. */
export async function refusalOf(url: string): Promise<Refusal> {
  try {
    const client = await EventClient.open(url);
    client.close();
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
  throw new Error('the handshake was accepted');
}

export async function accessToken(lp: LocalPlatform, host: string = LOCAL_CONNECTORS.webchatHost): Promise<string> {
  const res = await call<AccessTokenReply>('POST', `${lp.urls.messaging}/api/v1/access-token`, {
    headers: { 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': host },
    body: {},
  });
  if (res.status !== 200) throw new Error(`access token: ${res.status}`);
  return res.body.access_token;
}

export async function newSession(
  lp: LocalPlatform,
  token: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await call<SessionReply>('POST', `${lp.urls.messaging}/api/v1/sessions`, {
    headers: { Authorization: `Bearer ${token}` },
    body,
  });
  if (res.status !== 200) throw new Error(`session: ${res.status}`);
  return res.body.session_id;
}

export function socketUrl(lp: LocalPlatform, params: Record<string, string>): string {
  return `${lp.urls.messaging.replace(/^http/, 'ws')}/ws?${new URLSearchParams(params).toString()}`;
}

/** A token, a session and an open socket that has received its history batch. */
export async function connect(
  lp: LocalPlatform,
  opts: { streaming?: boolean; token?: string; sessionId?: string; cursor?: string } = {},
) {
  const token = opts.token ?? (await accessToken(lp));
  const sessionId = opts.sessionId ?? (await newSession(lp, token, opts.streaming ? { streaming_enabled: true } : {}));
  const client = await EventClient.open(
    socketUrl(lp, {
      access_token: token,
      session_id: sessionId,
      ...(opts.cursor !== undefined ? { cursor: opts.cursor } : {}),
    }),
  );
  const batch = await client.type('EVENT_TYPE_EVENT_BATCH');
  return { token, sessionId, client, batch };
}

/** Connects and has the agent join; resolves once the greeting message arrived. */
export async function joined(lp: LocalPlatform, opts: { streaming?: boolean } = {}) {
  const c = await connect(lp, opts);
  c.client.send({ type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', payload: {} });
  const greeting = await c.client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE');
  return { ...c, greeting };
}

export async function injectFault(lp: LocalPlatform, fault: FaultRequest): Promise<void> {
  await new LocalAdmin(lp.urls.admin).addFault({ family: 'messaging', ...fault });
}

export async function advanceClock(lp: LocalPlatform, ms: number): Promise<void> {
  await new LocalAdmin(lp.urls.admin).advanceClock(ms);
}
