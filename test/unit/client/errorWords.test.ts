import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { forPeople } from '../../../src/client/errors';

test("[OUT-8] a platform's advice to developers is not shown to the person, nor a lead that repeats the failure", () => {
  assert.equal(
    forPeople('Call placement failed: +15005550001 could not be reached. Retry with exponential backoff.'),
    '+15005550001 could not be reached.',
  );
  assert.equal(forPeople('Transient error; retry with back-off'), 'Transient error');
  assert.equal(forPeople('The number is not valid.'), 'The number is not valid.', 'other words stay');
});
