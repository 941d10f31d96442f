// Perturbed cases run against a real local platform: the words sent are in the result and reach the platform, the
// same seed sends the same words in every run, a repeat takes the next seed, and a failure says how to replay it.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { junitXml } from '../../../../src/agentTests/junit';
import { resultLines } from '../../../../src/assistantTools/tools/tests';
import { parseTestFile } from '../../../../src/agentTests/parse';
import { allAt } from '../../../../src/agentTests/perturb/kinds';
import { perturb } from '../../../../src/agentTests/perturb/perturb';
import { mixSeeds } from '../../../../src/agentTests/perturb/random';
import { failureLines } from '../../../../src/agentTests/report';
import { type CaseResult, runCases } from '../../../../src/agentTests/runner';
import { ChatClient } from '../../../../src/client/chat';
import { caseRecord, resultOfRecord } from '../../../../src/cli/reporters/records';
import { localContext } from '../../../support/localClient';
import { useLocalPlatform } from '../../../support/localPlatform';

const local = useLocalPlatform();

const QUESTION = 'Hello! What are your opening hours on the 25th, and can I return an item after 30 days?';

const caseText = (perturbLine: string, repeat = 1) => `cases:
  - name: Voice-shaped
    repeat: ${repeat}
    ${perturbLine}
    turns:
      - user: ${QUESTION}
        handoff: none
      - user: Thanks, goodbye
        not_contains: [error]
`;

async function run(text: string): Promise<CaseResult> {
  const file = parseTestFile('t.yaml', text);
  assert.deepEqual(
    file.problems.filter((p) => p.severity === 'error'),
    [],
  );
  const [result] = await runCases(file.cases, {
    target: () => ({ chat: new ChatClient(localContext(local.lp)) }),
    concurrency: 1,
  });
  assert.ok(result);
  return result;
}

/** What the platform recorded as the caller's words, turn by turn, for a conversation of the run. */
function recorded(conversationId: string | undefined): string[] {
  const stored = local.lp.platform.state.conversations.find((c) => c.id === conversationId);
  return (stored?.turns ?? []).flatMap((t) => (t.user_input ? [t.user_input] : []));
}

test('a perturbed case sends the reworded words, says them and the seed in the result, and checks the answer as usual', async () => {
  const result = await run(caseText('perturb: { rate: 0.5, seed: 7 }'));
  assert.equal(result.outcome, 'passed');
  const [runOne] = result.runs;
  assert.equal(runOne?.perturbSeed, 7);
  const [first, second] = runOne?.turns ?? [];
  assert.equal(first?.perturbation?.written, QUESTION);
  assert.equal(first?.perturbation?.seed, 7);
  assert.notEqual(first?.user, QUESTION, 'the words sent are not the words written');
  // The words sent are the pure rewording at the run's seed mixed with the turn's place: a replay is exact.
  assert.equal(first?.user, perturb({ text: QUESTION, seed: mixSeeds(7, 0), rates: allAt(0.5) }).text);
  assert.equal(second?.perturbation?.written, 'Thanks, goodbye');
  assert.deepEqual(recorded(runOne?.conversationId), [first?.user, second?.user]);
  const transcript = runOne?.transcript.join('\n') ?? '';
  assert.ok(transcript.includes(`user: ${first?.user ?? ''}\n  (perturbed with seed 7: `), transcript);
  assert.ok(transcript.includes(`written "${QUESTION}"`), transcript);
});

test('the same seed sends the same words across runs; a repeat takes the next seed, and writing that seed replays it', async () => {
  const sent = (r: CaseResult) => r.runs.map((run) => run.turns.map((t) => t.user));
  const once = await run(caseText('perturb: { rate: 0.5, seed: 7 }'));
  const again = await run(caseText('perturb: { rate: 0.5, seed: 7 }'));
  assert.deepEqual(sent(again), sent(once));
  const repeated = await run(caseText('perturb: { rate: 0.5, seed: 7 }', 3));
  assert.deepEqual(
    repeated.runs.map((r) => r.perturbSeed),
    [7, 8, 9],
  );
  assert.deepEqual(sent(repeated)[0], sent(once)[0]);
  assert.equal(new Set(sent(repeated).map((words) => words[0])).size, 3, 'each repeat sends other words');
  const replay = await run(caseText('perturb: { rate: 0.5, seed: 9 }'));
  assert.deepEqual(sent(replay)[0], sent(repeated)[2]);
  const other = await run(caseText('perturb: { rate: 0.5, seed: 1234 }'));
  assert.notDeepEqual(sent(other)[0], sent(once)[0]);
});

test("a failing perturbed turn's report has the words sent, the words written and the seed, through the JSON report too", async () => {
  const result = await run(`cases:
  - name: Fails
    perturb: { seed: 3, kinds: { numbers: 1, punctuation: 1 } }
    turns:
      - user: Can I return an item after 30 days?
        contains: a text the agent never says
      - user: Thanks
        perturb: false
        not_contains: [error]
`);
  assert.equal(result.outcome, 'failed');
  const [line] = failureLines(result);
  assert.match(
    line ?? '',
    /^turn 1 \(line 5\): .* \[sent "can i return an item after thirty days" for "Can I return an item after 30 days\?", perturb seed 3\]$/,
  );
  assert.equal(result.runs[0]?.turns[1]?.user, 'Thanks');
  assert.equal(result.runs[0]?.turns[1]?.perturbation, undefined);
  assert.match(junitXml([result]), /\[sent &quot;can i return an item after thirty days&quot; for/);
  // The assistant tools' test run says it too, so an assistant can replay the failure.
  assert.ok(resultLines(result).some((l) => l.includes('[sent "can i return an item after thirty days" for')));
  const record = caseRecord(result);
  assert.equal(record.runs[0]?.perturbSeed, 3);
  assert.deepEqual(record.runs[0]?.perturbed, [
    {
      turn: 1,
      sent: 'can i return an item after thirty days',
      written: 'Can I return an item after 30 days?',
      seed: 3,
      applied: ['numbers', 'punctuation'],
    },
  ]);
  // A shard's report merged later says the same.
  assert.deepEqual(failureLines(resultOfRecord(JSON.parse(JSON.stringify(record)))), failureLines(result));
});

test('a case in a language without word lists says so in its transcript, and still sends what punctuation makes', async () => {
  const result = await run(`cases:
  - name: French
    asr_lang_code: fr
    perturb: { rate: 1, seed: 2 }
    turns:
      - user: Bonjour, quelles sont vos heures?
        not_contains: [error]
`);
  const turn = result.runs[0]?.turns[0];
  assert.deepEqual(turn?.perturbation?.withoutLists, ['numbers', 'fillers', 'mishearings']);
  assert.match(turn?.user ?? '', /^bonjour( quelles( sont( vos)?)?)?$/);
  assert.match(
    result.runs[0]?.transcript.join('\n') ?? '',
    /no word lists for this language, so no numbers, fillers, mishearings/,
  );
});
