// The simulated caller through the scripted model server: its first line, its next messages, when it is done.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextCallerTurn } from '../../../../src/agentTests/model/caller';
import { createModelCalls } from '../../../../src/agentTests/model/modelCalls';
import { createOpenAiModel } from '../../../../src/agentTests/model/openaiModel';
import { ModelCallError } from '../../../../src/agentTests/model/types';
import type { Scenario } from '../../../../src/agentTests/format';
import { type ScriptedAnswer, startScriptedModel } from '../../../support/scriptedModel';

const range = { startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 0 };
const scenario: Scenario = {
  goal: 'move the booking to Friday',
  persona: 'a busy parent, curt',
  facts: { name: 'Ana Silva', booking: 'BK-4471' },
  maxTurns: 6,
  success: [{ text: 'the booking is moved', range }],
  range,
};

async function caller(answer: ScriptedAnswer, t: { after: (fn: () => Promise<void>) => void }) {
  const server = await startScriptedModel({ answer });
  t.after(() => server.close());
  return {
    server,
    calls: createModelCalls({ model: createOpenAiModel({ baseUrl: server.baseUrl, model: 'caller' }), mode: 'live' }),
  };
}

const agentAsks = [{ turn: 1, role: 'agent' as const, text: 'Hi, what is your booking reference?' }];

test('the caller answers in character from the goal, persona and facts', async (t) => {
  const { server, calls } = await caller(JSON.stringify({ done: false, message: 'It is BK-4471.' }), t);
  const step = await nextCallerTurn(calls, { file: 'tests/booking.yaml', scenario, conversation: agentAsks });
  assert.deepEqual(step, { kind: 'say', text: 'It is BK-4471.' });
  const asked = server.requests[0]?.text ?? '';
  for (const words of [
    'move the booking to Friday',
    'a busy parent, curt',
    'booking: BK-4471',
    'Turn 1 (agent): Hi, what is your booking reference?',
  ]) {
    assert.ok(asked.includes(words), words);
  }
});

test('the written first line is said without calling the model', async (t) => {
  const { server, calls } = await caller('{}', t);
  const step = await nextCallerTurn(calls, {
    file: 'f.yaml',
    scenario: { ...scenario, firstLine: 'I need to change a booking.' },
    conversation: agentAsks,
  });
  assert.deepEqual(step, { kind: 'say', text: 'I need to change a booking.' });
  assert.equal(server.calls(), 0);
});

test('done: the goal met, or the caller giving up', async (t) => {
  const met = await caller('```json\n{"done": true, "why": "goal-met", "message": "Moved to Friday."}\n```', t);
  assert.deepEqual(await nextCallerTurn(met.calls, { file: 'f.yaml', scenario, conversation: agentAsks }), {
    kind: 'done',
    why: 'goal-met',
    reason: 'Moved to Friday.',
  });
  const quit = await caller(
    JSON.stringify({ done: true, why: 'gave-up', message: 'It keeps asking the same thing.' }),
    t,
  );
  assert.deepEqual(await nextCallerTurn(quit.calls, { file: 'f.yaml', scenario, conversation: agentAsks }), {
    kind: 'done',
    why: 'caller-gave-up',
    reason: 'It keeps asking the same thing.',
  });
});

test('an answer that cannot be read is a ModelCallError saying what to do', async (t) => {
  for (const answer of ['Sure, BK-4471', JSON.stringify({ done: false, message: '' })]) {
    const { calls } = await caller(answer, t);
    await assert.rejects(
      nextCallerTurn(calls, { file: 'f.yaml', scenario, conversation: agentAsks }),
      (err: unknown) => {
        assert.ok(err instanceof ModelCallError);
        assert.equal(err.kind, 'unreadable');
        assert.match(err.message, /simulated caller's answer could not be read/);
        return true;
      },
    );
  }
});
