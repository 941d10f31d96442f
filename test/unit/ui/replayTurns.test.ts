import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConversationRecord } from '../../../src/contract/conversations';
import { compare, turnsOf } from '../../../src/ui/panels/replay/replayTurns';

const turn = (user: string, agent: string, extra: Record<string, unknown> = {}) =>
  ({ user_input: user, user_input_dtmf: '', agent_response: agent, is_silence: false, ...extra }) as never;

test('a recording becomes the greeting and then each user turn, silence and keypad input included', () => {
  const record = {
    turns: [
      turn('', 'Hello, I am Sam.'),
      turn('Where is my order?', 'It ships tomorrow.'),
      turn('', 'Are you still there?', { is_silence: true }),
      turn('', 'Thanks.', { user_input_dtmf: '42' }),
    ],
  } as unknown as ConversationRecord;
  const turns = turnsOf(record);
  assert.deepEqual(
    turns.map((t) => [t.index, t.user, t.recorded]),
    [
      [0, '', 'Hello, I am Sam.'],
      [1, 'Where is my order?', 'It ships tomorrow.'],
      [2, '', 'Are you still there?'],
      [3, '42', 'Thanks.'],
    ],
  );
});

test('a recording that starts with the user has no recorded greeting to compare', () => {
  const turns = turnsOf({ turns: [turn('Hi', 'Hello')] } as unknown as ConversationRecord);
  assert.deepEqual(
    turns.map((t) => [t.user, t.recorded, t.uncompared === true]),
    [
      ['', '', true],
      ['Hi', 'Hello', false],
    ],
    'the greeting of the replay is not compared, so it is not counted as a different answer',
  );
});

test('answers are compared word by word; only whitespace is no difference', () => {
  const changed = compare("Hello! I'm Sam, the support agent.", "Hello! I'm Robin, the support agent.");
  assert.equal(changed.same, false);
  assert.deepEqual(
    changed.diff.filter((p) => p.kind !== 'same').map((p) => [p.kind, p.text]),
    [
      ['removed', 'Sam'],
      ['added', 'Robin'],
    ],
  );
  assert.equal(
    changed.diff.map((p) => (p.kind === 'added' ? '' : p.text)).join(''),
    "Hello! I'm Sam, the support agent.",
  );
  assert.equal(compare('Same words here', 'Same words here').same, true);
  assert.equal(compare('<b>x</b>', '<b>x</b>').diff[0]!.text, '<b>x</b>', 'markup stays text');
});

test('each side of the comparison reads exactly as its answer, spaces included, when words are added before punctuation', () => {
  const recorded = "Hello! I'm Sam, the support agent of Acme. How can I help you today?";
  const replayed = "Hello! I'm Robin, the desk of Acme <img src=x> evil. How can I help you today?";
  const { diff, same } = compare(recorded, replayed);
  assert.equal(same, false);
  const side = (kind: 'removed' | 'added') =>
    diff
      .filter((p) => p.kind === 'same' || p.kind === kind)
      .map((p) => p.text)
      .join('');
  assert.equal(side('removed'), recorded, 'the recorded answer as it was (no space before its full stop)');
  assert.equal(side('added'), replayed, 'the new answer as it is');
});

test('each replayed turn carries the number the transcript gives the recorded turn (the greeting is turn 1)', () => {
  const greeted = turnsOf({
    turns: [turn('', 'Hello'), turn('Hi', 'How can I help?'), turn('Bye', 'Bye')],
  } as unknown as ConversationRecord);
  assert.deepEqual(
    greeted.map((t) => [t.index, t.turn]),
    [
      [0, 1],
      [1, 2],
      [2, 3],
    ],
  );
  const ungreeted = turnsOf({ turns: [turn('Hi', 'Hello')] } as unknown as ConversationRecord);
  assert.deepEqual(
    ungreeted.map((t) => [t.index, t.turn]),
    [
      [0, undefined],
      [1, 1],
    ],
    'a greeting that was not recorded has no number of the transcript',
  );
});
