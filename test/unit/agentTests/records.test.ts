// Record checks against a real local platform: each case's conversation goes through the Chat API, and its record
// is read back through the Conversations API (v3), as the command line's --local run reads it.
import * as assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { parseTestFile } from '../../../src/agentTests/parse';
import { type CaseResult, type RunOptions, runCases } from '../../../src/agentTests/runner';
import type { TestCase } from '../../../src/agentTests/format';
import type { RecordCheckResult } from '../../../src/agentTests/records/types';
import { junitXml } from '../../../src/agentTests/junit';
import { caseLine, criterionLines } from '../../../src/agentTests/report';
import { ConversationsClient } from '../../../src/client/conversations';
import { Transport } from '../../../src/client/transport';
import { listTogether } from '../../../src/agentTests/records/batch';
import { localTargets } from '../../../src/cli/testTargets';
import { LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { localContext } from '../../support/localClient';
import { useLocalPlatform } from '../../support/localPlatform';

const local = useLocalPlatform();
const transport = new Transport();
after(() => transport.dispose());

function cases(text: string): TestCase[] {
  const file = parseTestFile('t.yaml', text);
  assert.deepEqual(
    file.problems.filter((p) => p.severity === 'error'),
    [],
  );
  return [...file.cases];
}

const options = (over: Partial<RunOptions> = {}): RunOptions => ({
  target: localTargets(local.lp, transport),
  concurrency: 2,
  recordWait: { waitMs: 3_000, pollMs: 100 },
  ...over,
});

async function runOne(text: string, over: Partial<RunOptions> = {}): Promise<CaseResult> {
  const [result] = await runCases(cases(text), options(over));
  assert.ok(result);
  return result;
}

/** The run's record checks by name: what each came to. */
function outcomes(r: CaseResult, run = 0): Record<string, RecordCheckResult['outcome']> {
  return Object.fromEntries((r.runs[run]?.records ?? []).map((c) => [c.name, c.outcome]));
}

const kinds = (r: CaseResult, run = 0) =>
  Object.fromEntries(Object.entries(outcomes(r, run)).map(([k, o]) => [k, o.kind]));

const BOOKING = `cases:
  - name: Booking is made
    turns:
      - user: A table for four on the twenty fifth at nine thirty
        intents: [book_table]
        entities: { party_size: "4", booking_time: "09:30" }
        ood: true
      - user: goodbye
        end: true
    state:
      booking_confirmed: true
      booking_reference: { matches: "^BT-" }
      requested: { exists: true }
      card_blocked: { absent: true }
      party_size: 4
`;

test('state equals, matches, exists and absent, intents, entities and ood hold on the record of the conversation', async () => {
  const r = await runOne(BOOKING);
  assert.equal(r.outcome, 'passed', criterionLines(r).join('\n'));
  assert.deepEqual(kinds(r), {
    'state.booking_confirmed': 'passed',
    'state.booking_reference': 'passed',
    'state.requested': 'passed',
    'state.card_blocked': 'passed',
    'state.party_size': 'passed',
    'turn 1 intents': 'passed',
    'turn 1 entities': 'passed',
    'turn 1 ood': 'passed',
  });
  assert.match(criterionLines(r).join('\n'), /✔ record state\.booking_reference \(line 12\): "BT-[0-9A-F]{6}"/);
});

test('record checks that do not hold fail the case, each saying what the record has', async () => {
  const r = await runOne(`cases:
  - name: Wrong booking
    turns:
      - user: A table for two at 7pm please
        intents: [block_card]
        entities: { party_size: "3" }
        ood: false
    state:
      booking_confirmed: false
      booking_reference: { matches: "^XX-" }
      booking_refernce: { exists: true }
      party_size: { absent: true }
    num_ood: 0
`);
  assert.equal(r.outcome, 'failed');
  const o = outcomes(r);
  const message = (name: string) => {
    const out = o[name];
    return out?.kind === 'failed' ? out.message : `not failed: ${JSON.stringify(out)}`;
  };
  assert.match(message('state.booking_confirmed'), /booking_confirmed = true, not false/);
  assert.match(message('state.booking_reference'), /not a value matching \/\^XX-\//);
  // An unknown key lists the keys the record has, so a misspelt one is found at once.
  assert.match(message('state.booking_refernce'), /has no key booking_refernce; it has .*booking_reference/);
  assert.match(message('state.party_size'), /party_size = "2", which must not be set/);
  assert.match(message('turn 1 intents'), /did not recognise block_card on the turn; it recognised book_table, ood/);
  assert.match(message('turn 1 entities'), /party_size is "2", not "3"/);
  assert.match(message('turn 1 ood'), /is_ood is "true", not "false"/);
  assert.match(message('num_ood'), /num_ood is "1", not "0"/);
  assert.match(caseLine(r), /✖ .*record state\.booking_confirmed \(line 9\)/);
});

test('a blocked card, the handoff and the counts are checked on the record', async () => {
  const r = await runOne(`cases:
  - name: Card blocked, then a person
    turns:
      - user: I lost my card ending 4321, please block it
        intents: [block_card]
        entities: { card_last_four: "4321" }
      - user: I want to speak to a person
        handoff: true
        ood: false
    state:
      card_blocked: true
      card_last_four: "4321"
      card_block_reference: { matches: "^CB-" }
    handoff_reason: The user asked to speak to a person
    handoff_destination: human-support-queue
    num_silences: 0
    num_ood: 1
    metrics: [CALL_DURATION, HANDOFF_TO]
`);
  assert.equal(r.outcome, 'passed', criterionLines(r).join('\n'));
  assert.equal(r.runs[0]?.records?.length, 12);
});

test('record_latency_ms is read from the record with include_latency, and p95_latency_ms shows the distribution over repeats', async () => {
  const since = await local.admin.lastRequestSeq();
  const r = await runOne(`cases:
  - name: Quick answers
    repeat: 4
    turns:
      - user: What are your opening hours?
        record_latency_ms: 100000
        p95_latency_ms: 60000
      - user: Can I return an item?
        record_latency_ms: 1
`);
  assert.equal(r.outcome, 'failed');
  const o = outcomes(r);
  assert.equal(o['turn 1 record_latency_ms']?.kind, 'passed');
  const slow = o['turn 2 record_latency_ms'];
  assert.ok(slow?.kind === 'failed' && /latency of the turn is \d+ ms, over the budget of 1 ms/.test(slow.message));
  const [d] = r.latency ?? [];
  assert.ok(d);
  assert.equal(d.runs, 4);
  assert.ok(d.p50 <= d.p95 && d.p95 <= d.max && d.passed);
  assert.match(
    criterionLines(r).join('\n'),
    /✔ turn 1 latency over 4 runs: p50 \d+ ms, p95 \d+ ms, max \d+ ms \(p95 budget 60000 ms\)/,
  );
  const listed = (await local.admin.requests({ since, path: '/conversations' })).filter((q) => q.method === 'GET');
  assert.ok(listed.length > 0);
  for (const q of listed) {
    assert.deepEqual(q.query.include_latency, ['true']);
    assert.deepEqual(q.query.client_env, ['sandbox']);
    assert.ok(q.query.start_time && q.query.end_time, "the run's time window");
  }
});

test('a p95 over its budget fails the case even when every run passed its own checks', async () => {
  const r = await runOne(`cases:
  - name: Too slow over repeats
    repeat: 3
    turns:
      - user: What are your opening hours?
        contains: Monday
        p95_latency_ms: 0
`);
  assert.equal(r.passRate, 1);
  assert.equal(r.outcome, 'failed');
  assert.match(caseLine(r), /turn 1 latency over 3 runs: .*\(p95 budget 0 ms\): over the budget/);
});

test('a record that appears late is waited for, within the bounded wait', async () => {
  // The first two listings answer as if the record were not there yet, as a platform's pipeline may lag.
  await local.admin.addFault({
    family: 'runtime',
    method: 'GET',
    path: '/conversations',
    replyBody: { conversations: [], descriptions: {}, cursor: null },
    times: 2,
  });
  const since = await local.admin.lastRequestSeq();
  const r = await runOne(BOOKING);
  assert.equal(r.outcome, 'passed', criterionLines(r).join('\n'));
  const listed = (await local.admin.requests({ since, path: '/conversations' })).filter((q) => q.method === 'GET');
  assert.ok(listed.length >= 3, `looked ${listed.length} times`);
});

test('a record that never appears leaves each record check not checked, and the case is not passed', async () => {
  await local.admin.addFault({
    family: 'runtime',
    method: 'GET',
    path: '/conversations',
    replyBody: { conversations: [], descriptions: {}, cursor: null },
  });
  const started = performance.now();
  const r = await runOne(BOOKING, { recordWait: { waitMs: 600, pollMs: 100 } });
  assert.ok(performance.now() - started < 5_000, 'the wait is bounded');
  assert.equal(r.outcome, 'skipped');
  assert.match(
    r.skipReason ?? '',
    /8 record checks .* were not checked: the record of conversation \S+ did not appear/,
  );
  for (const o of Object.values(outcomes(r))) assert.equal(o.kind, 'not-checked');
});

test('transcript visibility off: per-turn checks are not checked, the state is still checked', async () => {
  await local.admin.setProjectSettings('support-desk', { transcriptVisibility: false });
  const r = await runOne(BOOKING);
  assert.equal(r.outcome, 'skipped');
  const o = outcomes(r);
  assert.equal(o['state.booking_reference']?.kind, 'passed');
  const turn = o['turn 1 intents'];
  assert.ok(turn?.kind === 'not-checked');
  assert.match(
    turn.reason,
    /transcript visibility is off for the project: the record has no turns, though num_turns is 3/,
  );
});

test('metrics off: metrics checks are not checked, never passed', async () => {
  await local.admin.setProjectSettings('support-desk', { responseMetrics: [] });
  const r = await runOne(`cases:
  - name: Metrics
    turns:
      - user: What are your opening hours?
        contains: Monday
    metrics: [CALL_DURATION]
`);
  assert.equal(r.outcome, 'skipped');
  assert.deepEqual(outcomes(r), {
    'metrics.CALL_DURATION': { kind: 'not-checked', reason: 'the record has no metrics: the project enables none' },
  });
});

test('metrics present and equal when the project enables them', async () => {
  const r = await runOne(`cases:
  - name: Metrics
    turns:
      - user: What are your opening hours?
        contains: Monday
    metrics:
      CALL_COMPLETED: "true"
      HANDOFF_TO: somewhere
`);
  assert.equal(r.outcome, 'failed');
  assert.equal(outcomes(r)['metrics.CALL_COMPLETED']?.kind, 'passed');
  assert.equal(outcomes(r)['metrics.HANDOFF_TO']?.kind, 'failed');
});

test('a key the Conversations API refuses (403) says the key lacks Conversations data permission', async () => {
  await local.admin.addFault({ family: 'runtime', method: 'GET', path: '/conversations', status: 403 });
  const r = await runOne(BOOKING);
  assert.equal(r.outcome, 'skipped');
  const first = Object.values(outcomes(r))[0];
  assert.ok(first?.kind === 'not-checked');
  assert.match(first.reason, /refused the key \(403\): it lacks Conversations data permission/);
});

test('a key without Conversations data permission sees no records: not checked, and the reason says it may be the key', async () => {
  const key = local.lp.platform.state.keys.find((k) => k.key === LOCAL_KEYS.conversations);
  assert.ok(key);
  key.dataPermission = false;
  const r = await runOne(BOOKING, { recordWait: { waitMs: 300, pollMs: 100 } });
  assert.equal(r.outcome, 'skipped');
  assert.match(
    r.skipReason ?? '',
    /did not appear .*a key without Conversations data permission sees no records either/,
  );
});

test('JUnit has a test case per record check: a failure, a pass, and a check not made is skipped with its reason', async () => {
  await local.admin.setProjectSettings('support-desk', { transcriptVisibility: false });
  const r = await runOne(`cases:
  - name: Booking
    turns:
      - user: A table for four on the twenty fifth at nine thirty
        intents: [book_table]
    state:
      booking_confirmed: true
      booking_reference: { matches: "^XX-" }
`);
  const xml = junitXml([r]);
  assert.match(
    xml,
    /<testcase name="Booking › record state\.booking_confirmed \(line 7\)" classname="t\.yaml" time="0\.000">\n\s*<system-out>true<\/system-out>/,
  );
  assert.match(
    xml,
    /<testcase name="Booking › record state\.booking_reference \(line 8\)"[^>]*>\n\s*<failure message="[^"]*not a value matching[^"]*" type="RecordCheckFailed">/,
  );
  assert.match(
    xml,
    /<testcase name="Booking › record turn 1 intents \(line 4\)"[^>]*>\n\s*<skipped message="not checked: transcript visibility is off/,
  );
  assert.match(xml, /<testsuite name="t\.yaml" tests="4" failures="2" errors="0" skipped="1"/);
});

test('sixteen or more record looks asked in the same moment go out together, and every one of them is answered', async () => {
  const lister = new ConversationsClient(localContext(local.lp, { transport }));
  const now = Date.now();
  const asks = Array.from({ length: 40 }, (_, i) =>
    listTogether(lister, 'sandbox', { start: now - 60_000 - i, end: now + 1_000 }, false),
  );
  const answered = await Promise.all(asks);
  assert.equal(answered.length, 40);
  assert.ok(answered.every((records) => Array.isArray(records)));
});
