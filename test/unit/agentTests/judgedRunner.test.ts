// Judged criteria and simulated callers, run against a real local platform through the Chat API client, with the
// model's answers chosen by rules of each test.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChatClient } from '../../../src/client/chat';
import { parseTestFile } from '../../../src/agentTests/parse';
import { type CaseResult, type RunOptions, runCases, totalSpend } from '../../../src/agentTests/runner';
import { caseLine, criterionLines, failureLines, summaryLine } from '../../../src/agentTests/report';
import type { TestCase } from '../../../src/agentTests/format';
import { junitXml } from '../../../src/agentTests/junit';
import { createRequire } from 'node:module';
import { useLocalPlatform } from '../../support/localPlatform';
import { localContext } from '../../support/localClient';
import { type Rule, answers, callerDone, callerSays, judged } from './judgedModel';

const local = useLocalPlatform();

/** A JUnit reader as CI servers use one (xml2js, a devDependency). */
const xml2js = createRequire(__filename)('xml2js') as { parseStringPromise(text: string): Promise<unknown> };
type JUnitProperties = Array<{ property: Array<{ $: { name: string; value: string } }> }>;
interface JUnit {
  testsuites: {
    properties?: JUnitProperties;
    testsuite: Array<{
      $: { tests: string; failures: string; errors: string };
      testcase: Array<{
        $: { name: string };
        failure?: unknown[];
        error?: unknown[];
        properties?: JUnitProperties;
        'system-out'?: string[];
      }>;
    }>;
  };
}

function cases(text: string): TestCase[] {
  const file = parseTestFile('t.yaml', text);
  assert.deepEqual(file.problems, []);
  return [...file.cases];
}

const options = (over: Partial<RunOptions> = {}): RunOptions => ({
  target: () => ({ chat: new ChatClient(localContext(local.lp)) }),
  concurrency: 2,
  ...over,
});

const openConversations = () => local.lp.platform.state.conversations.filter((c) => c.in_progress).length;

const HOURS = `cases:
  - name: Hours
    criteria: stays polite
    turns:
      - user: What are your opening hours?
        contains: Monday
        expect: gives the opening hours
      - user: And on Sunday?
        expect: [says whether it is open on Sunday]
`;

async function runWith(text: string, rules: Rule[], over: Partial<RunOptions> = {}, replay = false) {
  const model = await answers(rules, { replay });
  const results = await runCases(cases(text), options({ model: { calls: model.calls }, ...over }));
  return { results, model };
}

test('a case passes when every check and every criterion passes; each turn is judged on the conversation so far', async () => {
  const { results, model } = await runWith(HOURS, [
    (m) =>
      m.includes('gives the opening hours')
        ? judged('pass', 'it gives them', [{ turn: 3, text: 'Monday' }])
        : undefined,
    () => judged('pass', 'it does', []),
  ]);
  const [r] = results;
  assert.equal(r!.outcome, 'passed', failureLines(r!).join('\n'));
  const run = r!.runs[0]!;
  assert.deepEqual(
    run.criteria.map((c) => [c.scope, c.turnIndex, c.text, c.outcome.kind === 'judged' && c.outcome.verdict]),
    [
      ['turn', 0, 'gives the opening hours', 'pass'],
      ['turn', 1, 'says whether it is open on Sunday', 'pass'],
      ['case', undefined, 'stays polite', 'pass'],
    ],
  );
  assert.deepEqual(
    run.turns[0]!.criteria!.map((c) => c.text),
    ['gives the opening hours'],
  );
  // The first turn's judge saw the greeting, the question and its answer; the case's saw all five lines.
  const seen = model.requests.map((req) => req.conversationLength);
  assert.deepEqual([...seen].sort(), [3, 5, 5]);
  assert.deepEqual(
    run.conversation.map((l) => [l.turn, l.role]),
    [
      [1, 'agent'],
      [2, 'user'],
      [3, 'agent'],
      [4, 'user'],
      [5, 'agent'],
    ],
  );
  assert.deepEqual([r!.spend.calls, r!.spend.inputTokens, r!.spend.outputTokens], [3, 30, 15]);
  assert.match(
    criterionLines(r!).join('\n'),
    /✔ turn 1 expect "gives the opening hours" \(line 7\): pass: it gives them \[turn 3: "Monday"\]/,
  );
  assert.match(summaryLine(results), /^1 passed, 0 failed, 3 model calls, 30 tokens in, 15 out/);
});

