// A conversation written as a new case: a new file, or appended to a file's list of cases with everything else kept.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { appendCase, newTestFile, type RecordedConversation } from '../../../src/agentTests/fromConversation';
import { parseTestFile } from '../../../src/agentTests/parse';

const CONVERSATION: RecordedConversation = {
  conversationId: 'conv_7',
  environment: 'sandbox',
  variant: 'var_default',
  greeting: 'Hello, I am "Sam".\nHow can I help?',
  turns: [
    { user: 'What are your opening hours?', answer: 'Monday to Saturday', end: false, metadata: { 'order id': 7 } },
    {
      user: 'I want to speak to a person',
      answer: 'Connecting you',
      handoff: { destination: 'human-support-queue', reason: 'asked' },
      end: false,
    },
  ],
};

test('a new file holds the case: its user turns, handoff and end as they happened, each answer as the reference', () => {
  const text = newTestFile('ag_support', 'From chat', CONVERSATION);
  const file = parseTestFile('t.yaml', text);
  assert.deepEqual(file.problems, []);
  assert.equal(file.agent, 'ag_support');
  const [c] = file.cases;
  assert.equal(c!.name, 'From chat');
  assert.equal(c!.variant, 'var_default');
  assert.deepEqual(
    c!.turns.map((t) => [t.user, t.checks.reference, t.checks.handoff, t.checks.end]),
    [
      [undefined, 'Hello, I am "Sam".\nHow can I help?', undefined, undefined],
      ['What are your opening hours?', 'Monday to Saturday', { kind: 'none' }, false],
      [
        'I want to speak to a person',
        'Connecting you',
        { kind: 'to', destination: 'human-support-queue', reason: 'asked' },
        false,
      ],
    ],
  );
  assert.deepEqual(c!.turns[1]!.metadata, { 'order id': 7 });
  assert.equal(c!.turns[1]!.checks.contains, undefined, 'the words are left for the person to tighten');
});

test('appended to a file, the case goes at the end of its list, indented as the list is, and nothing else changes', () => {
  const before = 'agent: ag_support\n# the regulars\ncases:\n- name: Old\n  turns: [{ user: hi }]\ndescription: kept\n';
  const result = appendCase(before, 'New', CONVERSATION);
  assert.ok('text' in result);
  assert.ok(
    result.text.startsWith(
      'agent: ag_support\n# the regulars\ncases:\n- name: Old\n  turns: [{ user: hi }]\n- name: "New"',
    ),
  );
  assert.ok(result.text.endsWith('description: kept\n'));
  const file = parseTestFile('t.yaml', result.text);
  assert.deepEqual(file.problems, []);
  assert.deepEqual(
    file.cases.map((c) => [c.name, c.nameRange.startLine]),
    [
      ['Old', 3],
      ['New', 5],
    ],
  );
});

test('a case is never written over: a name taken, a file that is not the format or a flow list says so', () => {
  const before = newTestFile('ag_support', 'Same', CONVERSATION);
  assert.deepEqual(appendCase(before, 'Same', CONVERSATION), { problem: 'The file already has a case named "Same".' });
  assert.ok('problem' in appendCase('cases: [{ name: a, turns: [{ user: hi }] }]\n', 'B', CONVERSATION));
  assert.ok('problem' in appendCase('- a list\n', 'B', CONVERSATION));
  assert.ok('problem' in appendCase('cases: [\n', 'B', CONVERSATION));
});
