// A conversation written as a new case: a new file, or appended to a file's list of cases with everything else kept.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  appendCase,
  keyPhrases,
  newTestFile,
  type RecordedConversation,
} from '../../../src/agentTests/fromConversation';
import { parseTestFile } from '../../../src/agentTests/parse';
import { runCases } from '../../../src/agentTests/runner';
import { localTargets } from '../../../src/cli/testTargets';
import { Transport } from '../../../src/client/transport';
import { useLocalPlatform } from '../../support/localPlatform';

const local = useLocalPlatform({ seed: 'demo' });

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

test('a new file holds the case: its user turns, handoff and end as they happened, key phrases of each answer, each answer as the reference', () => {
  const text = newTestFile('ag_support', 'From chat', CONVERSATION);
  const file = parseTestFile('t.yaml', text);
  assert.deepEqual(file.problems, []);
  assert.equal(file.agent, 'ag_support');
  const [c] = file.cases;
  assert.equal(c!.name, 'From chat');
  assert.equal(c!.variant, 'var_default');
  assert.deepEqual(
    c!.turns.map((t) => [t.user, t.checks.contains, t.checks.reference, t.checks.handoff, t.checks.end]),
    [
      [undefined, ['Sam'], 'Hello, I am "Sam".\nHow can I help?', undefined, undefined],
      ['What are your opening hours?', ['Monday', 'Saturday'], 'Monday to Saturday', { kind: 'none' }, false],
      [
        'I want to speak to a person',
        ['Connecting'],
        'Connecting you',
        { kind: 'to', destination: 'human-support-queue', reason: 'asked' },
        false,
      ],
    ],
  );
  assert.deepEqual(c!.turns[1]!.metadata, { 'order id': 7 });
  assert.match(text, /# .*contains: phrases were picked from each answer.*\n.*loosen or remove those that may change/s);
});

test('key phrases of an answer: its numbers, then names, then long uncommon words, at most three, in the order they come', () => {
  assert.deepEqual(keyPhrases('Our stores are open Monday to Saturday from 9am to 6pm, and Sunday from 10am to 4pm.'), [
    '9am',
    '6pm',
    '10am',
  ]);
  assert.deepEqual(keyPhrases("Hello! I'm Sam, the support agent of Acme. How can I help you today?"), [
    'Sam',
    'support',
    'Acme',
  ]);
  assert.deepEqual(keyPhrases("Of course. I'm transferring you to a member of our team now."), [
    'transferring',
    'member',
  ]);
  assert.deepEqual(keyPhrases('It costs $4.50, or 24/7 support.'), ['$4.50', '24/7', 'support']);
  assert.deepEqual(keyPhrases('Yes.'), ['Yes'], 'a short answer of common words: its longest word');
  assert.deepEqual(keyPhrases('OK'), ['OK'], 'no word of three letters: the answer itself');
  assert.deepEqual(keyPhrases(''), []);
});

test('a case saved from a chat with Support Desk passes against Support Desk and fails against another agent', async () => {
  const targets = localTargets(local.lp, new Transport());
  const reach = targets({ agent: 'ag_support' });
  assert.ok('chat' in reach);
  const created = await reach.chat.create({});
  const turns = [];
  for (const message of ['What are your opening hours?', 'Can I talk to a person?']) {
    const reply = await reach.chat.respond({ conversation_id: created.conversation_id, message });
    turns.push({
      user: message,
      answer: reply.response,
      end: reply.end_conversation,
      ...(reply.handoff ? { handoff: reply.handoff } : {}),
    });
  }
  await reach.chat.close(created.conversation_id);
  const text = newTestFile('ag_support', 'From chat', { greeting: created.response, turns });
  const file = parseTestFile('t.yaml', text);
  assert.deepEqual(file.problems, []);
  const [saved] = file.cases;
  for (const turn of saved!.turns) assert.ok(turn.checks.contains?.length, `a phrase of each answer is checked`);
  const [same, other] = await runCases([saved!, { ...saved!, agent: 'ag_restaurant' }], {
    target: targets,
    concurrency: 1,
  });
  assert.equal(same!.outcome, 'passed', JSON.stringify(same!.runs[0]?.turns.map((t) => t.failures)));
  assert.equal(other!.outcome, 'failed', 'the same case against Bella Tavola Bookings');
  assert.match(other!.runs[0]!.transcript[0]!, /^agent: /);
  assert.ok(
    other!.runs[0]!.turns.some((t) => t.failures.some((f) => f.check === 'contains')),
    'a phrase of the recorded answer is missing from the other agent',
  );
});

test('appended to a file, the case goes at the end of its list, indented as the list is, and nothing else changes', () => {
  const before =
    'agent: ag_support\n# the regulars\ncases:\n- name: Old\n  turns: [{ user: hi, end: false }]\ndescription: kept\n';
  const result = appendCase(before, 'New', CONVERSATION);
  assert.ok('text' in result);
  assert.ok(
    result.text.startsWith(
      'agent: ag_support\n# the regulars\ncases:\n- name: Old\n  turns: [{ user: hi, end: false }]\n- name: "New"',
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
  assert.ok('problem' in appendCase('cases: [{ name: a, turns: [{ user: hi, end: false }] }]\n', 'B', CONVERSATION));
  assert.ok('problem' in appendCase('- a list\n', 'B', CONVERSATION));
  assert.ok('problem' in appendCase('cases: [\n', 'B', CONVERSATION));
});
