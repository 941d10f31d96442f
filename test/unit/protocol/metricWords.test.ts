import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { metricName, metricText } from '../../../src/protocol/metricWords';

const UTC = { locale: 'en-GB', timeZone: 'UTC' };

test('metric names read as words: the built-in ones by name, any other UPPER_SNAKE as a phrase', () => {
  assert.equal(metricName('CALL_TURN'), 'Turn times');
  assert.equal(metricName('CALL_DURATION'), 'Call duration');
  assert.equal(metricName('HANDOFF_REASON'), 'Handoff reason');
  assert.equal(metricName('CALL_TRANSFER_COUNT'), 'Call transfer count');
  assert.equal(metricName('order_total'), 'Order total');
  assert.equal(metricName('NPS'), 'NPS', 'a single word is kept as written');
  assert.equal(metricName('csatScore'), 'csatScore');
});

test('1,500 turn times are summed up as their count, first and last, not written out', () => {
  const start = Date.parse('2026-01-05T08:00:01Z');
  const times = Array.from({ length: 1500 }, (_, i) => new Date(start + i * 4000).toISOString());
  const text = metricText('CALL_TURN', times.join(', '), UTC);
  assert.equal(text, '1,500 times, from 08:00:01 to 09:39:57 (1 h 39 min 56 s)');
  assert.ok(!text.includes('2026-01-05T'), 'no raw timestamp');
});

test('a few times are written as times of day, with dates only when they span days', () => {
  assert.equal(metricText('CALL_TURN', '2026-01-05T08:00:01Z, 2026-01-05T08:00:15Z', UTC), '08:00:01, 08:00:15');
  assert.equal(
    metricText('CALL_TURN', '2026-01-05T23:59:50Z, 2026-01-06T00:00:10Z', UTC),
    '5 Jan 2026, 23:59:50, 6 Jan 2026, 00:00:10',
  );
  assert.equal(metricText('LAST_SEEN', '2026-01-05T08:00:01Z', UTC), '5 Jan 2026, 08:00:01');
});

test('seconds read as a duration over an hour as hours, true and false as yes and no, other text as written', () => {
  assert.equal(metricText('CALL_DURATION', '6002.0', UTC), '1 h 40 min 2 s');
  assert.equal(metricText('CALL_DURATION', '61.5', UTC), '1 min 2 s');
  assert.equal(metricText('CALL_COMPLETED', 'true', UTC), 'yes');
  assert.equal(metricText('CALL_IN_PROGRESS', 'false', UTC), 'no');
  assert.equal(metricText('HANDOFF_REASON', 'The user asked for a person', UTC), 'The user asked for a person');
  assert.equal(metricText('CSAT', '4', UTC), '4');
  assert.equal(metricText('CALL_TURN', '', UTC), '');
});
