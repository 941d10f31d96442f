import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concurrencyReplySchema, parseConcurrencyQuery } from '../../../src/contract/concurrency';
import {
  conversationRecordSchema,
  conversationsQueryToSearchParams,
  parseConversationsQuery,
} from '../../../src/contract/conversations';

describe('Conversations and concurrency contract', () => {
  it('[CONV-4][CONV-7] a typed query survives the trip through the query string, channels repeated', () => {
    const params = conversationsQueryToSearchParams({
      channel: ['VOICE-SIP', 'CHAT'],
      limit: 50,
      in_progress: false,
      start_time: '2026-01-05T00:00:00Z',
    });
    assert.equal(
      params.toString(),
      'channel=VOICE-SIP&channel=CHAT&limit=50&in_progress=false&start_time=2026-01-05T00%3A00%3A00Z',
    );
    const parsed = parseConversationsQuery(params, 'v3');
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.query.channel, ['VOICE-SIP', 'CHAT']);
    assert.equal(parsed.query.limit, 50);
    assert.equal(parsed.query.in_progress, false);
    assert.equal(parsed.query.client_env, 'live');
  });

  it('[CONV-21] a record is read with only its id: missing fields read as empty; without an id it is an error naming it; unknown fields pass through', () => {
    const thin = conversationRecordSchema.parse({ id: 'c1', account_id: 'a', project_id: 'p' });
    assert.deepEqual([thin.started_at, thin.num_turns, thin.total_duration, thin.turns], ['', 0, null, []]);
    const result = conversationRecordSchema.safeParse({ account_id: 'a' });
    assert.equal(result.success, false);
    assert.ok(result.error.issues.some((i) => i.path[0] === 'id'));
    const reply = concurrencyReplySchema.parse({
      account_id: 'a',
      project_id: 'p',
      intervals: [{ time: 't', max_concurrent_conversations: 1, region: 'us-1' }],
      extra: true,
    });
    assert.equal(reply.intervals[0]!.region, 'us-1');
  });

  it('[CONV-19] metrics are read entry by entry: a value of an unexpected kind is kept as text and hides no other', () => {
    const r = conversationRecordSchema.parse({
      id: 'c1',
      metrics: { CALL_DURATION: 42, HANDOFF_TO: 'queue', CALL_TURN: ['t1', 't2'], EMPTY: null },
    });
    assert.deepEqual(r.metrics, { CALL_DURATION: '42', HANDOFF_TO: 'queue', CALL_TURN: ['t1', 't2'], EMPTY: 'null' });
  });

  it('[CONC-2] start_time and end_time are required by the concurrency query', () => {
    const parsed = parseConcurrencyQuery(new URLSearchParams('client_env=live'));
    assert.equal(parsed.ok, false);
    assert.deepEqual(!parsed.ok && parsed.issues.map((i) => i.param), ['start_time', 'end_time']);
  });
});
