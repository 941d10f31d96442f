import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Delivery } from '../../../src/client/messagingLedger';
import type { RequestLog } from '../../../src/client/transport';
import type { MessagingSession, SessionState } from '../../../src/client/messagingSession';
import { startLocalPlatform } from '../../../src/localPlatform/server';
import { assumed, RESPONSES, useLocalPlatform } from '../../support/localPlatform';
import {
  agentTexts,
  count,
  messaging,
  QUICK_RECONNECT,
  type Recording,
  record,
  serverHistory,
  settle,
} from './messagingKit';
import { until } from '../../support/until';

/** Calls `fn` once, synchronously, when the session first starts reconnecting (the socket is already gone). */
function onFirstReconnect(session: MessagingSession, fn: () => void): void {
  const sub = session.onStateChange((s: SessionState) => {
    if (s.kind !== 'reconnecting') return;
    sub.dispose();
    fn();
  });
}

/** Every history event was delivered exactly once, in the order and with the ids the platform keeps. */
function assertWholeHistory(r: Recording, history: Array<{ id: string; type: string }>): void {
  const inHistory = new Set(history.map((h) => h.id));
  const delivered = r.events.filter((e) => inHistory.has(e.id)).map((e) => ({ id: e.id, type: e.type }));
  assert.deepEqual(delivered, history);
  assert.equal(new Set(r.events.map((e) => e.id)).size, r.events.length, 'no event delivered twice');
}

/** History positions are ours: a spec-minimal platform sends none, so replays may repeat what the client drops by id. */
const FULL = RESPONSES === 'full';

