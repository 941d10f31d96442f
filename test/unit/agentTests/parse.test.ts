// Reading conversation test files: the cases as written, and every problem at its place.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { parse as parseYaml } from 'yaml';
import { CASE_KEYS, FILE_KEYS, parseTestFile, SCENARIO_KEYS, TURN_KEYS } from '../../../src/agentTests/parse';
import { hasChecks, isJudged } from '../../../src/agentTests/format';

const GOOD = `agent: ag_support
cases:
  - name: Opening hours
    tags: [sandbox, smoke]
    variant: var_a
    integration_attributes: { caller: vip }
    asr_lang_code: en-GB
    tts_lang_code: en
    repeat: 3
    required_pass_rate: 0.66
    turns:
      - contains: Hello
      - user: What are your opening hours?
        metadata: { channel: web }
        contains: [Monday, Saturday]
        contains_any: [9am, nine]
        not_contains: sorry
        not_contains_all: [closed, forever]
        matches: /open .* from \\d+am/i
        handoff: none
        end: false
        max_latency_ms: 2000
  - name: A person
    turns:
      - user: I want to speak to a person
        handoff: { destination: human-support-queue, reason: The user asked to speak to a person }
`;

test('a test file is read into cases with their options, turns, checks and places', () => {
  const file = parseTestFile('tests/a.yaml', GOOD);
  assert.deepEqual(file.problems, []);
  assert.equal(file.cases.length, 2);
  const [hours, person] = file.cases;
  assert.equal(hours!.name, 'Opening hours');
  assert.equal(hours!.agent, 'ag_support');
  assert.deepEqual(hours!.tags, ['sandbox', 'smoke']);
  assert.equal(hours!.variant, 'var_a');
  assert.deepEqual(hours!.integrationAttributes, { caller: 'vip' });
  assert.equal(hours!.asrLangCode, 'en-GB');
  assert.equal(hours!.repeat, 3);
  assert.equal(hours!.requiredPassRate, 0.66);
  assert.equal(hours!.turns[0]!.user, undefined);
  assert.deepEqual(hours!.turns[0]!.checks.contains, ['Hello']);
  const turn = hours!.turns[1]!;
  assert.deepEqual(turn.metadata, { channel: 'web' });
  assert.deepEqual(turn.checks.notContains, ['sorry']);
  assert.deepEqual(turn.checks.matches, { source: 'open .* from \\d+am', flags: 'i' });
  assert.deepEqual(turn.checks.handoff, { kind: 'none' });
  assert.equal(turn.checks.end, false);
  assert.equal(turn.checks.maxLatencyMs, 2000);
  assert.equal(turn.range.startLine, 12);
  assert.equal(hours!.nameRange.startLine, 2);
  assert.equal(person!.requiredPassRate, 1);
  assert.deepEqual(person!.turns[0]!.checks.handoff, {
    kind: 'to',
    destination: 'human-support-queue',
    reason: 'The user asked to speak to a person',
  });
});

test('an unknown key is reported at its place with the key it was likely meant to be, and its case does not run', () => {
  const file = parseTestFile('t.yaml', 'cases:\n  - name: x\n    turns:\n      - user: hi\n        contians: hello\n');
  assert.equal(file.cases.length, 0);
  assert.equal(file.problems.length, 1);
  const [p] = file.problems;
  assert.match(p!.message, /Unknown key `contians` in a turn: did you mean `contains`\?/);
  assert.deepEqual([p!.range.startLine, p!.range.startCharacter], [4, 8]);
});

test('a case that checks nothing (user messages and references only) is warned of at its name, and is still listed', () => {
  const text = [
    'cases:',
    '  - name: Recorded',
    '    turns:',
    '      - reference: Hello!',
    '      - user: What are your opening hours?',
    '        reference: Open around the clock.',
    '  - name: Checked',
    '    turns:',
    '      - user: What are your opening hours?',
    '        end: false',
  ].join('\n');
  const file = parseTestFile('t.yaml', text);
  assert.deepEqual(
    file.cases.map((c) => c.name),
    ['Recorded', 'Checked'],
  );
  assert.equal(file.problems.length, 1);
  const [p] = file.problems;
  assert.equal(p!.severity, 'warning');
  assert.match(
    p!.message,
    /^The case "Recorded" checks nothing, so it would pass whatever the agent says: add `contains:`/,
  );
  assert.deepEqual([p!.range.startLine, p!.range.startCharacter], [1, 10]);
});

test('a bad regular expression is reported with what is wrong', () => {
  const file = parseTestFile(
    't.yaml',
    'cases:\n  - name: x\n    turns:\n      - user: hi\n        matches: "open (daily"\n',
  );
  assert.equal(file.problems.length, 1);
  assert.match(file.problems[0]!.message, /`matches:` is not a valid regular expression: .*/);
  assert.equal(file.problems[0]!.range.startLine, 4);
});

