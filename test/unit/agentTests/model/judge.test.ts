// The judge through the scripted model server: verdicts with quotes checked against the conversation, and
// every way its answer or its call can fail, each an error or a skip that says what to do, never a pass.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeCriterion, parseJudgeAnswer } from '../../../../src/agentTests/model/judge';
import { createModelCalls } from '../../../../src/agentTests/model/modelCalls';
import { createOpenAiModel } from '../../../../src/agentTests/model/openaiModel';
import type { ConversationLine, JudgeInput } from '../../../../src/agentTests/model/types';
import { type ScriptedAnswer, type ScriptedRule, startScriptedModel } from '../../../support/scriptedModel';

const conversation: ConversationLine[] = [
  { turn: 1, role: 'agent', text: 'Hello, how can I help?' },
  { turn: 2, role: 'user', text: 'Can I return my shoes?' },
  { turn: 3, role: 'agent', text: 'Yes: returns are accepted within  30 days. Shall I start one?' },
];
const input: JudgeInput = {
  file: 'tests/returns.yaml',
  criterion: { text: 'says returns are accepted within 30 days and offers to start one' },
  scope: 'turn',
  turnIndex: 1,
  conversation,
};

async function judgeWith(answer: ScriptedAnswer | ScriptedRule, t: { after: (fn: () => Promise<void>) => void }) {
  const server = await startScriptedModel({ answer });
  t.after(() => server.close());
  const calls = createModelCalls({
    model: createOpenAiModel({ baseUrl: server.baseUrl, model: 'judge' }),
    mode: 'live',
  });
  return { outcome: await judgeCriterion(calls, input), server };
}

const json = (v: unknown) => JSON.stringify(v);

test('a pass with quotes that are in their turns is judged, whitespace and case aside', async (t) => {
  const { outcome, server } = await judgeWith(
    json({
      verdict: 'pass',
      reason: 'It states the window and offers.',
      quotes: [
        { turn: 3, text: 'Returns are accepted within 30 days' },
        { turn: 3, text: 'shall i start one?' },
      ],
    }),
    t,
  );
  assert.deepEqual(outcome, {
    kind: 'judged',
    verdict: 'pass',
    reason: 'It states the window and offers.',
    quotes: [
      { turn: 3, text: 'Returns are accepted within 30 days' },
      { turn: 3, text: 'shall i start one?' },
    ],
  });
  const asked = server.requests[0]?.text ?? '';
  assert.match(asked, /Criterion: says returns are accepted within 30 days/);
  assert.match(asked, /Turn 3 \(agent\): Yes: returns/);
  assert.match(asked, /"verdict": "pass" \| "fail" \| "unsure"/);
  assert.match(asked, /answer in turn 3/);
});

test('fail and unsure are judged as such', async (t) => {
  const fail = await judgeWith(json({ verdict: 'fail', reason: 'No offer.', quotes: [] }), t);
  assert.equal(fail.outcome.kind === 'judged' && fail.outcome.verdict, 'fail');
  const unsure = await judgeWith('```json\n{"verdict": "UNSURE", "reason": "Cannot tell."}\n```', t);
  assert.deepEqual(unsure.outcome, { kind: 'judged', verdict: 'unsure', reason: 'Cannot tell.', quotes: [] });
});

test('a fabricated quote makes the verdict a judge error that names the quote', async (t) => {
  const { outcome } = await judgeWith(
    json({
      verdict: 'pass',
      reason: 'r',
      quotes: [
        { turn: 3, text: 'returns are accepted within 30 days' },
        { turn: 3, text: 'we refund in cash' },
      ],
    }),
    t,
  );
  assert.equal(outcome.kind, 'error');
  assert.match(
    outcome.kind === 'error' ? outcome.message : '',
    /quoted "we refund in cash" from turn 3, but turn 3 does not say that; the verdict \(pass\) is not used/,
  );
});

test('a quote of the wrong turn, or of a turn that is not there, is a judge error', async (t) => {
  const wrongTurn = await judgeWith(
    json({ verdict: 'pass', reason: 'r', quotes: [{ turn: 2, text: 'within 30 days' }] }),
    t,
  );
  assert.equal(wrongTurn.outcome.kind, 'error');
  const noTurn = await judgeWith(json({ verdict: 'pass', reason: 'r', quotes: [{ turn: 9, text: 'hello' }] }), t);
  assert.match(
    noTurn.outcome.kind === 'error' ? noTurn.outcome.message : '',
    /turn 9, which the conversation does not have/,
  );
});

test('an answer that is not the asked JSON is a judge error saying what to do', async (t) => {
  for (const answer of ['I think it passes.', json({ verdict: 'maybe', reason: 'r' }), json({ verdict: 'pass' })]) {
    const { outcome } = await judgeWith(answer, t);
    assert.equal(outcome.kind, 'error', answer);
    assert.match(outcome.kind === 'error' ? outcome.message : '', /could not be read .*run again, or choose a model/);
  }
});

test('words around the JSON are tolerated', () => {
  const parsed = parseJudgeAnswer(
    'Here is my verdict:\n{"verdict":"fail","reason":"no","quotes":[{"turn":"3","text":"Yes"}]}\nThanks',
  );
  assert.deepEqual(parsed, { ok: true, answer: { verdict: 'fail', reason: 'no', quotes: [{ turn: 3, text: 'Yes' }] } });
});

test('a model that fails gives a judge error with what to do, never a verdict', async (t) => {
  const { outcome, server } = await judgeWith({ fault: 'status', status: 503 }, t);
  assert.equal(outcome.kind, 'error');
  assert.match(outcome.kind === 'error' ? outcome.message : '', /judge error: .*failed \(503.*try again later/);
  assert.equal(server.calls(), 1);
});

test('a cassette miss is an error marked as one, with no model called; the cap is a skip', async (t) => {
  const server = await startScriptedModel({ answer: json({ verdict: 'pass', reason: 'r', quotes: [] }) });
  t.after(() => server.close());
  const model = createOpenAiModel({ baseUrl: server.baseUrl, model: 'judge' });
  const miss = await judgeCriterion(
    createModelCalls({ model, mode: 'replay', files: { read: async () => undefined, write: async () => undefined } }),
    input,
  );
  assert.equal(miss.kind, 'error');
  assert.ok(miss.kind === 'error' && miss.cassetteMiss);
  assert.match(miss.kind === 'error' ? miss.message : '', /re-record needed/);
  const capped = await judgeCriterion(createModelCalls({ model, mode: 'live', caps: { maxCalls: 0 } }), input);
  assert.equal(capped.kind, 'skipped');
  assert.match(capped.kind === 'skipped' ? capped.reason : '', /cap of 0 model calls/);
  assert.equal(server.calls(), 0);
});

test('a cancelled judgement is skipped as cancelled', async (t) => {
  const server = await startScriptedModel({ answer: { text: '{}', delayMs: 5_000 } });
  t.after(() => server.close());
  const calls = createModelCalls({
    model: createOpenAiModel({ baseUrl: server.baseUrl, model: 'judge' }),
    mode: 'live',
  });
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 50);
  assert.deepEqual(await judgeCriterion(calls, input, stop.signal), { kind: 'skipped', reason: 'cancelled' });
});
