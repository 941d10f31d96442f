import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { durationWords, relativeWords } from '../../../src/protocol/timeWords';

test('a length of time reads in hours, minutes and seconds, never as 100 minutes', () => {
  assert.equal(durationWords(6002), '1 h 40 min 2 s');
  assert.equal(durationWords(65), '1 min 5 s');
  assert.equal(durationWords(42.4), '42 s');
  assert.equal(durationWords(3600), '1 h 0 min 0 s');
});

test('how long ago counts whole units down, so one instant reads the same wherever it is shown', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  assert.equal(relativeWords(now - 90_000, now, 'en'), '1 minute ago', 'a minute and a half is 1 minute, not 2');
  assert.equal(relativeWords(now - 12_000, now, 'en'), '12 seconds ago');
  assert.equal(relativeWords(now - 3 * 3_600_000 - 59 * 60_000, now, 'en'), '3 hours ago');
  assert.equal(relativeWords(now - 86_400_000, now, 'en'), 'yesterday');
});