test('empty turns, a missing user message after the first turn, and a case without turns are reported', () => {
  const text = 'cases:\n  - name: x\n    turns:\n      -\n      - {}\n      - contains: hi\n  - name: y\n';
  const messages = parseTestFile('t.yaml', text).problems.map((p) => `${p.range.startLine}: ${p.message}`);
  assert.equal(messages.length, 4);
  assert.match(messages[0]!, /^3: This turn is empty/);
  assert.match(messages[1]!, /^4: This turn is empty/);
  assert.match(messages[2]!, /^5: Only the first turn may leave out `user:`/);
  assert.match(messages[3]!, /^6: Add `turns:`/);
});

test('a file that is not YAML, or not the format, gets a problem and no cases, never an exception', () => {
  const broken = parseTestFile('t.yaml', 'cases:\n  - name: "x\n    turns: [\n');
  assert.equal(broken.cases.length, 0);
  assert.ok(broken.problems.length > 0);
  assert.match(broken.problems[0]!.message, /^Not valid YAML: /);
  const list = parseTestFile('t.yaml', '- just\n- a list\n');
  assert.match(list.problems[0]!.message, /is a YAML mapping with a list of `cases:`/);
  assert.match(parseTestFile('t.yaml', '').problems[0]!.message, /YAML mapping/);
});

test('wrong values are named: repeat, pass rate, language codes, handoff, duplicate names', () => {
  const text = [
    'cases:',
    '  - name: x',
    '    repeat: 0',
    '    required_pass_rate: 2',
    '    asr_lang_code: "english please"',
    '    turns:',
    '      - user: hi',
    '        handoff: [a]',
    '  - name: x',
    '    turns:',
    '      - user: hi',
  ].join('\n');
  const messages = parseTestFile('t.yaml', text).problems.map((p) => p.message);
  assert.ok(messages.some((m) => /`repeat:` is a whole number of 1 or more/.test(m)));
  assert.ok(messages.some((m) => /`required_pass_rate:` is a number from 0 to 1/.test(m)));
  assert.ok(messages.some((m) => /`asr_lang_code:` is a language code/.test(m)));
  assert.ok(messages.some((m) => /`handoff:` is `none`/.test(m)));
  assert.ok(messages.some((m) => /Another case is named "x"/.test(m)));
});

test('the JSON Schema contributed for the YAML extension knows the same keys as the reader', () => {
  const schema = JSON.parse(readFileSync('media/schemas/conversation-test.schema.json', 'utf8')) as {
    properties: Record<string, unknown>;
    definitions: {
      case: { properties: Record<string, unknown> };
      turn: { properties: Record<string, unknown> };
      scenario: { properties: Record<string, unknown> };
    };
  };
  assert.deepEqual(Object.keys(schema.properties).sort(), [...FILE_KEYS].sort());
  assert.deepEqual(Object.keys(schema.definitions.case.properties).sort(), [...CASE_KEYS].sort());
  assert.deepEqual(Object.keys(schema.definitions.turn.properties).sort(), [...TURN_KEYS].sort());
  assert.deepEqual(Object.keys(schema.definitions.scenario.properties).sort(), [...SCENARIO_KEYS].sort());
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
    contributes: { yamlValidation: Array<{ fileMatch: string[]; url: string }> };
  };
  const entry = manifest.contributes.yamlValidation.find((v) => v.url.endsWith('conversation-test.schema.json'));
  assert.ok(entry?.fileMatch.includes('**/tests/*.yaml'));
});

const JUDGED = `cases:
  - name: Returns
    criteria: [stays polite throughout, never promises a refund before the item is back]
    turns:
      - user: Can I return an item?
        contains: return
        expect: says returns are accepted within 30 days and offers to start one
      - user: I bought it last week
        expect:
          - asks for the order number
          - does not ask for the card number
  - name: Move a booking
    variant: var_a
    asr_lang_code: en-GB
    scenario:
      goal: move the booking to Friday
      persona: a hurried caller who answers in few words
      facts: { name: Ada Lovelace, booking_reference: BK-1042, seats: 2 }
      first_line: I need to change my booking
      max_turns: 6
      success: the agent confirms the booking is moved to Friday
  - name: Defaults
    scenario:
      goal: ask about opening hours
      success: [the agent gives the opening hours, the caller is not handed off]
`;

