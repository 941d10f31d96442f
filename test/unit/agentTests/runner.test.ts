// Running conversation tests against a real local platform through the Chat API client.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAnswer } from '../../../src/agentTests/checks';
import { ChatClient } from '../../../src/client/chat';
import { parseTestFile } from '../../../src/agentTests/parse';
import { type ChatConversations, type RunOptions, runCases } from '../../../src/agentTests/runner';
import type { TestCase } from '../../../src/agentTests/format';
import { useLocalPlatform } from '../../support/localPlatform';
import { localContext } from '../../support/localClient';

const local = useLocalPlatform();

function cases(text: string): TestCase[] {
  const file = parseTestFile('t.yaml', text);
  assert.deepEqual(file.problems, []);
  return [...file.cases];
}

function chat(): ChatClient {
  return new ChatClient(localContext(local.lp));
}

/** The local Chat API, counting the conversations created through it. */
function countingCreates(): { counting: ChatConversations; created: () => number } {
  let created = 0;
  const client = chat();
  return {
    counting: {
      create: (r, s) => {
        created++;
        return client.create(r, s);
      },
      respond: (r, s) => client.respond(r, s),
      close: (id, s) => client.close(id, s),
    },
    created: () => created,
  };
}

const openConversations = () => local.lp.platform.state.conversations.filter((c) => c.in_progress).length;

const options = (over: Partial<RunOptions> = {}): RunOptions => ({
  target: () => ({ chat: chat() }),
  concurrency: 2,
  ...over,
});

const SUPPORT = `cases:
  - name: Opening hours
    turns:
      - contains: Hello
      - user: What are your opening hours?
        contains: [Monday, Saturday]
        matches: /from \\d+am/i
        handoff: none
        end: false
        max_latency_ms: 10000
  - name: A person, then goodbye
    turns:
      - user: I want to speak to a person
        handoff: { destination: human-support-queue }
      - user: goodbye
        end: true
`;

test('cases whose checks hold pass, and no conversation is left open', async () => {
  const results = await runCases(cases(SUPPORT), options());
  assert.deepEqual(
    results.map((r) => [r.testCase.name, r.outcome]),
    [
      ['Opening hours', 'passed'],
      ['A person, then goodbye', 'passed'],
    ],
  );
  assert.match(results[0]!.runs[0]!.transcript.join('\n'), /user: What are your opening hours\?\nagent: Our stores/);
  assert.equal(openConversations(), 0);
});

test('a failing turn says what it wanted and what came, with the recorded answer as the expected side', async () => {
  const [result] = await runCases(
    cases(`cases:
  - name: Password
    turns:
      - user: How do I reset my password?
        contains: reset link
        reference: We sent you a reset link.
        handoff: true
`),
    options(),
  );
  assert.equal(result!.outcome, 'failed');
  const failures = result!.runs[0]!.turns[0]!.failures;
  assert.deepEqual(
    failures.map((f) => f.check),
    ['contains', 'handoff'],
  );
  assert.equal(failures[0]!.expected, 'We sent you a reset link.');
  assert.match(failures[0]!.actual, /Sorry, I can't help with that/);
  assert.match(failures[0]!.message, /does not contain "reset link"/);
  assert.deepEqual([failures[1]!.expected, failures[1]!.actual], ['a handoff', 'no handoff']);
  assert.equal(openConversations(), 0);
});

test('a case repeated passes at its required rate and is marked flaky when runs both passed and failed', async () => {
  // The second chat/respond fails: one of three runs fails.
  await local.admin.addFault({ family: 'runtime', method: 'POST', path: 'chat/respond', status: 503, times: 1 });
  const [result] = await runCases(
    cases(`cases:
  - name: Hours
    repeat: 3
    required_pass_rate: 0.6
    turns:
      - user: What are your opening hours?
        contains: Monday
`),
    options({ concurrency: 1 }),
  );
  assert.equal(result!.runs.length, 3);
  assert.equal(result!.outcome, 'passed');
  assert.equal(result!.flaky, true);
  assert.ok(Math.abs(result!.passRate - 2 / 3) < 1e-9);
  assert.ok(result!.runs[0]!.error, 'the failing run keeps the platform message');
  assert.equal(openConversations(), 0);
});

test('a platform error mid-run fails that case with the platform message and the other cases go on', async () => {
  const client = chat();
  let calls = 0;
  // The first case's second turn meets an error of the platform.
  const failing: ChatConversations = {
    create: (r, s) => client.create(r, s),
    respond: async (r, s) => {
      if (++calls === 2) await local.admin.addFault({ family: 'runtime', path: 'chat/respond', status: 500, times: 1 });
      return client.respond(r, s);
    },
    close: (id, s) => client.close(id, s),
  };
  const [first, second] = await runCases(
    cases(`cases:
  - name: Broken
    turns:
      - user: hello
      - user: What are your opening hours?
        contains: Monday
      - user: goodbye
  - name: Fine
    turns:
      - user: What are your opening hours?
        contains: Monday
`),
    options({ concurrency: 1, target: (c) => ({ chat: c.name === 'Broken' ? failing : client }) }),
  );
  assert.equal(first!.outcome, 'failed');
  assert.equal(first!.runs[0]!.turns.length, 1, 'turns after the error are not sent');
  assert.match(first!.runs[0]!.error ?? '', /Chat API/);
  assert.equal(second!.outcome, 'passed');
  assert.equal(openConversations(), 0);
});

test('cancelling stops sending, closes the open conversations and reports the cases cancelled', async () => {
  await local.admin.addFault({ family: 'runtime', method: 'POST', path: 'chat/respond', delayMs: 1500 });
  const controller = new AbortController();
  const started: string[] = [];
  const run = runCases(
    cases(`cases:
  - name: One
    turns: [{ user: hello }, { user: goodbye, end: true }]
  - name: Two
    turns: [{ user: hello }, { user: goodbye, end: true }]
  - name: Three
    turns: [{ user: hello, end: false }]
`),
    options({ signal: controller.signal, listener: { caseStarted: (c) => started.push(c.name) } }),
  );
  while (openConversations() < 2) await new Promise((r) => setTimeout(r, 20));
  controller.abort();
  const results = await run;
  await local.admin.clearFaults();
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['cancelled', 'cancelled', 'cancelled'],
  );
  assert.equal(openConversations(), 0);
  assert.deepEqual(started.slice(0, 2), ['One', 'Two']);
});

