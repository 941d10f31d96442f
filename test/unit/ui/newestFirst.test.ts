import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConversationRecord, ConversationsQueryInput } from '../../../src/contract/conversations';
import { newestFirstPages } from '../../../src/ui/panels/transcripts/newestFirst';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-03-10T12:00:00Z');
const toMs = (iso: string) => Date.parse(iso);

/** A platform that lists the records of a range oldest first, in pages of 3, as the Conversations API does. */
function platform(records: ConversationRecord[], asked: ConversationsQueryInput[]) {
  return async function* (q: ConversationsQueryInput): AsyncGenerator<ConversationRecord[]> {
    asked.push(q);
    const from = q.start_time ? toMs(q.start_time) : -Infinity;
    const to = q.end_time ? toMs(q.end_time) : Infinity;
    const inRange = records
      .filter((r) => toMs(r.started_at) >= from && toMs(r.started_at) <= to)
      .sort((a, b) => toMs(a.started_at) - toMs(b.started_at));
    for (let i = 0; i < inRange.length; i += 3) yield inRange.slice(i, i + 3);
  };
}

const at = (id: string, ms: number) => ({ id, started_at: new Date(ms).toISOString() }) as ConversationRecord;

test('the list newest first: windows read backwards in time, each page full, no conversation twice', async () => {
  const records = [
    at('future', NOW + 10 * 60_000),
    at('now', NOW - 60_000),
    ...Array.from({ length: 12 }, (_, i) => at(`day${i}`, NOW - (i + 1) * 5 * HOUR)),
    at('edge', NOW - HOUR),
  ];
  const asked: ConversationsQueryInput[] = [];
  const pages: string[][] = [];
  for await (const page of newestFirstPages(platform(records, asked), { client_env: 'live' }, NOW, 5, toMs))
    pages.push(page.map((r) => r.id));
  const ids = pages.flat();
  assert.deepEqual(
    pages.slice(0, -1).map((p) => p.length),
    [5, 5],
    'full pages before the last',
  );
  assert.equal(new Set(ids).size, ids.length, 'no conversation twice');
  assert.deepEqual(new Set(ids), new Set(records.map((r) => r.id)), 'every conversation');
  const times = ids.map((id) => toMs(records.find((r) => r.id === id)!.started_at));
  assert.deepEqual(
    times,
    [...times].sort((a, b) => b - a),
    'newest first',
  );
  assert.equal(ids[0], 'future', "the first window has no end: a platform clock ahead of the editor's is seen");
  assert.equal(asked[0]!.end_time, undefined);
  assert.equal(asked[0]!.client_env, 'live', 'the other filters are kept');
});

test('with a start, the windows stop there; an empty range ends the list', async () => {
  const asked: ConversationsQueryInput[] = [];
  const start = new Date(NOW - 3 * HOUR).toISOString();
  const end = new Date(NOW).toISOString();
  const pages = [];
  for await (const page of newestFirstPages(
    platform([at('old', NOW - 5 * HOUR), at('in', NOW - 2 * HOUR)], asked),
    { start_time: start, end_time: end },
    NOW,
    5,
    toMs,
  ))
    pages.push(page.map((r) => r.id));
  assert.deepEqual(pages, [['in']]);
  assert.ok(
    asked.every((q) => toMs(q.start_time!) >= toMs(start)),
    'nothing before the start is asked',
  );

  const none: ConversationsQueryInput[] = [];
  let count = 0;
  for await (const _ of newestFirstPages(platform([], none), {}, NOW, 5, toMs)) count++;
  assert.equal(count, 0);
  assert.ok(none.length < 12, `an empty platform is given up after a few windows (${none.length})`);
});