test('judged criteria are read: `expect:` on a turn and `criteria:` on a case, one sentence or a list, each with its place', () => {
  const file = parseTestFile('t.yaml', JUDGED);
  assert.deepEqual(file.problems, []);
  const [returns, booking, defaults] = file.cases;
  assert.deepEqual(
    returns!.criteria!.map((c) => c.text),
    ['stays polite throughout', 'never promises a refund before the item is back'],
  );
  assert.deepEqual(
    returns!.turns[0]!.expect!.map((c) => c.text),
    ['says returns are accepted within 30 days and offers to start one'],
  );
  assert.deepEqual(returns!.turns[0]!.checks.contains, ['return']);
  assert.deepEqual(
    returns!.turns[1]!.expect!.map((c) => [c.text, c.range.startLine]),
    [
      ['asks for the order number', 9],
      ['does not ask for the card number', 10],
    ],
  );
  assert.equal(returns!.turns[0]!.expect![0]!.range.startLine, 6);
  assert.ok(isJudged(returns!) && hasChecks(returns!));

  assert.deepEqual(booking!.turns, []);
  assert.equal(booking!.variant, 'var_a');
  assert.equal(booking!.asrLangCode, 'en-GB');
  const scenario = booking!.scenario!;
  assert.equal(scenario.goal, 'move the booking to Friday');
  assert.equal(scenario.persona, 'a hurried caller who answers in few words');
  assert.deepEqual(scenario.facts, { name: 'Ada Lovelace', booking_reference: 'BK-1042', seats: '2' });
  assert.equal(scenario.firstLine, 'I need to change my booking');
  assert.equal(scenario.maxTurns, 6);
  assert.deepEqual(
    scenario.success.map((c) => c.text),
    ['the agent confirms the booking is moved to Friday'],
  );
  assert.equal(scenario.range.startLine, 15);
  assert.ok(isJudged(booking!));

  assert.equal(defaults!.scenario!.maxTurns, 8);
  assert.equal(defaults!.scenario!.firstLine, undefined);
  assert.equal(defaults!.scenario!.success.length, 2);
});

test('a case whose only checks are judged is not warned of as checking nothing', () => {
  const file = parseTestFile(
    't.yaml',
    'cases:\n  - name: x\n    turns:\n      - user: hi\n        expect: greets the user\n',
  );
  assert.deepEqual(file.problems, []);
  const withCriteria = parseTestFile(
    't.yaml',
    'cases:\n  - name: x\n    criteria: polite\n    turns:\n      - user: hi\n',
  );
  assert.deepEqual(withCriteria.problems, []);
});

test('an empty criterion, a scenario without goal or success, both turns and scenario, or a turn budget past 50 are file problems at their place', () => {
  const text = [
    'cases:',
    '  - name: empty expect',
    '    turns:',
    '      - user: hi',
    "        expect: ''",
    '  - name: empty in a list',
    '    criteria: [polite, "  "]',
    '    turns:',
    '      - user: hi',
    '        contains: hello',
    '  - name: empty list',
    '    criteria: []',
    '    turns:',
    '      - user: hi',
    '        contains: hello',
    '  - name: no goal',
    '    scenario:',
    '      success: the booking is moved',
    '  - name: no success',
    '    scenario:',
    '      goal: move the booking',
    '  - name: both',
    '    turns:',
    '      - user: hi',
    '        contains: hello',
    '    scenario:',
    '      goal: g',
    '      success: s',
    '  - name: budget',
    '    scenario:',
    '      goal: g',
    '      success: s',
    '      max_turns: 51',
    '      facts: [a, b]',
    '      mood: cross',
    '  - name: neither',
    '    criteria: polite',
  ].join('\n');
  const file = parseTestFile('t.yaml', text);
  assert.deepEqual(file.cases, []);
  const at = (line: number) => file.problems.filter((p) => p.range.startLine === line).map((p) => p.message);
  assert.match(at(4).join(), /An empty criterion judges nothing/);
  assert.match(at(6).join(), /An empty criterion judges nothing/);
  assert.match(at(11).join(), /`criteria:` is a sentence .* the list is empty/);
  assert.match(at(17).join(), /Give the scenario a `goal:`/);
  assert.match(at(20).join(), /Add `success:`/);
  assert.match(at(26).join(), /either `turns:` .* or `scenario:` .* not both/);
  assert.match(at(32).join(), /`max_turns:` is a whole number from 1 to 50/);
  assert.match(at(33).join(), /`facts:` is a mapping of names to texts/);
  assert.match(at(34).join(), /Unknown key `mood` in `scenario:`/);
  assert.match(at(35).join(), /Add `turns:`.*\(or a `scenario:`/);
  assert.ok(file.problems.every((p) => p.severity === 'error'));
});

test('the JSON Schema accepts the judged file the reader accepts, and refuses what the reader reports', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync('media/schemas/conversation-test.schema.json', 'utf8')));
  assert.ok(validate(parseYaml(JUDGED)), JSON.stringify(validate.errors));
  assert.ok(validate(parseYaml(GOOD)), JSON.stringify(validate.errors));
  const refused = (text: string) => !validate(parseYaml(text));
  assert.ok(refused("cases:\n  - name: x\n    turns:\n      - user: hi\n        expect: ''\n"));
  assert.ok(refused('cases:\n  - name: x\n    scenario: { goal: g }\n'));
  assert.ok(refused('cases:\n  - name: x\n    scenario: { success: s }\n'));
  assert.ok(refused('cases:\n  - name: x\n    scenario: { goal: g, success: s, max_turns: 51 }\n'));
  assert.ok(
    refused('cases:\n  - name: x\n    turns: [{ user: hi, contains: a }]\n    scenario: { goal: g, success: s }\n'),
  );
});
