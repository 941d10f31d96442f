import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type WebSocket, WebSocketServer } from 'ws';
import { AccessToken } from '../../../src/client/accessToken';
import type { Delivery } from '../../../src/client/messagingLedger';
import type { AgentMessage, HistoryBatch, UnrecognizedEvent } from '../../../src/client/messagingEvents';
import { MessagingSession } from '../../../src/client/messagingSession';
import { until } from '../../support/until';

// Delivery of the person's messages, against a messaging server of another make whose every move the test
// decides: whether it echoes, answers, drops the connection, and what its history batch looks like. The
// session keeps the one ledger of what was sent; nothing is written twice on a guess.

interface Sent {
  type: string;
  payload: { text?: string };
}

describe('client: messaging delivery, one ledger in the session (spec: Messaging events, MSG-26, MSG-28)', () => {
  let server: Server;
  let wss: WebSocketServer;
  let url = '';
  const sockets: WebSocket[] = [];
  const sessions: MessagingSession[] = [];
  /** Every user message the server received, in order. */
  let received: string[] = [];
  /** What the server replays on connect, and how it puts it in the batch. */
  let history: unknown[] = [];
  let batch: (events: unknown[]) => Record<string, unknown> = (events) => ({ events });
  /** What the server does with each user message (nothing by default: no echo, no answer). */
  let onMessage: (ws: WebSocket, text: string) => void = () => undefined;
  let ids = 0;
  const event = (type: string, payload: Record<string, unknown>) => ({
    id: `e${(ids += 1)}`,
    type,
    timestamp: new Date().toISOString(),
    payload,
    metadata: {},
  });
  const joined = () => event('EVENT_TYPE_VIRTUAL_AGENT_JOINED', { conversation_id: 'c1' });

  before(async () => {
    server = createServer();
    wss = new WebSocketServer({ server, path: '/ws' });
    wss.on('connection', (ws) => {
      sockets.push(ws);
      ws.send(JSON.stringify({ type: 'EVENT_TYPE_EVENT_BATCH', payload: batch(history) }));
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as Sent;
        if (m.type === 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN') {
          const e = joined();
          history.push(e);
          ws.send(JSON.stringify(e));
        } else if (m.type === 'EVENT_TYPE_USER_MESSAGE') {
          received.push(m.payload.text ?? '');
          onMessage(ws, m.payload.text ?? '');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    for (const s of sessions.splice(0)) s.dispose();
    for (const ws of sockets.splice(0)) ws.terminate();
    received = [];
    history = [];
    batch = (events) => ({ events });
    onMessage = () => undefined;
  });
  after(async () => {
    for (const s of sessions.splice(0)) s.dispose();
    for (const ws of sockets.splice(0)) ws.terminate();
    wss.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const open = async (opts: Partial<ConstructorParameters<typeof MessagingSession>[0]> = {}) => {
    const s = new MessagingSession({
      messagingUrl: url,
      sessionId: 'ses_1',
      accessToken: new AccessToken('tok', 600),
      reconnect: { retries: 5, baseMs: 5, maxMs: 20 },
      lostGraceMs: 50,
      ...opts,
    });
    sessions.push(s);
    const deliveries: Delivery[] = [];
    const answers: AgentMessage[] = [];
    const unknown: UnrecognizedEvent[] = [];
    const histories: HistoryBatch[] = [];
    s.onDelivery((d) => deliveries.push(d));
    s.onMessage((m) => answers.push(m));
    s.onUnrecognizedEvent((u) => unknown.push(u));
    s.onHistory((h) => histories.push(h));
    await s.connect();
    await until('the agent joined', () => history.length > 0 && s.state.kind === 'open');
    const last = (text: string) => deliveries.filter((d) => d.text === text).at(-1);
    return { s, deliveries, answers, unknown, histories, last };
  };
  const echo = (ws: WebSocket, text: string) => {
    const e = event('EVENT_TYPE_USER_MESSAGE', { text });
    history.push(e);
    ws.send(JSON.stringify(e));
  };
  const answer = (ws: WebSocket, text: string, type = 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE') => {
    const e = event(type, { text });
    history.push(e);
    ws.send(JSON.stringify(e));
  };

  it('[MSG-26] without an echo, a message written on a connection that dropped is not written again: it is unconfirmed until the person sends it again', async () => {
    // The server takes the message and the connection dies before it answers.
    onMessage = (ws) => ws.terminate();
    const { s, last, deliveries } = await open();
    await s.sendMessage('Can I return my order?');
    await until('unconfirmed after the reconnect', () => last('Can I return my order?')?.state === 'unconfirmed');
    const d = last('Can I return my order?')!;
    assert.equal(d.doubt, 'reconnected');
    assert.equal(d.echoKnown, false);
    assert.equal(d.rewrites, 0);
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(received, ['Can I return my order?'], 'written once: nothing is written again on a guess');

    onMessage = (ws, text) => answer(ws, `About "${text}": yes.`);
    await s.sendAgain(d.id);
    await until('the message sent again is answered', () =>
      deliveries.some((x) => x.id !== d.id && x.state === 'delivered' && x.confirmedBy === 'answer'),
    );
    assert.deepEqual(received, ['Can I return my order?', 'Can I return my order?'], 'once more, as the person asked');
    assert.equal(deliveries.filter((x) => x.id === d.id).at(-1)!.state, 'replaced');
  });

  it('[MSG-26] where the platform has echoed in this session, a message missing from the history after a reconnect is written again, once', async () => {
    let lost = false;
    onMessage = (ws, text) => {
      if (text !== 'second' || lost) return echo(ws, text);
      // The second is lost with the connection the first time: neither received nor echoed.
      lost = true;
      received.pop();
      ws.terminate();
    };
    const { s, last } = await open();
    await s.sendMessage('first');
    await until('the echo of the first', () => last('first')?.state === 'delivered');
    assert.equal(last('first')!.confirmedBy, 'echo');
    await s.sendMessage('second');
    await until('the second, echoed after being written again', () => last('second')?.state === 'delivered');
    assert.equal(last('second')!.rewrites, 1);
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(received, ['first', 'second'], 'each reached the server once');
  });

  it('an answer after a message confirms it where there is no echo; a message neither echoed nor answered is unconfirmed after the wait and not written again', async () => {
    onMessage = (ws, text) => (text === 'answered' ? answer(ws, 'Yes.') : undefined);
    const { s, last } = await open({ echoWaitMs: 50, answerWaitMs: 100 });
    await s.sendMessage('answered');
    await until('delivered by the answer', () => last('answered')?.state === 'delivered');
    assert.equal(last('answered')!.confirmedBy, 'answer');
    await s.sendMessage('ignored');
    await until('unconfirmed', () => last('ignored')?.state === 'unconfirmed');
    assert.equal(last('ignored')!.doubt, 'quiet');
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(received, ['answered', 'ignored']);
  });

  it('server event names: a name set is read as our event; an unknown event with one text field is kept with its name and text, counts as an answer, and is read as one once named', async () => {
    onMessage = (ws, text) => answer(ws, `Re: ${text}`, 'EVENT_TYPE_BOT_RESPONSE');
    const named = await open({ serverEventNames: { agentMessage: 'EVENT_TYPE_BOT_RESPONSE' } });
    await named.s.sendMessage('hello');
    await until('the answer read under its name', () => named.answers.some((m) => m.text === 'Re: hello'));
    assert.equal(named.unknown.length, 0);
    named.s.dispose();

    history = [];
    const plain = await open();
    await plain.s.sendMessage('are you there?');
    const u = await until('the unknown event', () => plain.unknown[0]);
    assert.equal(u.type, 'EVENT_TYPE_BOT_RESPONSE');
    assert.equal(u.text, 'Re: are you there?');
    await until('delivered by that answer', () => plain.last('are you there?')?.state === 'delivered');
    plain.s.useServerEventName('agentMessage', 'EVENT_TYPE_BOT_RESPONSE');
    await plain.s.sendMessage('and now?');
    await until('read as an answer', () => plain.answers.some((m) => m.text === 'Re: and now?'));
    assert.equal(plain.unknown.length, 1);
  });

  it('[MSG-15] a history batch of another shape is read from its one list; with no list, or several, it is said unreadable and not counted as empty', async () => {
    history = [joined(), event('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', { text: 'Hello again.' })];
    batch = (events) => ({ history: events });
    const one = await open();
    await until('the history read', () => one.histories.length === 1);
    assert.deepEqual(one.histories[0], { events: 2, fresh: 2, cursor: 2 });
    assert.deepEqual(
      one.answers.map((m) => m.text),
      ['Hello again.'],
    );
    one.s.dispose();

    batch = (events) => ({ replay: events, other: [] });
    const two = await open({ historyTimeoutMs: 100 });
    await until('the history said unreadable', () => two.histories.length === 1);
    assert.match(two.histories[0]!.unreadable ?? '', /2 lists \(replay, other\)/);
    assert.ok(two.unknown.some((u) => /history batch cannot be read/.test(u.problem)));
    assert.equal(two.answers.length, 0);
  });
});
