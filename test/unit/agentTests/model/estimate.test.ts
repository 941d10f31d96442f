// The estimate before a run: calls from each case's shape times its repeats, tokens from the prompt sizes, price.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateRun } from '../../../../src/agentTests/model/estimate';
import type { TestCase } from '../../../../src/agentTests/format';

const range = { startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 0 };
const criterion = (text: string) => ({ text, range });
const base = { file: 't.yaml', tags: [], repeat: 1, requiredPassRate: 1, range, nameRange: range };

const scripted: TestCase = {
  ...base,
  name: 'returns',
  repeat: 3,
  turns: [
    { checks: {}, range, expect: [criterion('greets')] },
    {
      user: 'Can I return shoes?',
      checks: {},
      range,
      expect: [criterion('says 30 days'), criterion('offers to start one')],
    },
  ],
  criteria: [criterion('stays polite')],
};
const simulated: TestCase = {
  ...base,
  name: 'rebook',
  turns: [],
  scenario: {
    goal: 'move the booking',
    firstLine: 'Hi',
    maxTurns: 4,
    success: [criterion('moved'), criterion('confirmed')],
    range,
  },
};
const plain: TestCase = { ...base, name: 'plain', turns: [{ user: 'hi', checks: { contains: ['hello'] }, range }] };

test('calls per case: a judge call per criterion, caller calls per turn after a written first line, times repeats', () => {
  const e = estimateRun([scripted, simulated, plain], { modelId: 'openai:h/judge' });
  assert.deepEqual(
    e.cases.map((c) => [c.name, c.calls]),
    [
      ['returns', 3 * 4],
      ['rebook', 3 + 2],
      ['plain', 0],
    ],
  );
  assert.equal(e.calls, 17);
  assert.equal(e.cost, undefined);
});

test('tokens grow with the conversation and are priced per million', () => {
  const e = estimateRun([scripted], { modelId: 'openai:h/judge', prices: { judge: { input: 2, output: 10 } } });
  const one = estimateRun([{ ...scripted, repeat: 1 }], { modelId: 'openai:h/judge' });
  assert.equal(e.inputTokens, one.inputTokens * 3);
  assert.equal(e.outputTokens, 4 * 80 * 3);
  const longer = estimateRun([{ ...scripted, repeat: 1 }], { modelId: 'openai:h/judge', agentAnswerChars: 3_000 });
  assert.ok(longer.inputTokens > one.inputTokens + 3 * 600);
  assert.equal(e.cost, (e.inputTokens * 2 + e.outputTokens * 10) / 1_000_000);
});
