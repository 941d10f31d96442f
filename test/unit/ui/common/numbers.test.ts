import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWholeNumber } from '../../../../src/ui/common/numbers';

test('a threshold may be typed as it is shown: grouped digits of the display language', () => {
  assert.equal(parseWholeNumber('1500', 'en'), 1500);
  assert.equal(parseWholeNumber(' 1,500 ', 'en'), 1500);
  assert.equal(parseWholeNumber('1,234,567', 'en'), 1234567);
  assert.equal(parseWholeNumber('0', 'en'), 0);
  assert.equal(parseWholeNumber('1.500', 'de'), 1500);
  assert.equal(parseWholeNumber('1 500', 'fr'), 1500);
  assert.equal(parseWholeNumber('1\u202f500', 'fr'), 1500);
});

test('anything else is not a whole number of 0 or more', () => {
  for (const text of ['', '-1', '1.5', '1,5', '15,00', '1,500.0', ',500', '1,,500', '1,500 000', 'ten', '1e3', '+3'])
    assert.equal(parseWholeNumber(text, 'en'), undefined, text);
  assert.equal(parseWholeNumber('1,500', 'de'), undefined, 'a comma is a decimal mark in German');
  assert.equal(parseWholeNumber('99999999999999999999', 'en'), undefined, 'beyond a safe integer');
});
