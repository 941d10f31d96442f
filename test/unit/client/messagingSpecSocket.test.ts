import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type WebSocket, WebSocketServer } from 'ws';
import { AccessToken } from '../../../src/client/accessToken';
import type { SystemMessage } from '../../../src/client/messagingEvents';
import type { SessionRecovery } from '../../../src/client/messagingRecovery';
import { MessagingSession } from '../../../src/client/messagingSession';
import { SYSTEM_ERRORS } from '../../../src/contract/messaging';
import {} from './messagingKit';
import { until } from '../../support/until';

// A messaging server of another make that sends only what the spec shows: a history batch without a
// cursor, events without id, metadata or an ISO timestamp, a session end without a reason. The client
// must neither hang nor drop them.

describe('client: a messaging session against a server that sends only what the spec shows', () => {
  let server: Server;
  let wss: WebSocketServer;
  let url = '';
  const sockets: WebSocket[] = [];
  let received: Array<{ type: string; payload: unknown }> = [];
  const sessions: MessagingSession[] = [];

  before(async () => {
    server = createServer();
    wss = new WebSocketServer({ server, path: '/ws' });
    wss.on('connection', (ws) => {
      sockets.push(ws);
      ws.on('message', (data) => received.push(JSON.parse(String(data)) as { type: string; payload: unknown }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    for (const s of sessions.splice(0)) s.dispose();
    for (const ws of sockets.splice(0)) ws.terminate();
    received = [];
  });
  after(async () => {
    for (const s of sessions.splice(0)) s.dispose();
    for (const ws of sockets.splice(0)) ws.terminate();
    wss.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const open = (opts: Partial<ConstructorParameters<typeof MessagingSession>[0]> = {}): MessagingSession => {
    const s = new MessagingSession({
      messagingUrl: url,
      sessionId: 'ses_1',
      accessToken: new AccessToken('tok', 600),
      historyTimeoutMs: 200,
      reconnect: { retries: 0, baseMs: 1, maxMs: 1 },
      ...opts,
    });
    sessions.push(s);
    return s;
  };
  const send = (event: unknown): void => sockets.at(-1)!.send(JSON.stringify(event));
  const types = (): string[] => received.map((e) => e.type);

  it('[MSG-15] connect resolves when the socket opens, even when no history batch ever comes; the join goes out after a short wait', async () => {
    const s = open();
    await s.connect();
    assert.equal(s.state.kind, 'open');
    await until('the join request', () => types().includes('EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN'));
  });

  it('[MSG-16] the join waits for the history batch (without a cursor); queued messages wait for the agent-joined event', async () => {
    const s = open({ historyTimeoutMs: 5000 });
    await s.connect();
    const sent = s.sendMessage('hello');
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(types(), [], 'nothing before the history');
    send({ type: 'EVENT_TYPE_EVENT_BATCH', payload: { events: [] } });
    await until('the join request', () => types().length === 1);
    assert.deepEqual(types(), ['EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN'], 'the message waits for the agent');
    send({ type: 'EVENT_TYPE_VIRTUAL_AGENT_JOINED', payload: {}, timestamp: 1767603600 });
    await sent;
    await until('the message', () => types().length === 2);
    assert.deepEqual(types(), ['EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', 'EVENT_TYPE_USER_MESSAGE']);
    assert.equal(s.cursor, 0);
  });

  it('[MSG-17] a history that holds the joined event (no metadata, numeric timestamps) skips the join', async () => {
    const s = open();
    await s.connect();
    send({
      type: 'EVENT_TYPE_EVENT_BATCH',
      payload: {
        events: [
          { type: 'EVENT_TYPE_VIRTUAL_AGENT_JOINED', payload: {}, timestamp: 1 },
          { type: 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', payload: { message_id: 'm1', text: 'Hi' }, timestamp: 2 },
        ],
      },
    });
    await s.sendMessage('hello');
    await until('the message', () => types().length > 0);
    assert.deepEqual(types(), ['EVENT_TYPE_USER_MESSAGE']);
    assert.equal(s.cursor, 2);
  });

  it('[MSG-27] a SESSION_END without a reason ends the session', async () => {
    const s = open();
    await s.connect();
    send({ type: 'SESSION_END', payload: {} });
    await until('the end', () => s.state.kind === 'closed');
    assert.match(s.state.kind === 'closed' ? s.state.message : '', /has ended/);
  });

  it('[MSG-29] "Error: Conversation not found" without a level: the session asks the agent to join again, and says so', async () => {
    const s = open();
    const recoveries: SessionRecovery[] = [];
    s.onRecovery((r) => recoveries.push(r));
    await s.connect();
    send({ type: 'EVENT_TYPE_EVENT_BATCH', payload: { events: [] } });
    await until('the first join', () => types().length === 1);
    send({ type: 'EVENT_TYPE_SYSTEM_MESSAGE', payload: { text: SYSTEM_ERRORS.conversationNotFound } });
    await until('the second join', () => types().length === 2);
    assert.deepEqual(types(), ['EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN']);
    assert.deepEqual(
      recoveries.map((r) => r.action),
      ['rejoin'],
    );
  });

  it('[MSG-29] "Error: Session not found": a new session is started and the connection moves to it', async () => {
    const s = open({
      newSession: async () => ({ sessionId: 'ses_2', accessToken: new AccessToken('tok2', 600) }),
      reconnect: { retries: 3, baseMs: 1, maxMs: 5 },
    });
    await s.connect();
    send({
      type: 'EVENT_TYPE_SYSTEM_MESSAGE',
      payload: { text: SYSTEM_ERRORS.sessionNotFound, level: 'SYSTEM_MESSAGE_LEVEL_ERROR' },
    });
    await until('the new session', () => s.sessionId === 'ses_2' && sockets.length === 2);
  });

  it('[MSG-20] a typing indicator refused as of an unknown type is told as refused once and not sent again; a later unknown-type error stays an error', async () => {
    const s = open();
    const system: SystemMessage[] = [];
    s.onSystemMessage((m) => system.push(m));
    await s.connect();
    send({
      type: 'EVENT_TYPE_EVENT_BATCH',
      payload: { events: [{ type: 'EVENT_TYPE_VIRTUAL_AGENT_JOINED', payload: {} }] },
    });
    await s.sendMessage('hello');
    await s.sendTyping(true);
    await until('the indicator', () => types().length === 2);
    const refusal = { type: 'EVENT_TYPE_SYSTEM_MESSAGE', payload: { text: SYSTEM_ERRORS.invalidFormat } };
    send(refusal);
    await until('the refusal', () => system.length === 1);
    assert.deepEqual(system[0]?.refused, { kind: 'userTyping', type: 'EVENT_TYPE_USER_TYPING', first: true });
    await s.sendTyping(false);
    await s.sendMessage('and gift cards?');
    await until('the message', () => types().length === 3);
    assert.deepEqual(
      types(),
      ['EVENT_TYPE_USER_MESSAGE', 'EVENT_TYPE_USER_TYPING', 'EVENT_TYPE_USER_MESSAGE'],
      'no second indicator',
    );
    send(refusal);
    await until('the second error', () => system.length === 2);
    assert.equal(system[1]?.refused, undefined, 'not taken for the indicator: none was in flight');
  });

  it("[MSG-19] the four assumed client event names can be changed; the join request keeps the spec's name", async () => {
    const s = open({ eventNames: { userMessage: 'USER_TEXT' } });
    await s.connect();
    send({
      type: 'EVENT_TYPE_EVENT_BATCH',
      payload: { events: [{ type: 'EVENT_TYPE_VIRTUAL_AGENT_JOINED', payload: {} }] },
    });
    await s.sendMessage('hello');
    await until('the message', () => types().length > 0);
    assert.deepEqual(types(), ['USER_TEXT']);
  });
});
