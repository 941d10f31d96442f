// `perturb:` in a test file: read on a case and a turn, and every wrong value a problem that says what to write.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import Ajv from 'ajv';
import { parse as parseYaml } from 'yaml';
import { parseTestFile } from '../../../../src/agentTests/parse';
import { allAt } from '../../../../src/agentTests/perturb/kinds';

const file = (body: string) => parseTestFile('t.yaml', `cases:\n${body}`);

const GOOD = `  - name: Booking
    perturb: { rate: 0.3, seed: 7 }
    turns:
      - user: A table for 4 on the 25th
        contains: table
      - user: Thanks
        perturb: false
        contains: welcome
      - user: At 9:30
        perturb: { seed: 9 }
        contains: booked
  - name: Numbers only
    perturb: { seed: 2, kinds: { numbers: 1, fillers: 0.2 } }
    turns:
      - user: For 4
        contains: four
  - name: A list of kinds at a rate
    asr_lang_code: en-GB
    perturb: { rate: 0.5, kinds: [numbers, truncation] }
    turns:
      - user: For 4
        contains: four
        perturb: 0.1
`;

test('perturb: is read on a case and a turn: a rate for all, a seed, kinds by rate or by list, false on a turn', () => {
  const parsed = file(GOOD);
  assert.deepEqual(parsed.problems, []);
  const [booking, numbers, listed] = parsed.cases;
  assert.deepEqual(booking?.perturb, { rates: allAt(0.3), seed: 7 });
  assert.deepEqual(
    booking?.turns.map((t) => t.perturb),
    [undefined, false, { seed: 9 }],
  );
  assert.deepEqual(numbers?.perturb, {
    rates: { numbers: 1, fillers: 0.2, punctuation: 0, mishearings: 0, truncation: 0 },
    seed: 2,
  });
  assert.deepEqual(listed?.perturb?.rates, {
    numbers: 0.5,
    fillers: 0,
    punctuation: 0,
    mishearings: 0,
    truncation: 0.5,
  });
  assert.deepEqual(listed?.turns[0]?.perturb, { rates: allAt(0.1) });
});

test('a rate outside 0..1, an unknown kind or key, a bad seed are file problems naming the fix and the closest name', () => {
  const parsed = file(`  - name: Wrong
    perturb: { rate: 1.5, seed: -1, kinds: { filler: 0.2, numbers: 2 }, sead: 3 }
    turns:
      - user: Hi
        contains: Hello
        perturb: { kinds: [mishearing] }
  - name: Nothing
    perturb: {}
    turns:
      - user: Hi
        contains: Hello
  - name: Seed only
    turns:
      - user: Hi
        contains: Hello
        perturb: { seed: 4 }
  - name: Not a mapping
    perturb: lots
    turns:
      - user: Hi
        contains: Hello
`);
  const messages = parsed.problems.map((p) => p.message);
  const has = (pattern: RegExp) =>
    assert.ok(
      messages.some((m) => pattern.test(m)),
      `${pattern}\n${messages.join('\n')}`,
    );
  has(/`rate:` of `perturb:` is a number from 0 to 1.*: got 1\.5\./);
  has(/`seed:` of `perturb:` is a whole number from 0 to 4294967295/);
  has(
    /Unknown kind `filler` in `perturb: kinds:`: did you mean `fillers`\? Kinds: numbers, fillers, punctuation, mishearings, truncation\./,
  );
  has(/`numbers:` of `perturb: kinds:` is a number from 0 to 1.*: got 2\./);
  has(/Unknown key `sead` in `perturb:`: did you mean `seed`\?/);
  has(/A list of `kinds:` takes the `rate:` of `perturb:`/);
  has(/`perturb:` changes nothing: give a `rate:`/);
  has(/only sets a seed, and the case has no `perturb:`/);
  has(/`perturb:` is a mapping such as \{ rate: 0\.3, seed: 7 \}/);
  assert.ok(parsed.problems.every((p) => p.severity === 'error'));
  // A case with a problem of its own does not run.
  assert.deepEqual(parsed.cases, []);
  // Each problem is placed at what is wrong: the rate 1.5 on the third line (2 from 0).
  const rate = parsed.problems.find((p) => p.message.includes('got 1.5'));
  assert.equal(rate?.range.startLine, 2);
});

test('a language without word lists is a warning that says which kinds still apply; the case still runs', () => {
  const parsed = file(`  - name: French
    asr_lang_code: fr-FR
    perturb: { rate: 0.3 }
    turns:
      - user: Une table pour 4
        contains: table
  - name: French, punctuation only
    asr_lang_code: fr
    perturb: { kinds: { punctuation: 1 } }
    turns:
      - user: Une table
        contains: table
`);
  assert.deepEqual(
    parsed.problems.map((p) => [p.severity, p.range.startLine, p.message]),
    [
      [
        'warning',
        2,
        '`perturb:` has no word lists for fr-FR (it has en, es): numbers, fillers, mishearings are not applied, only punctuation and truncation.',
      ],
    ],
  );
  assert.equal(parsed.cases.length, 2);
});

test('perturb: on the greeting is a warning: the greeting sends no words', () => {
  const parsed = file(`  - name: Greeting
    turns:
      - contains: Hello
        perturb: 0.5
      - user: Hi
        contains: Hello
`);
  assert.deepEqual(
    parsed.problems.map((p) => [p.severity, p.range.startLine, p.message]),
    [
      [
        'warning',
        4,
        'The greeting sends no words, so `perturb:` changes nothing here: move it to a turn with `user:`.',
      ],
    ],
  );
});

test('the JSON Schema accepts the perturb: the reader accepts and refuses a rate past 1 or an unknown kind', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync('media/schemas/conversation-test.schema.json', 'utf8')));
  assert.ok(validate(parseYaml(`cases:\n${GOOD}`)), JSON.stringify(validate.errors));
  for (const wrong of [
    '{ rate: 1.5 }',
    '{ kinds: { filler: 0.2 } }',
    '{ kinds: [mishearing], rate: 0.2 }',
    '{ sead: 1 }',
  ])
    assert.equal(
      validate(
        parseYaml(
          `cases:\n  - name: x\n    perturb: ${wrong}\n    turns:\n      - user: Hi\n        contains: Hello\n`,
        ),
      ),
      false,
      wrong,
    );
});
