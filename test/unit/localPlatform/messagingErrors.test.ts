import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SERVER_EVENT_TYPES, SYSTEM_ERRORS, type ServerEvent } from '../../../src/contract/messaging';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';
import { advanceClock, connect, type EventClient, injectFault, joined } from '../../support/messaging';

/** The socket is still open and answering: a user message gets its echo. */
async function stillAnswers(client: EventClient, after: ServerEvent): Promise<void> {
  client.send({ type: 'EVENT_TYPE_USER_TYPING', payload: { typing: false } });
  client.send({ type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', payload: {} });
  await client.type('EVENT_TYPE_VIRTUAL_AGENT_JOINED', after);
}

describe('Messaging system messages and session end (spec: Errors > Messaging system-message errors)', () => {
  const t = useLocalPlatform();

  const malformed: Array<[string, string]> = [
    ['text that is not JSON', '{"type": "EVENT_TYPE_USER_MESSAGE", '],
    ['JSON that is not an event', '[1, 2, 3]'],
    ['an unknown type', JSON.stringify({ type: 'EVENT_TYPE_DANCE', payload: {} })],
    ['a missing payload', JSON.stringify({ type: 'EVENT_TYPE_USER_MESSAGE' })],
    ['a user message without text', JSON.stringify({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { body: 'hi' } })],
    ['typing that is not a boolean', JSON.stringify({ type: 'EVENT_TYPE_USER_TYPING', payload: { typing: 'yes' } })],
  ];
  for (const [label, raw] of malformed) {
    it(`[MSG-20][MSG-22] ${label}: "Unknown event type or invalid message format" at error level; the connection stays open`, async () => {
      const { client, batch } = await connect(t.lp);
      client.send(raw);
      const error = await client.systemError(SYSTEM_ERRORS.invalidFormat);
      assert.equal(error.payload.level, 'SYSTEM_MESSAGE_LEVEL_ERROR');
      await stillAnswers(client, batch);
      client.close();
    });
  }

  for (const type of SERVER_EVENT_TYPES) {
    it(`[MSG-21][MSG-22] a client sending ${type}: "Event type not allowed: ${type}"; the connection stays open`, async () => {
      const { client, batch } = await connect(t.lp);
      client.send({ type, payload: {} });
      const error = await client.systemError(`Event type not allowed: ${type}`);
      assert.equal(error.payload.level, 'SYSTEM_MESSAGE_LEVEL_ERROR');
      await stillAnswers(client, batch);
      client.close();
    });
  }

  // Situations provoked by an injected fault: [fault, what the client sends, expected text].
  const faulted: Array<[string, string]> = [
    ['overload', SYSTEM_ERRORS.overload],
    ['response-failed', SYSTEM_ERRORS.responseFailed],
    ['session-lookup', SYSTEM_ERRORS.sessionLookupFailed],
    ['conversation-id-not-found', SYSTEM_ERRORS.conversationIdNotFound],
    ['conversation-not-found', SYSTEM_ERRORS.conversationNotFound],
    // A fault may also name its message by the exact text.
    [SYSTEM_ERRORS.overload, SYSTEM_ERRORS.overload],
  ];
  for (const [fault, text] of faulted) {
    it(`[MSG-29][MSG-22] fault ${fault}: "${text}"; the connection stays open and a retry works`, async () => {
      const { client, sessionId, greeting } = await joined(t.lp);
      await injectFault(t.lp, { messagingError: fault, path: sessionId, times: 1 });
      client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'Can I return my order?' } });
      const error = await client.systemError(text, greeting);
      assert.equal(error.payload.level, 'SYSTEM_MESSAGE_LEVEL_ERROR');
      client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'Can I return my order?' } });
      const answer = await client.type('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', error);
      assert.match(String(answer.payload.text), /30 days/);
      assert.equal(
        client.events.some((e) => e.type === 'SESSION_END'),
        false,
      );
      client.close();
    });
  }

  it('[MSG-29] the agent fails to start: "unable to start a conversation"; a second join request succeeds', async () => {
    const { client, sessionId, batch } = await connect(t.lp);
    await injectFault(t.lp, { messagingError: 'start-failed', path: sessionId, times: 1 });
    client.send({ type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', payload: {} });
    const error = await client.systemError(SYSTEM_ERRORS.startFailed, batch);
    client.send({ type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', payload: {} });
    await client.type('EVENT_TYPE_VIRTUAL_AGENT_JOINED', error);
    client.close();
  });

  it('[MSG-29][MSG-24] streaming interrupted: some chunks, then "Sorry, I encountered an error", and no complete message', async () => {
    const { client, sessionId, greeting } = await joined(t.lp, { streaming: true });
    await injectFault(t.lp, { messagingError: 'stream-interrupted', path: sessionId, times: 1 });
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'How long does delivery take?' } });
    const error = await client.systemError(SYSTEM_ERRORS.streamInterrupted, greeting);
    const after = client.events.slice(client.events.indexOf(greeting) + 1, client.events.indexOf(error));
    assert.ok(after.some((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK'));
    assert.equal(
      after.some((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE'),
      false,
    );
    client.close();
  });

  it('[MSG-29] a user message before the join: "Error: Conversation not found"', async () => {
    const { client, batch } = await connect(t.lp);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hello' } });
    const first = await client.systemError(SYSTEM_ERRORS.conversationNotFound, batch);
    client.send({ type: 'EVENT_TYPE_REQUEST_HANDOFF', payload: {} });
    await client.systemError(SYSTEM_ERRORS.conversationNotFound, first);
    client.close();
  });

  it('[MSG-29][MSG-27] session gone: "Error: Session not found", then SESSION_END', async () => {
    const { client, sessionId, greeting } = await joined(t.lp);
    await injectFault(t.lp, { messagingError: 'session-not-found', path: sessionId, times: 1 });
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hello' } });
    const error = await client.systemError(SYSTEM_ERRORS.sessionNotFound, greeting);
    const end = await client.type('SESSION_END', error);
    assert.deepEqual(end.payload, { reason: 'session_not_found' });
    await client.closed;
  });

  it('[MSG-29][MSG-27] the connector no longer exists: "Error: Connector not found", then SESSION_END', async () => {
    const { client, greeting } = await joined(t.lp);
    const state = t.lp.platform.state;
    state.connectors = state.connectors.filter((c) => c.id !== 'conn_webchat');
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hello' } });
    const error = await client.systemError(SYSTEM_ERRORS.connectorNotFound, greeting);
    const end = await client.type('SESSION_END', error);
    assert.deepEqual(end.payload, { reason: 'connector_not_found' });
  });

  const setHandoffMode = (mode: string) =>
    call('PATCH', `${t.lp.urls.admin}/messaging/connectors/conn_webchat`, { body: { handoffMode: mode } });

  for (const [mode, text] of [
    ['connect-fails', SYSTEM_ERRORS.handoffConnectFailed],
    ['invalid-config', SYSTEM_ERRORS.handoffNotInitiated],
  ] as const) {
    it(`[MSG-29] handoff mode ${mode}: a handoff request and asking for a person both get "${text}"`, async () => {
      assert.equal((await setHandoffMode(mode)).status, 200);
      const { client, greeting } = await joined(t.lp);
      client.send({ type: 'EVENT_TYPE_REQUEST_HANDOFF', payload: {} });
      const first = await client.systemError(text, greeting);
      client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'Let me talk to a human' } });
      await client.systemError(text, first);
      assert.equal(
        client.events.some((e) => e.type === 'EVENT_TYPE_HANDOFF_STARTED'),
        false,
      );
      const conv = t.lp.platform.findConversation(
        String(client.events.find((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_JOINED')!.payload.conversation_id),
      )!;
      assert.equal(conv.handoff, false);
      assert.deepEqual(conv.turns.at(-1)!.intents, ['handoff']);
      client.close();
    });
  }

  it('[MSG-29] handoff mode forward-fails: the handoff starts, then "Failed to forward message to live agent"', async () => {
    await setHandoffMode('forward-fails');
    const { client, greeting } = await joined(t.lp);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'I want to speak to a person' } });
    const started = await client.type('EVENT_TYPE_HANDOFF_STARTED', greeting);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'Are you there?' } });
    await client.systemError(SYSTEM_ERRORS.handoffForwardFailed, started);
    client.close();
  });

  it('[MSG-29] a forwarding fault during a working handoff: "Failed to forward message to live agent", then the live agent answers a re-send', async () => {
    const { client, sessionId, greeting } = await joined(t.lp);
    client.send({ type: 'EVENT_TYPE_REQUEST_HANDOFF', payload: {} });
    const started = await client.type('EVENT_TYPE_HANDOFF_STARTED', greeting);
    await injectFault(t.lp, { messagingError: 'handoff-forward', path: sessionId, times: 1 });
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'My order is late' } });
    const error = await client.systemError(SYSTEM_ERRORS.handoffForwardFailed, started);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'My order is late' } });
    const reply = await client.waitFor(
      (e) => e.type === 'EVENT_TYPE_LIVE_AGENT_MESSAGE' && String(e.payload.text).includes('My order is late'),
      error,
    );
    assert.equal(reply.payload.agent_name, 'Alex');
    client.close();
  });

  it('[MSG-27] a handoff that ends: live agent messages, HANDOFF_ENDED, then SESSION_END; the conversation records the handoff', async () => {
    const { client, greeting } = await joined(t.lp);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'Can I talk to a representative?' } });
    const started = await client.type('EVENT_TYPE_HANDOFF_STARTED', greeting);
    assert.equal(started.payload.destination, 'human-support-queue');
    await client.type('EVENT_TYPE_LIVE_AGENT_MESSAGE', started);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'Thanks, bye' } });
    const ended = await client.type('EVENT_TYPE_HANDOFF_ENDED', started);
    const end = await client.type('SESSION_END', ended);
    assert.deepEqual(end.payload, { reason: 'conversation_ended' });
    const convId = String(
      client.events.find((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_JOINED')!.payload.conversation_id,
    );
    const conv = t.lp.platform.findConversation(convId)!;
    assert.equal(conv.handoff, true);
    assert.equal(conv.in_progress, false);
    assert.equal(conv.handoff_destination, 'human-support-queue');
  });

  it('[MSG-28] WebSocket messages over the per-session rate are dropped unanswered', async () => {
    await t.admin.setOptions({ wsMessagesPerSecond: 3 });
    try {
      const { client, batch } = await connect(t.lp);
      for (let i = 0; i < 12; i++) client.send('not json');
      // A new rate window: the marker is answered after everything accepted before it.
      await advanceClock(t.lp, 2000);
      client.send({ type: 'EVENT_TYPE_DANCE', payload: {}, metadata: { custom: { marker: true } } });
      await client.waitFor((e) => e.metadata.custom?.marker === true, batch);
      const answered = client.events.filter(
        (e) => e.type === 'EVENT_TYPE_SYSTEM_MESSAGE' && e.metadata.custom === undefined,
      ).length;
      assert.ok(answered >= 3 && answered < 12, `${answered} of 12 answered`);
      client.close();
    } finally {
      await t.admin.setOptions({ wsMessagesPerSecond: 20 });
    }
  });
});