test('no more conversations are open at once than the limit, and a case without a target is skipped with why', async () => {
  const client = chat();
  let open = 0;
  let most = 0;
  const counting: ChatConversations = {
    create: async (r, s) => {
      most = Math.max(most, ++open);
      return client.create(r, s);
    },
    respond: (r, s) => client.respond(r, s),
    close: async (id, s) => {
      open--;
      return client.close(id, s);
    },
  };
  const many = Array.from({ length: 8 }, (_, i) => `  - name: c${i}\n    turns: [{ user: hello, end: false }]`).join(
    '\n',
  );
  const results = await runCases(
    cases(`cases:\n${many}\n  - name: live only\n    environment: live\n    turns: [{ user: hello, end: false }]\n`),
    options({
      concurrency: 3,
      target: (c) => (c.environment === 'live' ? { skip: 'this run is against sandbox' } : { chat: counting }),
    }),
  );
  assert.ok(most <= 3 && most > 1, `at most 3 open at once, was ${most}`);
  assert.equal(results.at(-1)!.outcome, 'skipped');
  assert.equal(results.at(-1)!.skipReason, 'this run is against sandbox');
  assert.equal(open, 0);
});

test('the repeats of a case run side by side up to the limit and make one result', async () => {
  const finished: string[] = [];
  const results = await runCases(
    cases(
      'cases:\n  - name: Hours\n    repeat: 4\n    turns: [{ user: What are your opening hours?, contains: Monday }]\n',
    ),
    options({ concurrency: 4, listener: { caseFinished: (r) => finished.push(r.testCase.name) } }),
  );
  assert.deepEqual(finished, ['Hours']);
  assert.deepEqual(
    results[0]!.runs.map((r) => [r.attempt, r.passed]),
    [
      [1, true],
      [2, true],
      [3, true],
      [4, true],
    ],
  );
  assert.equal(results[0]!.flaky, false);
  assert.equal(openConversations(), 0);
});

test('a case naming a variant the target lacks is skipped with the reason, and its repeats are not sent', async () => {
  const { counting, created } = countingCreates();
  const [missing, known] = await runCases(
    cases(`cases:
  - name: No such variant
    variant: var_nowhere
    repeat: 3
    turns: [{ user: hello, end: false }]
  - name: Without a variant
    turns: [{ user: hello, end: false }]
`),
    options({ concurrency: 1, target: () => ({ chat: counting }) }),
  );
  assert.equal(missing!.outcome, 'skipped');
  assert.match(missing!.skipReason ?? '', /the target has no variant var_nowhere/);
  assert.match(missing!.skipReason ?? '', /no variant var_nowhere in this project/);
  assert.equal(known!.outcome, 'passed');
  assert.equal(created(), 2, 'one refused create for the skipped case, one for the other');
  assert.equal(openConversations(), 0);
});

test('a case that checks nothing is skipped with what to add, never passed, and opens no conversation', async () => {
  const { counting, created } = countingCreates();
  const file = parseTestFile(
    't.yaml',
    `cases:
  - name: Only references
    turns:
      - reference: Hello! I'm Sam.
      - user: What are your opening hours?
        reference: Open around the clock.
  - name: Checked
    turns:
      - user: What are your opening hours?
        contains: Monday
`,
  );
  const [unchecked, checked] = await runCases(file.cases, options({ target: () => ({ chat: counting }) }));
  assert.equal(unchecked!.outcome, 'skipped');
  assert.match(unchecked!.skipReason ?? '', /^no checks: add `contains:`, `matches:`, `handoff:` or `end:` to a turn/);
  assert.equal(checked!.outcome, 'passed');
  assert.equal(created(), 1, 'only the case with checks made a conversation');
});

test('a failing contains: says which text is missing; a diff is offered only when the recorded answer differs from the answer', () => {
  const answer = { response: 'Our stores are open Monday to Saturday.', endConversation: false, latencyMs: 5 };
  const [same] = checkAnswer(
    { contains: ['open around the clock'], reference: 'Our stores are open Monday to Saturday.' },
    answer,
  );
  assert.equal(same!.message, 'The answer does not contain "open around the clock".');
  assert.equal(same!.comparable, false, 'the recorded answer is the answer: a diff would show two identical texts');
  const [none] = checkAnswer({ contains: ['open around the clock'] }, answer);
  assert.equal(none!.comparable, false, 'no recorded answer: nothing to compare');
  const [changed] = checkAnswer({ contains: ['Sunday'], reference: 'Open Monday to Sunday.' }, answer);
  assert.equal(changed!.comparable, true);
  assert.deepEqual([changed!.expected, changed!.actual], ['Open Monday to Sunday.', answer.response]);
  const [end] = checkAnswer({ end: true }, answer);
  assert.equal(end!.comparable, true);
});
