import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENVIRONMENTS } from '../../../src/contract/common';
import { CONCURRENCY_INTERVAL_MS, CONCURRENCY_MAX_RANGE_MS } from '../../../src/contract/concurrency';
import {
  CHART_ENVIRONMENTS,
  CHART_INTERVAL_MS,
  CHART_MAX_RANGE_MS,
  checkRange,
  readableUtc,
  utcMs,
  isChartCommand,
  isChartView,
  presetRange,
} from '../../../src/protocol/concurrency';
import { isReplayCommand, isReplayView } from '../../../src/protocol/replay';

test('the chart restates the contract’s environments, window and longest range', () => {
  assert.deepEqual([...CHART_ENVIRONMENTS], [...ENVIRONMENTS]);
  assert.equal(CHART_INTERVAL_MS, CONCURRENCY_INTERVAL_MS);
  assert.equal(CHART_MAX_RANGE_MS, CONCURRENCY_MAX_RANGE_MS);
});

test('a range is checked before sending, with words that say what to fix', () => {
  assert.equal(checkRange('2026-01-01T00:00:00Z', '2026-01-08T00:00:00Z'), undefined, 'exactly a week is allowed');
  assert.match(checkRange('2026-01-01T00:00:00Z', '2026-01-08T00:00:01Z')!, /longer than a week/);
  assert.match(checkRange('2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z')!, /end must be after the start/);
  assert.match(checkRange('yesterday', '2026-01-01T00:00:00Z')!, /start is not a date/);
  assert.match(checkRange('2026-01-01T00:00:00Z', '')!, /end is not a date/);
});

test('a preset ends at the next 5-minute boundary and is never longer than a week', () => {
  const now = Date.parse('2026-03-04T10:07:30Z');
  assert.deepEqual(presetRange('24h', now), { start: '2026-03-03T10:10:00.000Z', end: '2026-03-04T10:10:00.000Z' });
  const week = presetRange('7d', now);
  assert.equal(checkRange(week.start, week.end), undefined);
});

test('views and commands from the other side are checked before use', () => {
  const query = { start: 'a', end: 'b', environment: 'live', sliceByVariant: false };
  assert.ok(isChartCommand({ type: 'query', query }));
  assert.ok(!isChartCommand({ type: 'query', query: { ...query, environment: 'prod' } }));
  assert.ok(!isChartCommand({ type: 'query', query: { ...query, start: 'x'.repeat(1000) } }));
  assert.ok(
    isChartView({
      state: 'ready',
      title: 't',
      query,
      times: [1],
      series: [{ label: 'All', values: [2] }],
      deployments: [],
    }),
  );
  assert.ok(!isChartView({ state: 'ready', title: 't', query, times: ['1'], series: [], deployments: [] }));
  assert.ok(isReplayCommand({ type: 'cancel' }));
  assert.ok(!isReplayCommand({ type: 'send', text: 'x' }));
  const turn = {
    index: 0,
    user: '',
    recorded: 'Hi',
    replayed: 'Hello',
    state: 'done',
    diff: [{ kind: 'added', text: 'Hello' }],
  };
  assert.ok(isReplayView({ state: 'done', conversationId: 'c', source: 's', target: 't', turns: [turn] }));
  assert.ok(
    !isReplayView({
      state: 'done',
      conversationId: 'c',
      source: 's',
      target: 't',
      turns: [{ ...turn, diff: [{ kind: 'html', text: '<b>' }] }],
    }),
  );
});

test('a time typed without a zone is UTC, as the fields say, wherever the computer is', () => {
  assert.equal(utcMs('2026-01-05T09:00'), Date.UTC(2026, 0, 5, 9, 0));
  assert.equal(utcMs('2026-01-05 09:00:30'), Date.UTC(2026, 0, 5, 9, 0, 30));
  assert.equal(utcMs('2026-01-05T09:00+02:00'), Date.UTC(2026, 0, 5, 7, 0));
  assert.ok(Number.isNaN(utcMs('yesterday')));
});

test('the week is counted over whole 5-minute windows, as the platform rounds the range', () => {
  assert.equal(checkRange('2026-01-01T09:00Z', '2026-01-08T09:00Z'), undefined);
  assert.match(checkRange('2026-01-01T09:02Z', '2026-01-08T09:02Z')!, /longer than a week once rounded/);
});

test('the range fields show an instant as a person reads it, and what they show is read back as the same instant', () => {
  assert.equal(readableUtc('2026-01-05T09:00:00.000Z'), '2026-01-05 09:00');
  assert.equal(readableUtc('2026-01-05T09:00:30Z'), '2026-01-05 09:00:30');
  assert.equal(readableUtc('not a date'), 'not a date', 'what a person typed stays as typed');
  assert.equal(checkRange(readableUtc('2026-01-05T09:00:00.000Z'), readableUtc('2026-01-05T17:00:00.000Z')), undefined);
  assert.equal(utcMs(readableUtc('2026-01-05T09:00:00.000Z')), Date.parse('2026-01-05T09:00:00Z'));
});
