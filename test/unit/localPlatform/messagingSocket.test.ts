import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverEventSchema } from '../../../src/contract/messaging';
import { call } from '../../support/http';
import { LocalAdmin } from '../../support/localAdmin';
import { useLocalPlatform } from '../../support/localPlatform';
import {
  accessToken,
  advanceClock,
  connect,
  EventClient,
  injectFault,
  joined,
  newSession,
  refusalOf,
  socketUrl,
} from '../../support/messaging';

describe('Messaging WebSocket (spec: Endpoints > Messaging API, Events > Messaging events, Messaging session states)', () => {
  const t = useLocalPlatform();

  for (const [label, params] of [
    ['without access_token', { session_id: 'ses_x' }],
    ['without session_id', { access_token: 'x' }],
    ['with neither', {}],
  ] as const) {
    it(`[MSG-11] a handshake ${label} is refused with 400 "invalid connection parameters"`, async () => {
      const refusal = await refusalOf(socketUrl(t.lp, params));
      assert.equal(refusal.status, 400);
      assert.deepEqual(refusal.body, { message: 'invalid connection parameters' });
    });
  }

  it('[MSG-12] an unknown session is refused with 404 "session not found"', async () => {
    const token = await accessToken(t.lp);
    const refusal = await refusalOf(socketUrl(t.lp, { access_token: token, session_id: 'ses_unknown' }));
    assert.equal(refusal.status, 404);
    assert.equal(refusal.body.message, 'session not found');
  });

  it('[MSG-13] an invalid token or a token of another session is refused with 401 "authentication failed"', async () => {
    const token = await accessToken(t.lp);
    const sessionId = await newSession(t.lp, token);
    const other = await accessToken(t.lp);
    for (const bad of ['garbage', other]) {
      const refusal = await refusalOf(socketUrl(t.lp, { access_token: bad, session_id: sessionId }));
      assert.equal(refusal.status, 401);
      assert.equal(refusal.body.message, 'authentication failed');
    }
  });

  it('[MSG-14] the 11th simultaneous connection of a session is refused with 429; a freed place can be taken again', async () => {
    const first = await connect(t.lp);
    const clients = [first.client];
    for (let i = 1; i < 10; i++)
      clients.push((await connect(t.lp, { token: first.token, sessionId: first.sessionId })).client);
    const url = socketUrl(t.lp, { access_token: first.token, session_id: first.sessionId });
    const refusal = await refusalOf(url);
    assert.equal(refusal.status, 429);
    assert.equal(refusal.body.message, 'connection limit exceeded for session');
    const freed = clients.pop()!;
    freed.close();
    await freed.closed;
    while (
      (await call<{ sessions: Array<{ connections: number }> }>('GET', `${t.lp.urls.admin}/messaging/sessions`)).body
        .sessions[0]!.connections > 9
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const again = await EventClient.open(url);
    clients.push(again);
    for (const c of clients) c.close();
  });

  it('[MSG-15][MSG-16] after connect the history batch comes first; the agent joins only when asked', async () => {
    const { client, batch } = await connect(t.lp);
    assert.equal(client.events[0], batch);
    assert.deepEqual(batch.payload, { events: [], cursor: 0 });
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hello?' } });
    await client.systemError('Error: Conversation not found');
    assert.equal(
      client.events.some((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_JOINED'),
      false,
    );
    client.send({ type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', payload: {} });
    const joinedEvent = await client.type('EVENT_TYPE_VIRTUAL_AGENT_JOINED');
    const greeting = await client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', joinedEvent);
    assert.equal(greeting.payload.text, "Hello! I'm Sam, the support agent of Acme. How can I help you today?");
    const conv = t.lp.platform.findConversation(String(joinedEvent.payload.conversation_id))!;
    assert.equal(conv.channel, 'WEBCHAT');
    assert.equal(conv.in_progress, true);
    client.close();
  });

  it('[MSG-17] reconnecting with a cursor replays history from it, and a repeated join adds no greeting', async () => {
    const { client, token, sessionId } = await joined(t.lp);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'What are your opening hours?' } });
    const answer = await client.waitFor(
      (e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE' && String(e.payload.text).includes('Monday'),
    );
    client.close();
    await client.closed;

    const full = await connect(t.lp, { token, sessionId, cursor: '0' });
    const all = full.batch.payload.events as Array<{ type: string; metadata: { position: number } }>;
    assert.deepEqual(
      all.map((e) => e.type),
      [
        'EVENT_TYPE_VIRTUAL_AGENT_JOINED',
        'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE',
        'EVENT_TYPE_USER_MESSAGE',
        'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE',
      ],
    );
    assert.deepEqual(
      all.map((e) => e.metadata.position),
      [0, 1, 2, 3],
    );
    assert.equal(full.batch.payload.cursor, 4);
    assert.equal((all[3] as unknown as { id: string }).id, answer.id);
    full.client.close();

    const tail = await connect(t.lp, { token, sessionId, cursor: '2' });
    assert.deepEqual(
      (tail.batch.payload.events as Array<{ type: string }>).map((e) => e.type),
      ['EVENT_TYPE_USER_MESSAGE', 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE'],
    );
    tail.client.send({ type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', payload: {} });
    const again = await tail.client.type('EVENT_TYPE_VIRTUAL_AGENT_JOINED');
    tail.client.send({ type: 'EVENT_TYPE_USER_TYPING', payload: { typing: true } });
    tail.client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'and delivery?' } });
    await tail.client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', again);
    assert.equal(
      tail.client.events.filter(
        (e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE' && String(e.payload.text).startsWith('Hello'),
      ).length,
      0,
    );
    tail.client.close();
  });

  for (const cursor of ['abc', '-1', '1.5', '999', '']) {
    it(`[MSG-18] an invalid cursor "${cursor}" does not reject the connection and replays from 0`, async () => {
      const { client, token, sessionId } = await joined(t.lp);
      client.close();
      const re = await connect(t.lp, { token, sessionId, cursor });
      const events = re.batch.payload.events as Array<{ type: string }>;
      assert.equal(events[0]?.type, 'EVENT_TYPE_VIRTUAL_AGENT_JOINED');
      assert.equal(events.length, 2);
      re.client.close();
    });
  }

  it('[MSG-19] exactly five client event types are accepted: join, user message, typing, handoff request, end session', async () => {
    const { client } = await connect(t.lp);
    client.send({ type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', payload: {} });
    const greeting = await client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE');
    client.send({ type: 'EVENT_TYPE_USER_TYPING', payload: { typing: true } });
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'Can I return an item?' } });
    const echo = await client.type('EVENT_TYPE_USER_MESSAGE', greeting);
    assert.equal(echo.payload.text, 'Can I return an item?');
    const answer = await client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', echo);
    assert.match(String(answer.payload.text), /30 days/);
    client.send({ type: 'EVENT_TYPE_REQUEST_HANDOFF', payload: { reason: 'billing question' } });
    const handoff = await client.type('EVENT_TYPE_HANDOFF_STARTED', answer);
    assert.deepEqual(handoff.payload, { destination: 'human-support-queue', reason: 'billing question' });
    client.send({ type: 'EVENT_TYPE_END_SESSION', payload: {} });
    const end = await client.type('SESSION_END', handoff);
    assert.deepEqual(end.payload, { reason: 'ended_by_user' });
    assert.equal(
      client.events.some((e) => e.type === 'EVENT_TYPE_SYSTEM_MESSAGE'),
      false,
    );
    assert.equal((await client.closed).code, 1000);
  });

  it('[MSG-23] every received event has id, timestamp and metadata, and metadata.custom echoes what the client sent', async () => {
    const { client, greeting } = await joined(t.lp, { streaming: true });
    const custom = { trace: 'abc-123', page: '/help' };
    client.send({
      type: 'EVENT_TYPE_USER_MESSAGE',
      payload: { text: 'How long does delivery take?' },
      metadata: { custom },
    });
    const answer = await client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', greeting);
    const reply = client.events.slice(client.events.indexOf(greeting) + 1);
    assert.ok(reply.some((e) => e.type === 'EVENT_TYPE_USER_MESSAGE'));
    for (const e of client.events) {
      assert.ok(serverEventSchema.safeParse(e).success, JSON.stringify(e));
      assert.ok(!Number.isNaN(Date.parse(e.timestamp)));
    }
    for (const e of reply) assert.deepEqual(e.metadata.custom, custom, e.type);
    assert.equal(new Set(client.events.map((e) => e.id)).size, client.events.length, 'ids are unique');
    assert.match(String(answer.payload.text), /working days/);
    client.close();
  });

  it('[MSG-24] with streaming enabled the answer arrives as chunks, then the complete message', async () => {
    const { client, greeting } = await joined(t.lp, { streaming: true });
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'What are your opening hours on Sunday?' } });
    const final = await client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', greeting);
    const chunks = client.events.filter(
      (e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK' && e.payload.message_id === final.payload.message_id,
    );
    assert.ok(chunks.length > 3);
    assert.deepEqual(
      chunks.map((c) => c.payload.index),
      chunks.map((_, i) => i),
    );
    assert.equal(chunks.map((c) => c.payload.text).join(''), final.payload.text);
    assert.ok(client.events.indexOf(chunks.at(-1)!) < client.events.indexOf(final));
    client.close();
  });

  it('[MSG-24] with streaming off the answer arrives as one complete message, no chunks', async () => {
    const { client } = await joined(t.lp);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'What are your opening hours on Sunday?' } });
    const final = await client.waitFor(
      (e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE' && String(e.payload.text).includes('Sunday'),
    );
    assert.match(String(final.payload.text), /^Our stores are open/);
    assert.equal(
      client.events.some((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK'),
      false,
    );
    assert.ok(client.events.some((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_TYPING'));
    client.close();
  });

  it('[MSG-25] inactivity on the platform clock expires a session: open sockets get SESSION_END, then 404 at the handshake', async () => {
    const { client, token, sessionId } = await joined(t.lp);
    const convId = String((await client.type('EVENT_TYPE_VIRTUAL_AGENT_JOINED')).payload.conversation_id);
    await advanceClock(t.lp, 9 * 60_000);
    client.send({ type: 'EVENT_TYPE_USER_TYPING', payload: { typing: true } });
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'still here' } });
    await client.type('EVENT_TYPE_USER_MESSAGE');
    await advanceClock(t.lp, 9 * 60_000);
    assert.equal(
      client.events.some((e) => e.type === 'SESSION_END'),
      false,
      'activity keeps the session alive',
    );
    await advanceClock(t.lp, 2 * 60_000);
    const end = await client.type('SESSION_END');
    assert.deepEqual(end.payload, { reason: 'inactivity' });
    await client.closed;
    const refusal = await refusalOf(socketUrl(t.lp, { access_token: token, session_id: sessionId }));
    assert.equal(refusal.status, 404);
    assert.equal(refusal.body.message, 'session not found');
    assert.equal(t.lp.platform.findConversation(convId)!.in_progress, false);
  });

  it('[MSG-25] a session without sockets expires too and cannot be resumed', async () => {
    const token = await accessToken(t.lp);
    const sessionId = await newSession(t.lp, token);
    await advanceClock(t.lp, 10 * 60_000 + 1000);
    const refusal = await refusalOf(socketUrl(t.lp, { access_token: token, session_id: sessionId }));
    assert.equal(refusal.status, 404);
  });

  it('[MSG-26] a dropped connection does not end the session: the client reconnects and the history is kept', async () => {
    const { client, token, sessionId } = await joined(t.lp);
    await injectFault(t.lp, { dropWebSocket: true, path: sessionId, times: 1 });
    const closed = await client.closed;
    assert.equal(closed.code, 1006, 'closed abruptly, without a close frame');
    const re = await connect(t.lp, { token, sessionId, cursor: '0' });
    assert.equal((re.batch.payload.events as unknown[]).length, 2);
    re.client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'Can I return my order?' } });
    const answer = await re.client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE');
    assert.match(String(answer.payload.text), /30 days/);
    re.client.close();
  });

  it('[MSG-26] a chaos fault holds the socket while an answer streams: every piece arrives late, once and in order', async () => {
    const { client, sessionId, greeting } = await joined(t.lp, { streaming: true });
    await injectFault(t.lp, { path: sessionId, chaos: { seed: 7, rate: 1, dropShare: 0, maxDelayMs: 30 }, times: 3 });
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'What are your opening hours on Sunday?' } });
    const answer = await client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', greeting);
    const pieces = client.events
      .slice(client.events.indexOf(greeting))
      .filter((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK');
    assert.deepEqual(
      pieces.map((e) => e.payload.index),
      pieces.map((_, i) => i),
    );
    assert.equal(pieces.map((e) => e.payload.text).join(''), answer.payload.text);
    const [session] = await new LocalAdmin(t.lp.urls.admin).messagingSessions();
    assert.deepEqual(session!.chaos, { drops: 0, delays: 3 });
    client.close();
  });

  it('[MSG-26] a chaos fault drops the socket while an answer streams, and the same seed makes the same choices', async () => {
    const tallies = [];
    for (let run = 0; run < 2; run++) {
      await new LocalAdmin(t.lp.urls.admin).reset('base');
      const { client, sessionId } = await joined(t.lp, { streaming: true });
      await injectFault(t.lp, { path: sessionId, chaos: { seed: 11, rate: 0.5 }, times: 20 });
      client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'How long does delivery take?' } });
      // Without a reconnect the choices stop at the first drop (a session without a socket draws nothing).
      assert.equal((await client.closed).code, 1006);
      tallies.push((await new LocalAdmin(t.lp.urls.admin).messagingSessions())[0]!.chaos);
    }
    assert.equal(tallies[0]!.drops, 1);
    assert.deepEqual(tallies[1], tallies[0]);
  });

  it('a chaos fault that is not an object, or whose seed, chances or delay are out of range, is refused', async () => {
    for (const chaos of [
      'often',
      { seed: 'x' },
      { seed: 1, rate: 2 },
      { seed: 1, dropShare: -1 },
      { seed: 1, maxDelayMs: 1e9 },
    ]) {
      const res = await call('POST', `${t.lp.urls.admin}/faults`, { body: { family: 'messaging', chaos } });
      assert.equal(res.status, 400, JSON.stringify(chaos));
    }
  });

  it('[MSG-26] closing the socket leaves the session and its conversation open', async () => {
    const { client, token, sessionId } = await joined(t.lp);
    const convId = String(
      client.events.find((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_JOINED')!.payload.conversation_id,
    );
    client.close();
    await client.closed;
    assert.equal(t.lp.platform.findConversation(convId)!.in_progress, true);
    const re = await connect(t.lp, { token, sessionId });
    re.client.close();
  });

  it('[MSG-16] goodbye ends the conversation and the session', async () => {
    const { client, greeting } = await joined(t.lp);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: "that's all, bye" } });
    const bye = await client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', greeting);
    assert.match(String(bye.payload.text), /Goodbye/);
    const end = await client.type('SESSION_END', bye);
    assert.deepEqual(end.payload, { reason: 'conversation_ended' });
  });

  it('[MSG-26] a platform reset closes open sockets', async () => {
    const { client } = await joined(t.lp);
    await t.admin.reset();
    const closed = await client.closed;
    assert.equal(closed.code, 1012);
  });
});
