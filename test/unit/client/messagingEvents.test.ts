import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlatformError } from '../../../src/client/errors';
import {
  checkClientEvent,
  type MessagingEvent,
  MessageAssembler,
  parseServerEvent,
  SessionEvents,
  type SystemMessage,
} from '../../../src/client/messagingEvents';
import { SYSTEM_ERRORS } from '../../../src/contract/messaging';

let n = 0;
function event(
  type: string,
  payload: Record<string, unknown>,
  position?: number,
  id = `ses_x-${(n += 1)}`,
): Record<string, unknown> {
  return {
    id,
    type,
    timestamp: '2025-01-01T00:00:00.000Z',
    payload,
    metadata: position === undefined ? {} : { position },
  };
}

describe('client: messaging events as delivered (spec: Events > Messaging events)', () => {
  it('[MSG-17][MSG-23] an event replayed again (same id) is delivered once, and the cursor follows history positions', () => {
    const events = new SessionEvents();
    const got: MessagingEvent[] = [];
    events.onEvent((e) => got.push(e));
    const joined = event('EVENT_TYPE_VIRTUAL_AGENT_JOINED', { conversation_id: 'conv-1', agent_name: 'Sam' }, 0);
    const hello = event('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', { message_id: 'm1', text: 'Hello' }, 1);
    assert.deepEqual(events.history([joined, hello], 2), { events: 2, fresh: 2, cursor: 2 });
    const echo = event('EVENT_TYPE_USER_MESSAGE', { text: 'hi' }, 2);
    events.deliver(parseEvent(echo));
    assert.equal(events.cursor, 3);
    // A platform that replays from 0 (an unusable cursor) repeats what was seen.
    assert.deepEqual(events.history([joined, hello, echo], 3), { events: 3, fresh: 0, cursor: 3 });
    assert.deepEqual(
      got.map((e) => e.id),
      [joined.id, hello.id, echo.id],
    );
    assert.equal(events.conversationId, 'conv-1');
  });

  it('[MSG-17] an event of a name not known here is told of once, however often it is replayed; one without an id each time', () => {
    const events = new SessionEvents();
    const told: unknown[] = [];
    events.onUnrecognizedEvent((u) => told.push(u.raw));
    const answer = event('EVENT_TYPE_BOT_RESPONSE', { text: 'Hello' });
    events.parse(JSON.stringify(answer));
    assert.deepEqual(events.history([answer]), { events: 1, fresh: 0, cursor: 1 });
    const later = event('EVENT_TYPE_BOT_RESPONSE', { text: 'We open at 9' });
    assert.deepEqual(events.history([answer, later]), { events: 2, fresh: 1, cursor: 3 });
    const anonymous = { ...event('EVENT_TYPE_BOT_RESPONSE', { text: 'again' }), id: '' };
    events.history([anonymous]);
    events.history([anonymous]);
    assert.equal(told.length, 4, 'the first answer once, the later one once, the one without an id twice');
  });

  it('[MSG-17] a live history event beyond the cursor is recognised as a gap', () => {
    const events = new SessionEvents();
    events.history([], 4);
    assert.equal(events.isAhead(parseEvent(event('EVENT_TYPE_USER_MESSAGE', { text: 'x' }, 4))), false);
    assert.equal(events.isAhead(parseEvent(event('EVENT_TYPE_USER_MESSAGE', { text: 'x' }, 6))), true);
  });

  it('[MSG-24] chunks out of order are joined in index order; text stops at a missing chunk', () => {
    const a = new MessageAssembler();
    assert.equal(a.chunk({ message_id: 'm', index: 1, text: 'b ' }).text, '');
    assert.equal(a.chunk({ message_id: 'm', index: 0, text: 'a ' }).text, 'a b ');
    assert.equal(a.chunk({ message_id: 'm', index: 3, text: 'd' }).text, 'a b ');
    assert.deepEqual(a.interrupt(SYSTEM_ERRORS.streamInterrupted), [
      { messageId: 'm', text: 'a b ', state: 'interrupted' },
    ]);
    assert.deepEqual(a.complete({ message_id: 'n', text: 'whole' }), {
      messageId: 'n',
      text: 'whole',
      state: 'complete',
    });
  });

  it('[MSG-24] pieces and answers without a message id or an index (shapes the spec does not show) are joined in order, one answer at a time', () => {
    const a = new MessageAssembler();
    const first = a.chunk({ text: 'Our stores ' });
    assert.deepEqual(a.chunk({ text: 'open at 9.' }), {
      messageId: first.messageId,
      text: 'Our stores open at 9.',
      state: 'streaming',
    });
    assert.deepEqual(a.complete({ text: 'Our stores open at 9.' }), {
      messageId: first.messageId,
      text: 'Our stores open at 9.',
      state: 'complete',
    });
    const next = a.chunk({ text: 'Returns ' });
    assert.notEqual(next.messageId, first.messageId, 'the next answer is a message of its own');
    assert.equal(next.text, 'Returns ');
    // A message id given on its pieces keeps them apart from the untagged answer.
    assert.equal(a.chunk({ message_id: 'm', text: 'Hello' }).messageId, 'm');
    const events = new SessionEvents();
    const parsed = parseServerEvent(event('EVENT_TYPE_LIVE_AGENT_MESSAGE', { text: 'A person writes' }));
    assert.ok('event' in parsed, 'a live agent message without its id or name is delivered');
    const got: string[] = [];
    events.onMessage((m) => got.push(`${m.text}|${JSON.stringify(m.custom)}`));
    events.deliver(
      parseEvent({
        ...event('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', { text: 'Hi' }),
        metadata: { custom: { order: 'A-1' } },
      }),
    );
    assert.deepEqual(got, ['Hi|{"order":"A-1"}'], 'the answer carries the custom metadata echoed on its event');
  });

  it('[MSG-23] an unknown event type or a payload without its fields is reported, not delivered', () => {
    const unknown = parseServerEvent(event('EVENT_TYPE_DELIVERY_RECEIPT', {}));
    assert.ok(
      'unrecognized' in unknown && /unknown event type EVENT_TYPE_DELIVERY_RECEIPT/.test(unknown.unrecognized.problem),
    );
    const partial = parseServerEvent(event('EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', { message_id: 'm' }));
    assert.ok('unrecognized' in partial && /text/.test(partial.unrecognized.problem));
    const noType = parseServerEvent({ payload: { reason: 'x' }, timestamp: 't', metadata: {} });
    assert.ok('unrecognized' in noType && /type/.test(noType.unrecognized.problem));
    const extra = parseServerEvent(event('SESSION_END', { reason: 'ended_by_user', note: 'kept' }));
    assert.ok(
      'event' in extra &&
        extra.event.type === 'SESSION_END' &&
        (extra.event.payload as Record<string, unknown>).note === 'kept',
    );
  });

  it('[MSG-23] only the type is required: a numeric timestamp, no id, no metadata and a session end without a reason are all read', () => {
    const bare = parseEvent({ type: 'SESSION_END', payload: {}, timestamp: 1767603600 });
    assert.equal(bare.type, 'SESSION_END');
    assert.equal(bare.timestamp, '2026-01-05T09:00:00.000Z');
    assert.equal(bare.id, '');
    assert.deepEqual(bare.metadata, {});
    assert.equal(bare.type === 'SESSION_END' && bare.payload.reason, 'not given');
    const millis = parseEvent({ id: 7, type: 'EVENT_TYPE_VIRTUAL_AGENT_JOINED', timestamp: 1767603600000 });
    assert.equal(millis.id, '7');
    assert.equal(millis.timestamp, '2026-01-05T09:00:00.000Z');
  });

  it('[MSG-22] a system message without level or text is still delivered; a text of the error table reads as an error', () => {
    const bare = parseEvent({ type: 'EVENT_TYPE_SYSTEM_MESSAGE', payload: { message: 'Error: Session not found' } });
    assert.equal(bare.type === 'EVENT_TYPE_SYSTEM_MESSAGE' && bare.payload.text, 'Error: Session not found');
    const events = new SessionEvents();
    const seen: SystemMessage[] = [];
    events.onSystemMessage((m) => seen.push(m));
    events.deliver(bare);
    events.deliver(parseEvent({ type: 'EVENT_TYPE_SYSTEM_MESSAGE', payload: {} }));
    assert.deepEqual(
      seen.map((m) => [m.level, m.isError]),
      [
        ['SYSTEM_MESSAGE_LEVEL_ERROR', true],
        ['SYSTEM_MESSAGE_LEVEL_INFO', false],
      ],
    );
  });

  it('[MSG-19] a client event is checked against the contract, naming the field at fault', () => {
    assert.throws(
      () =>
        checkClientEvent({ type: 'EVENT_TYPE_USER_TYPING', payload: { typing: 'yes' } }, 'Send the typing indicator'),
      (err: unknown) => err instanceof PlatformError && err.kind === 'invalidInput' && /typing/.test(err.message),
    );
    assert.deepEqual(
      checkClientEvent(
        { type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hi' }, metadata: { custom: { a: 1 } } },
        'Send',
      ),
      { type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hi' }, metadata: { custom: { a: 1 } } },
    );
  });
});

function parseEvent(raw: unknown): MessagingEvent {
  const parsed = parseServerEvent(raw);
  if (!('event' in parsed)) throw new Error(parsed.unrecognized.problem);
  return parsed.event;
}
