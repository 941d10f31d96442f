// Reading record checks (state:, intents:, entities:, ood:, latency, counts, metrics:) and their problems.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import Ajv from 'ajv';
import { parse as parseYaml } from 'yaml';
import { hasChecks } from '../../../src/agentTests/format';
import { parseTestFile } from '../../../src/agentTests/parse';
import { percentile } from '../../../src/agentTests/records/latency';

const GOOD = `cases:
  - name: Booking is made
    repeat: 20
    turns:
      - user: A table for four on the twenty fifth at nine thirty
        intents: [book_table]
        entities: { party_size: 4 }
        ood: false
        record_latency_ms: 1500
        p95_latency_ms: 2000
      - user: goodbye
        intents: goodbye
    state:
      booking_confirmed: true
      booking_reference: { matches: "^BT-" }
      caller_name: { exists: true }
      card_blocked: { absent: true }
      party_size: 4
    handoff_reason: The user asked to speak to a person
    handoff_destination: human-support-queue
    num_ood: 0
    num_silences: 0
    metrics: [CALL_DURATION, HANDOFF_TO]
  - name: Metrics with values
    turns:
      - user: hi
    metrics: { CALL_COMPLETED: "true" }
`;

test('record checks are read from a case and its turns, and a case with only record checks checks something', () => {
  const file = parseTestFile('t.yaml', GOOD);
  assert.deepEqual(file.problems, []);
  const [booking, metrics] = file.cases;
  assert.ok(booking && metrics);
  assert.deepEqual(booking.turns[0]?.record, {
    intents: ['book_table'],
    entities: { party_size: '4' },
    ood: false,
    recordLatencyMs: 1500,
  });
  assert.equal(booking.turns[0]?.p95LatencyMs, 2000);
  assert.deepEqual(booking.turns[1]?.record, { intents: ['goodbye'] });
  assert.deepEqual(
    booking.record?.state?.map((s) => [s.key, s.expect, s.range.startLine]),
    [
      ['booking_confirmed', { kind: 'equals', value: true }, 13],
      ['booking_reference', { kind: 'matches', source: '^BT-', flags: '' }, 14],
      ['caller_name', { kind: 'exists' }, 15],
      ['card_blocked', { kind: 'absent' }, 16],
      ['party_size', { kind: 'equals', value: 4 }, 17],
    ],
  );
  assert.equal(booking.record?.handoffReason, 'The user asked to speak to a person');
  assert.equal(booking.record?.handoffDestination, 'human-support-queue');
  assert.equal(booking.record?.numOod, 0);
  assert.equal(booking.record?.numSilences, 0);
  assert.deepEqual(
    booking.record?.metrics?.map((m) => [m.key, m.value]),
    [
      ['CALL_DURATION', undefined],
      ['HANDOFF_TO', undefined],
    ],
  );
  assert.deepEqual(
    metrics.record?.metrics?.map((m) => [m.key, m.value]),
    [['CALL_COMPLETED', 'true']],
  );
  // No answer check at all, only the record's: the case still checks something and runs.
  assert.ok(hasChecks(metrics));
});

test('bad record checks are problems that say what to write, at their place; a misspelt key suggests the closest', () => {
  const text = [
    'cases:', // 0
    '  - name: x', // 1
    '    turns:', // 2
    '      - user: hi', // 3
    '        intent: [book_table]', // 4
    '        entities: [party_size]', // 5
    '        ood: maybe', // 6
    '        record_latency_ms: -1', // 7
    '    state:', // 8
    '      a: { matchs: "x" }', // 9
    '      b: { matches: "(" }', // 10
    '      c: { exists: false }', // 11
    '      d:', // 12
    '      e: { exists: true, absent: true }', // 13
    '    num_ood: 1.5', // 14
    '    metrics: 3', // 15
    '    stat: {}', // 16
  ].join('\n');
  const file = parseTestFile('t.yaml', text);
  assert.deepEqual(file.cases, []);
  const at = (line: number) =>
    file.problems
      .filter((p) => p.range.startLine === line)
      .map((p) => p.message)
      .join(' | ');
  assert.match(at(4), /Unknown key `intent` in a turn: did you mean `intents`\?/);
  assert.match(at(5), /`entities:` is a mapping of names to texts/);
  assert.match(at(6), /`ood:` is true or false/);
  assert.match(at(7), /`record_latency_ms:` is a number/);
  assert.match(at(9), /Unknown key `matchs` in `state\.a:`: did you mean `matches`\?/);
  assert.match(at(10), /`state\.b:` `matches:` is not a valid regular expression/);
  assert.match(at(11), /`exists: false` is `absent: true`: write that/);
  assert.match(
    at(12),
    /`state\.d:` has no value: write the value it must have, or `\{ exists: true \}` or `\{ absent: true \}`/,
  );
  assert.match(at(13), /`state\.e:` takes one condition/);
  assert.match(at(14), /`num_ood:` is a whole number/);
  assert.match(at(15), /`metrics:` is a list of metric keys that must be present/);
  assert.match(at(16), /Unknown key `stat` in a case: did you mean `state`\?/);
});

test('a p95 over a single run is a warning that says to add repeat:', () => {
  const file = parseTestFile(
    't.yaml',
    'cases:\n  - name: x\n    turns:\n      - user: hi\n        p95_latency_ms: 500\n',
  );
  assert.equal(file.cases.length, 1);
  assert.deepEqual(
    file.problems.map((p) => [p.severity, p.range.startLine]),
    [['warning', 4]],
  );
  assert.match(file.problems[0]?.message ?? '', /this case runs once: give it `repeat:`/);
});

test('the JSON Schema takes the record checks the reader takes, and refuses a state condition it does not know', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync('media/schemas/conversation-test.schema.json', 'utf8')));
  assert.ok(validate(parseYaml(GOOD)), JSON.stringify(validate.errors));
  const refused = (state: string) =>
    !validate(parseYaml(`cases:\n  - name: x\n    turns: [{ user: hi }]\n    state: ${state}\n`));
  assert.ok(refused('{ a: { matchs: x } }'));
  assert.ok(refused('{ a: { exists: false } }'));
  assert.ok(refused('{ a: { exists: true, absent: true } }'));
  assert.ok(!refused('{ a: { absent: true }, b: 4 }'));
});

test('percentiles are nearest-rank: p95 of 20 runs is the 19th slowest', () => {
  const sorted = Array.from({ length: 20 }, (_, i) => (i + 1) * 10);
  assert.equal(percentile(sorted, 0.95), 190);
  assert.equal(percentile(sorted, 0.5), 100);
  assert.equal(percentile([7], 0.95), 7);
});