test('a fail verdict fails the case with its reason; an unsure verdict or a judge error make it errored unless something failed', async () => {
  const { results } = await runWith(
    `cases:
  - name: Fails
    turns:
      - user: What are your opening hours?
        expect: gives the opening hours
  - name: Unsure
    turns:
      - user: What are your opening hours?
        expect: unsure one
  - name: Judge error
    turns:
      - user: What are your opening hours?
        expect: [broken one, unsure one]
  - name: Unsure but a check failed
    turns:
      - user: What are your opening hours?
        contains: never said
        expect: unsure one
`,
    [
      (m) => (m.includes('gives the opening hours') ? judged('fail', 'it talks of something else', []) : undefined),
      (m) => (m.includes('unsure one') ? judged('unsure', 'cannot tell', []) : undefined),
      (m) => (m.includes('broken one') ? 'this is not the structure the judge answers in' : undefined),
    ],
  );
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['failed', 'errored', 'errored', 'failed'],
  );
  assert.match(
    caseLine(results[0]!),
    /✖ .*Fails.*turn 1 expect "gives the opening hours" \(line 5\): judged not to hold: it talks of something else/,
  );
  assert.match(caseLine(results[1]!), /^! .*Unsure.*neither passed nor failed: .*the judge is unsure: cannot tell/);
  assert.equal(results[2]!.runs[0]!.criteria[0]!.outcome.kind, 'error');
  assert.match(summaryLine(results), /^0 passed, 2 failed, 2 errored/);
});

test('a quote that is not in the conversation makes the verdict a judge error, never a pass', async () => {
  const { results } = await runWith(HOURS, [() => judged('pass', 'it said so', [{ turn: 3, text: 'we never close' }])]);
  assert.equal(results[0]!.outcome, 'errored');
  assert.ok(results[0]!.runs[0]!.criteria.every((c) => c.outcome.kind === 'error'));
});

test('a model that fails fails those criteria with what happened and what to do; a cassette miss says to re-record', async () => {
  for (const [fault, words] of [
    ['rate-limited', /rate|limit/i],
    ['unreachable', /base URL is right/],
    ['miss', /re-record needed: .*--cassette record/],
  ] as const) {
    const { results } = await runWith(HOURS, fault === 'miss' ? [] : [() => ({ fault })], {}, fault === 'miss');
    const [r] = results;
    assert.equal(r!.outcome, 'failed', fault);
    assert.match(failureLines(r!).join('\n'), words);
    assert.equal(openConversations(), 0);
  }
});

test('with no model set, judged criteria are skipped with the reason, and nothing judged passes', async () => {
  const none = { none: 'no model is set: choose one with the command, or give --model-base-url and --model' };
  const results = await runCases(
    cases(`cases:
  - name: Checks held
    turns:
      - user: What are your opening hours?
        contains: Monday
        expect: gives the opening hours
  - name: A check failed
    criteria: stays polite
    turns:
      - user: What are your opening hours?
        contains: never said
  - name: Judged only
    turns:
      - user: What are your opening hours?
        expect: gives the opening hours
  - name: Simulated
    scenario:
      goal: learn the opening hours
      success: the agent gives the opening hours
  - name: Scripted
    turns:
      - user: What are your opening hours?
        contains: Monday
`),
    options({ model: none }),
  );
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['skipped', 'failed', 'skipped', 'skipped', 'passed'],
  );
  assert.match(
    results[0]!.skipReason!,
    /the criterion "gives the opening hours" was not judged: no model is set: choose one/,
  );
  assert.match(results[2]!.skipReason!, /every check is judged: no model is set/);
  assert.match(results[3]!.skipReason!, /the simulated caller needs a model: no model is set/);
  assert.equal(results[2]!.runs.length, 0);
  assert.equal(results[3]!.runs.length, 0);
  assert.equal(totalSpend(results).calls, 0);
});