describe('client: messaging reconnects (spec: Messaging events > duplicate and ordering handling, Messaging session states)', () => {
  const t = useLocalPlatform();

  async function joined(options: { streamingEnabled?: boolean; logs?: RequestLog[] } = {}) {
    const client = messaging(t.lp, options.logs);
    const created = await client.createSession({ streamingEnabled: options.streamingEnabled ?? false });
    const session = client.session(created, { reconnect: QUICK_RECONNECT });
    const r = record(session);
    await session.connect();
    await until('the greeting', () => agentTexts(r).length === 1);
    return { session, r, sessionId: created.sessionId };
  }

  it('[MSG-26][MSG-17] a dropped socket: reconnect from the cursor, no second join, and a message sent meanwhile is delivered once', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const { session, r, sessionId } = await joined();
    const sentDuringOutage: Array<Promise<void>> = [];
    onFirstReconnect(session, () => sentDuringOutage.push(session.sendMessage('Can I return my order?')));
    await t.admin.addFault({ family: 'messaging', dropWebSocket: true, path: sessionId, times: 1 });
    await Promise.all(await until('the queued message', () => sentDuringOutage.length === 1 && sentDuringOutage));
    await until('the answer', () => agentTexts(r).length === 2);
    assert.deepEqual(
      r.states.map((s) => s.kind),
      ['connecting', 'open', 'reconnecting', 'open'],
    );
    // The second batch replays from the cursor: nothing in it was delivered before.
    assert.equal(r.histories.length, 2);
    // Without history positions (spec-minimal) the client resumes from the last batch and drops the repeats by id.
    if (FULL) assert.equal(r.histories[1]!.events, r.histories[1]!.fresh);
    if (FULL) assert.equal(r.histories[1]!.cursor, 2);
    assert.equal(count(r, 'EVENT_TYPE_VIRTUAL_AGENT_JOINED'), 1);
    assert.equal(
      r.events.filter((e) => e.type === 'EVENT_TYPE_USER_MESSAGE' && e.payload.text === 'Can I return my order?')
        .length,
      1,
    );
    assert.match(agentTexts(r)[1]!, /30 days/);
    assertWholeHistory(r, serverHistory(t.lp, sessionId));
    session.close();
  });

  it('[MSG-26][MSG-24] a drop in the middle of a streamed answer loses no event and repeats none', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE and its chunks", ctx)) return;
    await t.admin.setOptions({ streamDelayMs: 30 });
    try {
      const { session, r, sessionId } = await joined({ streamingEnabled: true });
      const chunked = r.messages.length;
      await session.sendMessage('What are your opening hours on Sunday?');
      await until('the first chunk', () => r.messages.slice(chunked).some((m) => m.state === 'streaming'));
      await t.admin.addFault({ family: 'messaging', dropWebSocket: true, path: sessionId, times: 1 });
      await until('the reconnect', () => r.states.some((s) => s.kind === 'reconnecting'));
      await session.sendMessage('And on Saturday?');
      await until('both answers', () => agentTexts(r).length === 3);
      assertWholeHistory(r, serverHistory(t.lp, sessionId));
      if (FULL) for (const h of r.histories) assert.equal(h.events, h.fresh, 'a replay holds only what was missed');
      const sunday = r.messages.filter((m) => m.state === 'complete').at(-2)!;
      assert.match(sunday.text, /^Our stores are open/);
      assert.equal(sunday.text, agentTexts(r)[1]);
      assert.equal(session.state.kind, 'open');
      session.close();
    } finally {
      await t.admin.setOptions({ streamDelayMs: 0 });
    }
  });

  it('[MSG-26][MSG-24] a message written while an answer streams, then a drop: the platform reads it only after that answer, so it is not written again meanwhile, and reaches the platform once', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE and its chunks", ctx)) return;
    const { session, r, sessionId } = await joined({ streamingEnabled: true });
    const deliveries: Delivery[] = [];
    session.onDelivery((d) => deliveries.push(d));
    // Pieces half a second apart: the answer streams on well past the reconnect's grace (1.5 s), and the platform
    // reads the next message only once it is done.
    await t.admin.setOptions({ streamDelayMs: 500 });
    try {
      const first = 'What are your opening hours on Sunday?';
      const second = 'And can I return an order?';
      await session.sendMessage(first);
      await until('the first piece of its answer', () => r.messages.some((m) => m.state === 'streaming'));
      await session.sendMessage(second);
      await t.admin.addFault({ family: 'messaging', dropWebSocket: true, path: sessionId, times: 1 });
      await until('both answers', () => agentTexts(r).length === 3, { timeoutMs: 30_000 });
      await until(
        'the second confirmed',
        () => deliveries.filter((d) => d.text === second).at(-1)?.state === 'delivered',
      );
      await settle(t.lp);
      assert.deepEqual(
        (await t.admin.receivedMessages(sessionId)).map((m) => m.text),
        [first, second],
        'each reached the platform once',
      );
      assert.ok(
        deliveries.filter((d) => d.text === second).every((d) => d.rewrites === 0 && d.state !== 'unconfirmed'),
        'the second was neither written again nor said to be unconfirmed',
      );
      assert.equal(r.states.filter((s) => s.kind === 'reconnecting').length, 1);
    } finally {
      await t.admin.setOptions({ streamDelayMs: 0 });
      session.close();
    }
  });

  it('[MSG-25] a session that expires while the connection is down: the reconnect meets 404 and the client says to start a new one', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const { session, r, sessionId } = await joined();
    let queued: Promise<void> | undefined;
    // Synchronous, in-process: the clock moves before the first reconnect attempt can run.
    onFirstReconnect(session, () => {
      t.lp.platform.clock.advance(11 * 60_000);
      queued = session.sendMessage('Are you still there?');
      queued.catch(() => undefined);
    });
    await t.admin.addFault({ family: 'messaging', dropWebSocket: true, path: sessionId, times: 1 });
    await until('the expiry', () => r.expired.length === 1);
    assert.equal(session.state.kind === 'closed' && session.state.reason, 'expired');
    assert.match(r.expired[0]!, /session not found.*Start a new session/);
    await settle(t.lp);
    assert.equal(r.states.filter((s) => s.kind === 'reconnecting').length, 1, 'one attempt, no loop');
    await assert.rejects(queued!, /Nothing was sent: .*expired/, 'a message kept for the reconnect is refused clearly');
    await assert.rejects(session.sendMessage('hello?'), /Nothing was sent: .*expired/);
  });

  it('[MSG-13][MSG-25] an access token that expired while the connection was down: a new token is fetched, and since it cannot reopen the session, the session is reported expired', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    await t.admin.setOptions({ sessionInactivityMs: 4 * 3600_000 });
    try {
      const logs: RequestLog[] = [];
      const { session, r, sessionId } = await joined({ logs });
      onFirstReconnect(session, () => t.lp.platform.clock.advance(61 * 60_000));
      await t.admin.addFault({ family: 'messaging', dropWebSocket: true, path: sessionId, times: 1 });
      await until('the expiry', () => r.expired.length === 1);
      assert.equal(logs.filter((l) => l.path.endsWith('/access-token')).length, 2, 'one token to start, one renewal');
      assert.equal(session.state.kind === 'closed' && session.state.reason, 'expired');
      assert.match(r.expired[0]!, /access token of this messaging session has expired.*Start a new session/);
      assert.equal(session.state.kind === 'closed' && session.state.error?.status, 401);
      await settle(t.lp);
      assert.equal(r.states.filter((s) => s.kind === 'reconnecting').length, 1);
    } finally {
      await t.admin.setOptions({ sessionInactivityMs: 600_000 });
    }
  });

  it('[MSG-26] reconnecting stops after a bounded number of attempts when the platform cannot be reached', async () => {
    const lp = await startLocalPlatform({ streamDelayMs: 0, seed: 'base' });
    let session: MessagingSession | undefined;
    try {
      const client = messaging(lp);
      const created = await client.createSession();
      session = client.session(created, { reconnect: { retries: 3, baseMs: 5, maxMs: 20 } });
      const r = record(session);
      await session.connect();
      await lp.close();
      await until('giving up', () => session!.state.kind === 'closed');
      assert.deepEqual(
        r.states.filter((s) => s.kind === 'reconnecting').map((s) => s.kind === 'reconnecting' && s.attempt),
        [1, 2, 3],
      );
      const closed = session.state;
      assert.ok(closed.kind === 'closed' && closed.reason === 'failed');
      assert.match(closed.message, /3 attempts to reconnect failed.*could not be reached/);
      assert.equal(closed.message.includes(created.accessToken.reveal()), false);
    } finally {
      session?.close();
      await lp.close().catch(() => undefined);
    }
  });
});
