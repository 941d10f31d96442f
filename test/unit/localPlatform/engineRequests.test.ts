// The local platform's engine recognises what a caller asks the demo agents to do: a booking, a blocked card.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { recognise, spokenNumber } from '../../../src/localPlatform/engine/requests';

test('spoken numbers as speech recognition hands them over, and digits', () => {
  assert.deepEqual(['four', 'twenty five', 'twenty-one', 'thirteen', '12', 'ninety', 'four five'].map(spokenNumber), [
    4,
    25,
    21,
    13,
    12,
    undefined,
    undefined,
  ]);
});

test('a booking with a party size and a day or time is made, with a reference that is the same for the conversation', () => {
  const said = recognise('A table for four on the twenty fifth at nine thirty', {}, 'conv_1');
  assert.deepEqual(said.intents, ['book_table']);
  assert.deepEqual(said.entities, { party_size: '4', booking_day: '25', booking_time: '09:30' });
  assert.equal(said.state.booking_confirmed, true);
  assert.match(String(said.state.booking_reference), /^BT-[0-9A-F]{6}$/);
  assert.equal(
    recognise('Book a table for 2 at 7pm', {}, 'conv_1').state.booking_reference,
    said.state.booking_reference,
  );
  assert.notEqual(
    recognise('Book a table for 2 at 7pm', {}, 'conv_2').state.booking_reference,
    said.state.booking_reference,
  );
});

test("a booking's details may come over several turns; without them it is not made", () => {
  const first = recognise('I would like to book a table', {}, 'conv_1');
  assert.deepEqual(first.state, { requested: 'book_table', booking_confirmed: false });
  const second = recognise('for six people at 8pm', first.state, 'conv_1');
  assert.deepEqual(second.entities, { party_size: '6', booking_time: '20:00' });
  assert.equal(second.state.booking_confirmed, true);
  // A later question without booking details is not a booking turn.
  assert.deepEqual(recognise('What are your opening hours?', second.state, 'conv_1').intents, []);
});

test('a lost or stolen card is blocked; a question about cards is not', () => {
  const said = recognise('My card was stolen, the one ending in 9876', {}, 'conv_1');
  assert.deepEqual(said.intents, ['block_card']);
  assert.deepEqual(said.entities, { card_last_four: '9876' });
  assert.equal(said.state.card_blocked, true);
  assert.match(String(said.state.card_block_reference), /^CB-/);
  assert.deepEqual(recognise('Which cards do you accept?', {}, 'conv_1').intents, []);
});
