import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SERVER_EVENT_TYPES } from '../../../src/contract/messaging';
import { SPEC_ONLY_BATCH_KEY, SPEC_ONLY_EVENT_NAMES } from '../../../src/localPlatform/specOnlyEvents';
import { useLocalPlatform } from '../../support/localPlatform';
import { connect } from '../../support/messaging';

// The spec-only mode's WebSocket: no echo, other names for the events the spec does not name, another batch shape.

const ANSWER = 'EVENT_TYPE_BOT_RESPONSE';
const CHUNK = 'EVENT_TYPE_BOT_RESPONSE_PART';
const TYPING = 'EVENT_TYPE_BOT_TYPING_STATUS';
/** What the spec names, which the spec-only mode keeps. */
const SPEC_NAMED = new Set([
  'EVENT_TYPE_EVENT_BATCH',
  'EVENT_TYPE_VIRTUAL_AGENT_JOINED',
  'EVENT_TYPE_SYSTEM_MESSAGE',
  'SESSION_END',
]);

describe('local platform: spec-only messaging events (--responses spec-only)', () => {
  const t = useLocalPlatform({ responses: 'spec-only' });

  async function joinedSession(streaming = false) {
    const c = await connect(t.lp, { streaming });
    c.client.send({ type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', payload: {} });
    await c.client.type('EVENT_TYPE_VIRTUAL_AGENT_JOINED');
    const greeting = await c.client.type(ANSWER);
    return { ...c, greeting };
  }

  it('renames only the events the spec does not name, to names the extension does not know', () => {
    const known = new Set<string>([...SERVER_EVENT_TYPES, 'EVENT_TYPE_USER_MESSAGE']);
    for (const [ours, sent] of Object.entries(SPEC_ONLY_EVENT_NAMES)) {
      assert.ok(!SPEC_NAMED.has(ours), ours);
      assert.ok(!known.has(sent), `${sent} is one of ours`);
    }
  });

  it('[MSG-15][MSG-16] the history batch carries its events under another key; the joined event keeps its name', async () => {
    const { client, batch, greeting } = await joinedSession();
    assert.deepEqual(Object.keys(batch.payload), [SPEC_ONLY_BATCH_KEY]);
    assert.deepEqual(batch.payload[SPEC_ONLY_BATCH_KEY], []);
    assert.equal(typeof greeting.payload.text, 'string');
    assert.ok(client.events.some((e) => e.type === TYPING));
    assert.ok(client.events.every((e) => SPEC_NAMED.has(e.type) || [ANSWER, TYPING].includes(e.type)));
    client.ws.close();
  });

  it("[MSG-23] a user's message is not echoed; the answer comes under the other name with the custom metadata", async () => {
    const { client, greeting } = await joinedSession();
    client.send({
      type: 'EVENT_TYPE_USER_MESSAGE',
      payload: { text: 'When are you open?' },
      metadata: { custom: { n: 1 } },
    });
    const answer = await client.type(ANSWER, greeting);
    assert.deepEqual(answer.metadata, { custom: { n: 1 } });
    assert.ok(!('message_id' in answer.payload));
    assert.ok(client.events.every((e) => e.type !== 'EVENT_TYPE_USER_MESSAGE'));
    client.ws.close();
  });

  it('[MSG-24] a streamed answer comes in pieces under the other chunk name, then whole', async () => {
    const { client, greeting } = await joinedSession(true);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'Tell me about gift cards please' } });
    const answer = await client.type(ANSWER, greeting);
    const pieces = client.events.slice(client.events.indexOf(greeting) + 1, client.events.indexOf(answer));
    assert.ok(pieces.some((e) => e.type === CHUNK));
    assert.equal(
      pieces
        .filter((e) => e.type === CHUNK)
        .map((e) => e.payload.text)
        .join(''),
      answer.payload.text,
    );
    client.ws.close();
  });

  it('[MSG-17] a reconnect replays the history under the other key, without echoes, with the renamed answers', async () => {
    const first = await joinedSession();
    first.client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'Hello' } });
    await first.client.type(ANSWER, first.greeting);
    first.client.ws.close();
    await first.client.closed;
    const again = await connect(t.lp, { token: first.token, sessionId: first.sessionId, cursor: '0' });
    const replay = again.batch.payload[SPEC_ONLY_BATCH_KEY] as Array<{ type: string }>;
    assert.ok(!('events' in again.batch.payload));
    assert.deepEqual(
      replay.map((e) => e.type),
      ['EVENT_TYPE_VIRTUAL_AGENT_JOINED', ANSWER, ANSWER],
    );
    again.client.ws.close();
  });

  it('[MSG-20] the typing indicator under our name is refused as an unknown type; the connection stays open and a message is still answered', async () => {
    const { client, greeting } = await joinedSession();
    client.send({ type: 'EVENT_TYPE_USER_TYPING', payload: { typing: true } });
    const refusal = await client.type('EVENT_TYPE_SYSTEM_MESSAGE', greeting);
    assert.deepEqual(refusal.payload, {
      level: 'SYSTEM_MESSAGE_LEVEL_ERROR',
      text: 'Unknown event type or invalid message format',
    });
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'When are you open?' } });
    await client.type(ANSWER, refusal);
    client.ws.close();
  });

  it('[MSG-19] asking for a person: the handoff and the live agent come under the other names', async () => {
    const { client, greeting } = await joinedSession();
    client.send({ type: 'EVENT_TYPE_REQUEST_HANDOFF', payload: {} });
    const started = await client.type('EVENT_TYPE_TRANSFER_STARTED', greeting);
    await client.type('EVENT_TYPE_HUMAN_AGENT_RESPONSE', started);
    assert.ok(
      client.events.every((e) => !['EVENT_TYPE_HANDOFF_STARTED', 'EVENT_TYPE_LIVE_AGENT_MESSAGE'].includes(e.type)),
    );
    client.ws.close();
  });
});