test('the cap reached: the model is not asked again, every result so far is kept, and where it stopped is said', async () => {
  const text = `cases:\n${[1, 2, 3, 4]
    .map(
      (i) =>
        `  - name: case ${i}\n    turns:\n      - user: What are your opening hours?\n        contains: Monday\n        expect: gives the opening hours`,
    )
    .join('\n')}\n`;
  const { results } = await runWith(text, [() => judged('pass', 'ok', [])], { concurrency: 1 });
  const m = await answers([() => judged('pass', 'ok', [])], { cap: 2 });
  const capped = await runCases(cases(text), options({ model: { calls: m.calls }, concurrency: 1 }));
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['passed', 'passed', 'passed', 'passed'],
  );
  assert.deepEqual(
    capped.map((r) => r.outcome),
    ['passed', 'passed', 'skipped', 'skipped'],
  );
  assert.match(
    capped[2]!.skipReason!,
    /the cap of 2 model calls was reached.*; the run stopped asking the model at t\.yaml › case 3/,
  );
  assert.match(capped[3]!.skipReason!, /stopped asking the model at t\.yaml › case 3/);
  assert.equal(totalSpend(capped).calls, 2);
});

test('a simulated caller talks until it says the goal is met; the conversation and why it stopped are in the result', async () => {
  const { results } = await runWith(
    `cases:
  - name: Hours
    scenario:
      goal: learn the opening hours
      facts: { name: Ada }
      first_line: Hello there
      success: the agent gives the opening hours
`,
    [
      (_text, purpose, lines) =>
        purpose === 'caller'
          ? lines < 4
            ? callerSays('What are your opening hours?')
            : callerDone('goal-met', 'got them')
          : undefined,
      () => judged('pass', 'it gives them', [{ turn: 5, text: 'Monday' }]),
    ],
  );
  const [r] = results;
  assert.equal(r!.outcome, 'passed', failureLines(r!).join('\n'));
  const run = r!.runs[0]!;
  assert.equal(run.stop, 'goal-met');
  assert.equal(run.stopReason, 'got them');
  assert.deepEqual(
    run.conversation.filter((l) => l.role === 'user').map((l) => l.text),
    ['Hello there', 'What are your opening hours?'],
  );
  assert.deepEqual(
    run.criteria.map((c) => [c.scope, c.text]),
    [['success', 'the agent gives the opening hours']],
  );
  assert.match(run.transcript.join('\n'), /the simulated caller stopped: the caller says its goal is met: got them/);
  assert.equal(r!.spend.calls, 3);
  assert.equal(openConversations(), 0);
});

test('a simulated conversation stops at the turn budget, a handoff, or the caller giving up', async () => {
  const scenario = (name: string, extra: string) =>
    `  - name: ${name}\n    scenario:\n      goal: g ${name}\n      success: s\n${extra}`;
  const { results } = await runWith(
    `cases:\n${scenario('budget', '      max_turns: 2\n')}\n${scenario('handoff', '      first_line: I want to speak to a person\n')}\n${scenario('gives up', '')}\n`,
    [
      (m, purpose) =>
        purpose === 'caller' && m.includes('g gives up') ? callerDone('caller-gave-up', 'no luck') : undefined,
      (_text, purpose) => (purpose === 'caller' ? callerSays('What are your opening hours?') : undefined),
      () => judged('fail', 'not met', []),
    ],
  );
  const stops = (r: CaseResult) => [r.runs[0]!.stop, r.runs[0]!.conversation.filter((l) => l.role === 'user').length];
  assert.deepEqual(results.map(stops), [
    ['turn-budget', 2],
    ['handoff', 1],
    ['caller-gave-up', 0],
  ]);
  assert.ok(results.every((r) => r.outcome === 'failed'));
});

