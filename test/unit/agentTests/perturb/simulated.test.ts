// A simulated caller's messages are reworded as scripted turns are, and the judge reads the words as they were sent.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTestFile } from '../../../../src/agentTests/parse';
import { failureLines } from '../../../../src/agentTests/report';
import { runCases } from '../../../../src/agentTests/runner';
import { ChatClient } from '../../../../src/client/chat';
import { localContext } from '../../../support/localClient';
import { useLocalPlatform } from '../../../support/localPlatform';
import { answers, callerDone, callerSays, judged } from '../judgedModel';

const local = useLocalPlatform();

test("a scenario's perturb: rewords the simulated caller's messages; the judge reads them as sent", async () => {
  const asked: string[] = [];
  const model = await answers([
    (_text, purpose, lines) =>
      purpose === 'caller'
        ? lines < 4
          ? callerSays('What are your opening hours on the 25th?')
          : callerDone('goal-met', 'got them')
        : undefined,
    (text) => {
      asked.push(text);
      return judged('pass', 'it gives them', []);
    },
  ]);
  const file = parseTestFile(
    't.yaml',
    `cases:
  - name: Hours, said
    perturb: { seed: 4, kinds: { numbers: 1, punctuation: 1 } }
    scenario:
      goal: learn the opening hours
      first_line: Hello there!
      success: the agent gives the opening hours
`,
  );
  assert.deepEqual(file.problems, []);
  const [result] = await runCases(file.cases, {
    target: () => ({ chat: new ChatClient(localContext(local.lp)) }),
    concurrency: 1,
    model: { calls: model.calls },
  });
  assert.equal(result?.outcome, 'passed', result ? failureLines(result).join('\n') : 'no result');
  const run = result?.runs[0];
  assert.deepEqual(
    run?.turns.map((t) => [t.user, t.perturbation?.written, t.perturbation?.seed]),
    [
      ['hello there', 'Hello there!', 4],
      ['what are your opening hours on the twenty fifth', 'What are your opening hours on the 25th?', 4],
    ],
  );
  assert.deepEqual(
    run?.conversation.filter((l) => l.role === 'user').map((l) => l.text),
    ['hello there', 'what are your opening hours on the twenty fifth'],
  );
  assert.ok(asked.some((text) => text.includes('what are your opening hours on the twenty fifth')));
  assert.equal(run?.perturbSeed, 4);
});
