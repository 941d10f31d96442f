// Save as Test's offer to draft expect: criteria: one model call over the recorded answers, the drafts written as
// the turns' expect: (read back by the parser as judged criteria), and an answer that is not the JSON asked for
// refused with what to do, never written.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { draftExpectations, draftMessages } from '../../../src/agentTests/draftExpect';
import { newTestFile, type RecordedConversation } from '../../../src/agentTests/fromConversation';
import type { LanguageModel, ModelMessage } from '../../../src/agentTests/model/types';
import { parseTestFile } from '../../../src/agentTests/parse';

const CONVERSATION: RecordedConversation = {
  greeting: 'Hello, I am Sam. How can I help?',
  turns: [
    { user: 'Can I return a jacket?', answer: 'Yes, within 30 days of delivery for a full refund.' },
    { user: 'Thanks', answer: 'You are welcome!' },
  ],
};

/** A model answering one fixed text, keeping what it was asked (the drafting makes one call, no cassette). */
function answering(text: string): LanguageModel & { asked: ModelMessage[][] } {
  const asked: ModelMessage[][] = [];
  return {
    id: 'test:drafter',
    asked,
    complete: async (messages) => {
      asked.push([...messages]);
      return { text };
    },
  };
}

test('the drafted criteria are written as each answer’s expect:, marked as a draft, and read back as judged criteria', async () => {
  const model = answering(
    '```json\n{"answers": [{"answer": 0, "expect": ["greets the caller and offers help"]}, {"answer": 1, "expect": ["says returns are accepted within 30 days", "  mentions a full refund  ", ""]}]}\n```',
  );
  const drafted = await draftExpectations(model, CONVERSATION);
  assert.equal(model.asked.length, 1);
  assert.match(model.asked[0]?.[1]?.content ?? '', /Answer 1: Yes, within 30 days/);
  const text = newTestFile('ag_support', 'Returns', drafted);
  assert.match(text, /# Drafted by a model from the answer: edit to what the answer must mean\./);
  const file = parseTestFile('tests/returns.yaml', text);
  assert.deepEqual(file.problems, []);
  const [greeting, returns, thanks] = file.cases[0]?.turns ?? [];
  assert.deepEqual(
    greeting?.expect?.map((c) => c.text),
    ['greets the caller and offers help'],
  );
  assert.deepEqual(
    returns?.expect?.map((c) => c.text),
    ['says returns are accepted within 30 days', 'mentions a full refund'],
  );
  assert.equal(thanks?.expect, undefined);
});

test('an answer that is not the criteria asked for is refused as unreadable, so nothing half-drafted is written', async () => {
  await assert.rejects(
    draftExpectations(answering('I cannot help with that.'), CONVERSATION),
    (err: Error & { kind?: string }) => {
      assert.equal(err.kind, 'unreadable');
      assert.match(err.message, /write the expect: criteria by hand/);
      return true;
    },
  );
});

test('the prompt numbers the answers as the reply must name them, the greeting first', () => {
  const [system, user] = draftMessages(CONVERSATION);
  assert.equal(system?.role, 'system');
  assert.equal(
    user?.content,
    [
      'Answer 0 (greeting): Hello, I am Sam. How can I help?',
      'User: Can I return a jacket?',
      'Answer 1: Yes, within 30 days of delivery for a full refund.',
      'User: Thanks',
      'Answer 2: You are welcome!',
    ].join('\n'),
  );
});