test('a simulated caller whose model fails stops with an error and fails its success criteria with what happened', async () => {
  const { results } = await runWith(`cases:\n  - name: x\n    scenario:\n      goal: g\n      success: s\n`, [
    () => ({ fault: 'unreachable' }),
  ]);
  const [r] = results;
  assert.equal(r!.outcome, 'failed');
  assert.equal(r!.runs[0]!.stop, 'error');
  assert.match(failureLines(r!).join('\n'), /success "s" \(line 5\): the model call failed: .*base URL is right/);
  assert.equal(openConversations(), 0);
});

test('JUnit lists each criterion as a test case of its own, with the verdict, and calls and tokens as properties', async () => {
  const { results } = await runWith(HOURS, [
    (m) => (m.includes('stays polite') ? judged('fail', 'it was curt', []) : undefined),
    (m) => (m.includes('open on Sunday') ? judged('unsure', 'cannot tell', []) : undefined),
    () => judged('pass', 'it gives them', [{ turn: 3, text: 'Monday' }]),
  ]);
  const report = (await xml2js.parseStringPromise(junitXml(results))) as JUnit;
  const suite = report.testsuites.testsuite[0]!;
  assert.deepEqual(
    suite.testcase.map((c) => [c.$.name, c.failure ? 'failure' : c.error ? 'error' : 'passed']),
    [
      ['Hours', 'failure'],
      ['Hours › turn 1 expect "gives the opening hours" (line 7)', 'passed'],
      ['Hours › turn 2 expect "says whether it is open on Sunday" (line 9)', 'error'],
      ['Hours › criterion "stays polite" (line 3)', 'failure'],
    ],
  );
  assert.deepEqual([suite.$.tests, suite.$.failures, suite.$.errors], ['4', '2', '1']);
  assert.match(suite.testcase[1]!['system-out']![0]!, /pass: it gives them\nturn 3: "Monday"/);
  const props = (p: JUnitProperties | undefined) =>
    Object.fromEntries((p?.[0]?.property ?? []).map((x) => [x.$.name, x.$.value]));
  assert.deepEqual(props(suite.testcase[0]!.properties), {
    'model.calls': '3',
    'model.replayed': '0',
    'model.inputTokens': '30',
    'model.outputTokens': '15',
  });
  assert.equal(props(report.testsuites.properties)['model.calls'], '3');
});

test('a case repeated: its runs are judged each, a failed run fails it, and errored runs alone make it errored', async () => {
  let n = 0;
  const { results } = await runWith(
    `cases:
  - name: Flaky judge
    repeat: 2
    turns:
      - user: What are your opening hours?
        expect: gives the opening hours
  - name: Unsure judge
    repeat: 2
    turns:
      - user: What are your opening hours?
        expect: unsure one
`,
    [
      (m) => (m.includes('unsure one') ? judged('unsure', 'cannot tell', []) : undefined),
      () => judged(n++ === 0 ? 'pass' : 'fail', 'as it happened', []),
    ],
    { concurrency: 1 },
  );
  assert.deepEqual(
    results.map((r) => [r.outcome, r.flaky, r.runs.map((run) => run.status)]),
    [
      ['failed', true, ['passed', 'failed']],
      ['errored', false, ['errored', 'errored']],
    ],
  );
  assert.equal(results[0]!.spend.calls, 2);
});

test('cancelling a judged run stops asking the model and reports the case cancelled, never passed', async () => {
  const controller = new AbortController();
  const { results } = await runWith(
    HOURS,
    [
      () => {
        controller.abort();
        return judged('pass', 'it does', []);
      },
    ],
    { signal: controller.signal },
  );
  assert.equal(results[0]!.outcome, 'cancelled');
  assert.equal(openConversations(), 0);
});
