import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SYSTEM_ERRORS } from '../../../src/contract/messaging';
import { PlatformError } from '../../../src/client/errors';
import { MessagingSession, SessionClosedError } from '../../../src/client/messagingSession';
import { assumed, RESPONSES, useLocalPlatform } from '../../support/localPlatform';
import { EventClient, socketUrl } from '../../support/messaging';
import {
  agentTexts,
  connections,
  count,
  messaging,
  QUICK_RECONNECT,
  record,
  settle,
  serverHistory,
} from './messagingKit';
import { until } from '../../support/until';

describe('client: messaging session (spec: Messaging API, Events > Messaging events, Messaging session states)', () => {
  const t = useLocalPlatform();

  async function started(options: { streamingEnabled?: boolean } = {}) {
    const client = messaging(t.lp);
    const created = await client.createSession(options);
    const session = client.session(created, { reconnect: QUICK_RECONNECT });
    const r = record(session);
    await session.connect();
    await until('the greeting', () => agentTexts(r).length === 1);
    return { client, created, session, r };
  }

  it('[MSG-15][MSG-16] on a new session the history arrives first, then the client asks the agent to join and it greets', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const { session, r, created } = await started();
    assert.deepEqual(
      r.states.map((s) => s.kind),
      ['connecting', 'open'],
    );
    assert.deepEqual(r.histories, [{ events: 0, fresh: 0, cursor: 0 }]);
    assert.deepEqual(r.events.map((e) => e.type).slice(0, 1), ['EVENT_TYPE_VIRTUAL_AGENT_JOINED']);
    assert.match(agentTexts(r)[0]!, /^Hello! I'm Sam/);
    assert.ok(session.conversationId);
    assert.equal(t.lp.platform.findConversation(session.conversationId)?.channel, 'WEBCHAT');
    // The cursor follows the history positions, which are ours (a spec-minimal platform sends none).
    if (RESPONSES === 'full') assert.equal(session.cursor, serverHistory(t.lp, created.sessionId).length);
    session.close();
  });

  it('[MSG-10][MSG-16] startSession creates a session with a new token, connects, and the agent joins', async () => {
    const session = await messaging(t.lp).startSession({ platform: 'android' });
    assert.equal(session.state.kind, 'open');
    await until('the join', () =>
      serverHistory(t.lp, session.sessionId).some((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_JOINED'),
    );
    const listed = await t.admin.messagingSessions();
    assert.deepEqual(
      listed.map((s) => [s.session_id, s.platform, s.connections]),
      [[session.sessionId, 'android', 1]],
    );
    session.dispose();
  });

  it('[MSG-17] opening a joined session again replays its history once and does not ask the agent to join again', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const first = await started();
    first.session.close();
    const again = first.client.session(first.created);
    const r = record(again);
    await again.connect();
    assert.deepEqual(r.histories, [{ events: 2, fresh: 2, cursor: 2 }]);
    assert.deepEqual(
      r.events.map((e) => e.type),
      ['EVENT_TYPE_VIRTUAL_AGENT_JOINED', 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE'],
    );
    // The platform answers events of a session in order: a join sent before this message would show first.
    await again.sendMessage('What are your opening hours?');
    await until('the answer', () => agentTexts(r).length === 2);
    assert.equal(count(r, 'EVENT_TYPE_VIRTUAL_AGENT_JOINED'), 1);
    assert.equal(agentTexts(r).filter((x) => x.startsWith('Hello')).length, 1, 'no second greeting');
    again.close();
  });

  it('[MSG-24] with streaming the answer grows chunk by chunk, and the final text is the complete message', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE and its chunks", ctx)) return;
    const { session, r } = await started({ streamingEnabled: true });
    const from = r.messages.length;
    await session.sendMessage('What are your opening hours on Sunday?');
    const done = await until('the complete answer', () => r.messages.slice(from).find((m) => m.state === 'complete'));
    const steps = r.messages.slice(from).filter((m) => m.messageId === done.messageId);
    const partial = steps.filter((m) => m.state === 'streaming');
    assert.ok(partial.length > 1, 'several chunks');
    for (let i = 1; i < steps.length; i++)
      assert.ok(steps[i]!.text.startsWith(steps[i - 1]!.text), 'each step extends the last');
    assert.ok(partial.at(-1)!.text.length > 0);
    assert.equal(done.text, agentTexts(r).at(-1));
    assert.match(done.text, /^Our stores are open/);
    session.close();
  });

  it('[MSG-23] custom metadata sent with a message comes back on its echo and its answer', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE and the echo EVENT_TYPE_USER_MESSAGE", ctx))
      return;
    const { session, r } = await started();
    await session.sendMessage('How long does delivery take?', { trace: 'abc-123' });
    await until('the answer', () => agentTexts(r).length === 2);
    const echo = r.events.find((e) => e.type === 'EVENT_TYPE_USER_MESSAGE')!;
    assert.deepEqual(echo.metadata.custom, { trace: 'abc-123' });
    assert.deepEqual(r.events.at(-1)!.metadata.custom, { trace: 'abc-123' });
    session.close();
  });

  it('[MSG-22][MSG-29] a failed answer is a system error with its level; the connection stays open and a re-send works', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const { session, r, created } = await started();
    await t.admin.addFault({
      family: 'messaging',
      messagingError: 'response-failed',
      path: created.sessionId,
      times: 1,
    });
    await session.sendMessage('Can I return an item?');
    const error = await until('the system error', () => r.system[0]);
    assert.deepEqual(
      { level: error.level, text: error.text, isError: error.isError },
      { level: 'SYSTEM_MESSAGE_LEVEL_ERROR', text: SYSTEM_ERRORS.responseFailed, isError: true },
    );
    assert.equal(session.state.kind, 'open');
    await session.sendMessage('Can I return an item?');
    await until('the answer', () => agentTexts(r).some((x) => /30 days/.test(x)));
    assert.deepEqual(
      r.states.map((s) => s.kind),
      ['connecting', 'open'],
    );
    session.close();
  });

  it('[MSG-29][MSG-24] an interrupted stream leaves the partial answer marked interrupted', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE and its chunks", ctx)) return;
    const { session, r, created } = await started({ streamingEnabled: true });
    await t.admin.addFault({
      family: 'messaging',
      messagingError: 'stream-interrupted',
      path: created.sessionId,
      times: 1,
    });
    await session.sendMessage('What are your opening hours on Sunday?');
    const cut = await until('the interrupted answer', () => r.messages.find((m) => m.state === 'interrupted'));
    assert.ok(cut.text.length > 0);
    assert.ok('Our stores are open'.startsWith(cut.text) || cut.text.startsWith('Our stores are open'));
    assert.equal(r.system.at(-1)!.text, SYSTEM_ERRORS.streamInterrupted);
    assert.equal(session.state.kind, 'open');
    session.close();
  });

  it('[MSG-27][MSG-29] "Error: Session not found" is followed by SESSION_END: the session moves to a new one, which the old one\'s end does not close', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const { session, r, created } = await started();
    await t.admin.addFault({
      family: 'messaging',
      messagingError: 'session-not-found',
      path: created.sessionId,
      times: 1,
    });
    await session.sendMessage('hello again');
    await until('the new session', () => session.sessionId !== created.sessionId && session.state.kind === 'open');
    assert.equal(r.system.at(-1)!.text, SYSTEM_ERRORS.sessionNotFound);
    assert.deepEqual(r.ends, ['session_not_found'], "the old session's end was told");
    await until('the agent in the new session', () => agentTexts(r).length === 2);
    await session.sendMessage('Are you open on Sunday?');
    await until('an answer in the new session', () => agentTexts(r).length === 3);
    assert.notEqual(session.state.kind, 'closed');
    session.close();
  });

  it('[MSG-27] without a way to start a new session, "Error: Session not found" and its SESSION_END end the session', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const client = messaging(t.lp);
    const created = await client.createSession();
    const session = new MessagingSession({
      messagingUrl: t.lp.urls.messaging,
      sessionId: created.sessionId,
      accessToken: created.accessToken,
      reconnect: QUICK_RECONNECT,
    });
    const r = record(session);
    await session.connect();
    await until('the greeting', () => agentTexts(r).length === 1);
    await t.admin.addFault({
      family: 'messaging',
      messagingError: 'session-not-found',
      path: created.sessionId,
      times: 1,
    });
    await session.sendMessage('hello again');
    await until('the end', () => session.state.kind === 'closed');
    await settle(t.lp);
    assert.equal(
      r.states.some((s) => s.kind === 'reconnecting'),
      false,
    );
    await assert.rejects(session.sendMessage('anyone?'), (err: unknown) => err instanceof SessionClosedError);
  });

  it('[MSG-29] "high load" answering the join: the join is tried again a little later, and the agent greets', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const client = messaging(t.lp);
    const created = await client.createSession();
    await t.admin.addFault({ family: 'messaging', messagingError: 'overload', path: created.sessionId, times: 1 });
    const session = client.session(created, { reconnect: QUICK_RECONNECT, retryLaterMs: 20 });
    const r = record(session);
    await session.connect();
    await until('the greeting after the retried join', () => agentTexts(r).length === 1);
    assert.equal(r.system.at(-1)!.text, SYSTEM_ERRORS.overload);
    session.close();
  });

  it('[MSG-29] "high load" answering a message: it is sent again with its custom metadata, which its answer echoes', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const client = messaging(t.lp);
    const created = await client.createSession();
    const session = client.session(created, { reconnect: QUICK_RECONNECT, retryLaterMs: 20 });
    const r = record(session);
    await session.connect();
    await until('the greeting', () => agentTexts(r).length === 1);
    await t.admin.addFault({ family: 'messaging', messagingError: 'overload', path: created.sessionId, times: 1 });
    await session.sendMessage('Are you open on Sunday?', { order: 'A-7' });
    await until('the answer to the message sent again', () => agentTexts(r).length === 2);
    const answer = r.events.filter((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE').at(-1)!;
    assert.deepEqual(answer.metadata.custom, { order: 'A-7' });
    session.close();
  });

  it('[MSG-16] ending the session: SESSION_END ended_by_user, closed, no reconnect', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const { session, r, created } = await started();
    await session.endSession();
    await until('the end', () => r.ends.length === 1);
    assert.deepEqual(r.ends, ['ended_by_user']);
    assert.equal(session.state.kind === 'closed' && session.state.reason, 'ended');
    await settle(t.lp);
    assert.equal(
      r.states.some((s) => s.kind === 'reconnecting'),
      false,
    );
    assert.equal(await connections(t.lp, created.sessionId), 0);
  });

  it('[MSG-25] inactivity on the platform clock: SESSION_END inactivity is surfaced as expiry, without a reconnect loop', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const { session, r } = await started();
    await t.admin.advanceClock(11 * 60_000);
    await until('the expiry', () => r.expired.length === 1);
    assert.deepEqual(r.ends, ['inactivity']);
    assert.equal(session.state.kind === 'closed' && session.state.reason, 'expired');
    assert.match(r.expired[0]!, /expired.*Start a new session/);
    await settle(t.lp);
    assert.equal(
      r.states.some((s) => s.kind === 'reconnecting'),
      false,
    );
  });

  it('[MSG-19] a message is checked against the contract before it is sent; lengths are not (the spec shows none)', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const { session, created } = await started();
    const before = serverHistory(t.lp, created.sessionId).length;
    await assert.rejects(
      session.sendMessage(''),
      (err: unknown) => err instanceof PlatformError && err.kind === 'invalidInput' && /text/.test(err.message),
    );
    await assert.rejects(
      session.sendMessage(42 as unknown as string),
      (err: unknown) => err instanceof PlatformError && err.kind === 'invalidInput',
    );
    await assert.rejects(
      session.requestHandoff(7 as unknown as string),
      (err: unknown) => err instanceof PlatformError && err.kind === 'invalidInput' && /reason/.test(err.message),
    );
    await settle(t.lp);
    assert.equal(serverHistory(t.lp, created.sessionId).length, before);
    session.close();
  });

  it('[MSG-19] a message of 5,000 characters goes out: the spec shows no maximum length', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const { session, r } = await started();
    const answers = count(r, 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE');
    await session.sendMessage('x'.repeat(5000));
    await until('the answer', () => count(r, 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE') > answers);
    session.close();
  });

  it('[MSG-19] asking for a person: the handoff starts and the live agent greets', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE and the handoff events", ctx)) return;
    const { session, r } = await started();
    const handoffs: string[] = [];
    session.onHandoff((h) => handoffs.push(h.kind === 'started' ? `started ${h.destination}` : `ended ${h.reason}`));
    await session.requestHandoff('billing question');
    await until('the live agent', () => count(r, 'EVENT_TYPE_LIVE_AGENT_MESSAGE') === 1);
    assert.deepEqual(handoffs, ['started human-support-queue']);
    await session.endSession();
    await until('the end', () => session.state.kind === 'closed');
    assert.deepEqual(handoffs, ['started human-support-queue', 'ended session_ended']);
  });

  it('[MSG-12] an unknown session: the handshake 404 "session not found" is surfaced and the session is over', async () => {
    const client = messaging(t.lp);
    const session = client.session({ sessionId: 'ses_unknown', accessToken: await client.accessToken() });
    await assert.rejects(
      session.connect(),
      (err: unknown) =>
        err instanceof PlatformError &&
        err.status === 404 &&
        err.kind === 'notFound' &&
        /session not found/.test(err.message),
    );
    assert.equal(session.state.kind === 'closed' && session.state.reason, 'expired');
  });

  it('[MSG-13] a token of another session: 401 "authentication failed", the token nowhere in the error', async () => {
    const client = messaging(t.lp);
    const created = await client.createSession();
    const other = await client.accessToken();
    const session = new MessagingSession({
      messagingUrl: t.lp.urls.messaging,
      sessionId: created.sessionId,
      accessToken: other,
    });
    await assert.rejects(session.connect(), (err: unknown) => {
      assert.ok(err instanceof PlatformError && err.status === 401 && err.kind === 'unauthorized');
      assert.match(err.message, /authentication failed/);
      assert.equal(err.message.includes(other.reveal()), false);
      return true;
    });
    assert.equal(session.state.kind === 'closed' && session.state.reason, 'unauthorized');
    assert.equal(JSON.stringify(session.state).includes(other.reveal()), false);
  });

  it('[MSG-14] an 11th connection: 429 "connection limit exceeded for session"', async () => {
    const client = messaging(t.lp);
    const created = await client.createSession();
    const url = socketUrl(t.lp, { access_token: created.accessToken.reveal(), session_id: created.sessionId });
    const others = await Promise.all(Array.from({ length: 10 }, () => EventClient.open(url)));
    try {
      const session = client.session(created);
      await assert.rejects(
        session.connect(),
        (err: unknown) =>
          err instanceof PlatformError &&
          err.status === 429 &&
          err.kind === 'rateLimited' &&
          /connection limit exceeded/.test(err.message),
      );
    } finally {
      for (const o of others) o.close();
    }
  });

  it('[MSG-26] closing here stops for good: no reconnect, no socket left, the session stays on the platform', async (ctx) => {
    if (assumed("the agent's answer under EVENT_TYPE_VIRTUAL_AGENT_MESSAGE", ctx)) return;
    const { session, r, created } = await started();
    session.close();
    await settle(t.lp);
    assert.deepEqual(
      r.states.map((s) => s.kind),
      ['connecting', 'open', 'closed'],
    );
    assert.equal(await connections(t.lp, created.sessionId), 0);
    await assert.rejects(session.sendMessage('hi'), SessionClosedError);
    const again = messaging(t.lp).session(created);
    await again.connect();
    again.close();
  });
});
