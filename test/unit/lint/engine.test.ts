// The lint engine as a whole: bad input never throws, severities from the lint file, fixes, secrets never printed.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CONFIG, parseLintConfig, withSeverities } from '../../../src/lint/config';
import { LintSession } from '../../../src/lint/engine';
import { decodeFile } from '../../../src/lint/nodeFolder';
import type { Problem } from '../../../src/lint/problem';
import { LineIndex } from '../../../src/lint/text';
import { lintFiles, MANIFEST, topic } from './lintFiles';

/** A text with a problem's fix applied (edits in one file, none overlapping). */
function applyFix(text: string, problem: Problem): string {
  const lines = new LineIndex(text);
  const offsetOf = (p: { line: number; character: number }): number => {
    let offset = 0;
    for (let l = 0; l < p.line; l++) offset = text.indexOf('\n', offset) + 1;
    assert.deepEqual(lines.position(offset + p.character), p);
    return offset + p.character;
  };
  const edits = [...problem.fix!.edits].sort((a, b) => offsetOf(b.range.start) - offsetOf(a.range.start));
  let out = text;
  for (const e of edits) out = out.slice(0, offsetOf(e.range.start)) + e.newText + out.slice(offsetOf(e.range.end));
  return out;
}

test('bad input is a problem of the file, never an exception: binary, invalid UTF-8, huge, broken JSON and YAML', () => {
  const binary = decodeFile('knowledge/logo.md', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1]));
  const latin1 = decodeFile('behavior.md', new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  const problems = new LintSession().lint(
    [
      { path: 'agent.json', text: '{"agentId": ' },
      binary,
      latin1,
      { path: 'knowledge/huge.md', text: 'x'.repeat(2_000_001) },
      { path: 'knowledge/front.md', text: '---\nname: [open\n---\nx' },
      { path: 'realtime/store.json', text: '{"a": "sk-abcdefghijklmnopqrstuvwx" }}' },
    ],
    parseLintConfig('{}').config,
  );
  const unreadable = problems.filter((p) => p.ruleId === 'file-unreadable');
  assert.deepEqual(unreadable.map((p) => p.path).sort(), [
    'agent.json',
    'behavior.md',
    'knowledge/front.md',
    'knowledge/huge.md',
    'knowledge/logo.md',
    'realtime/store.json',
  ]);
  assert.match(unreadable.find((p) => p.path === 'knowledge/logo.md')!.message, /binary/);
  assert.match(unreadable.find((p) => p.path === 'behavior.md')!.message, /UTF-8/);
  assert.match(unreadable.find((p) => p.path === 'knowledge/huge.md')!.message, /too large/);
  assert.match(unreadable.find((p) => p.path === 'knowledge/front.md')!.message, /YAML/);
  const json = unreadable.find((p) => p.path === 'realtime/store.json')!;
  assert.match(json.message, /not valid JSON/);
  assert.equal(json.jsonSyntax, true, 'marked as JSON syntax, which the JSON editor marks too');
  assert.ok(!json.message.includes('sk-'), 'the text of the file is not quoted');
  assert.equal(json.range.start.character, 37, 'the JSON error points where the parser stopped');
});

test("a credential of this workspace is found and never repeated, in the message or the fix's title; the fix leaves no placeholder for a voice agent to read out", () => {
  const key = 'lp-live-4f9a8b7c6d5e';
  const problems = lintFiles({ 'behavior.md': `Call the API with ${key} when asked.\n` }, undefined, [key]);
  const found = problems.filter((p) => p.ruleId === 'secret');
  assert.equal(found.length, 1);
  assert.ok(!JSON.stringify(found).includes(key), 'the value is in the problem');
  assert.equal(applyFix(`Call the API with ${key} when asked.\n`, found[0]!), 'Call the API with when asked.\n');
});

test('the safe fixes: rename a duplicate topic, remove a secret, trim a name, name a topic after its file', () => {
  const b = topic('Hours', 'Closed Sundays');
  const dup = lintFiles({ 'knowledge/a.md': topic('Hours', 'Nine to five'), 'knowledge/b.md': b }).find(
    (p) => p.ruleId === 'topic-duplicate-name',
  )!;
  assert.equal(dup.path, 'knowledge/b.md');
  assert.equal(dup.related[0]!.path, 'knowledge/a.md');
  assert.equal(applyFix(b, dup), topic('"Hours (2)"', 'Closed Sundays'));

  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
  const config = `{\n  "token": "${jwt}"\n}\n`;
  const secret = lintFiles({ 'realtime/store.json': config }).find((p) => p.ruleId === 'secret')!;
  const fixed = applyFix(config, secret);
  assert.deepEqual(JSON.parse(fixed), { token: '' }, 'the file stays valid JSON');

  const long = `{"agentId": "ag_a", "name": "  ${'n'.repeat(140)}", "profile": "p", "branch": {"branchId": "b", "name": "main"}}`;
  const name = lintFiles({ 'agent.json': long }).find((p) => p.ruleId === 'agent-name-length')!;
  assert.equal((JSON.parse(applyFix(long, name)) as { name: string }).name, 'n'.repeat(128));

  const unnamed = '---\nname: ""\n---\n\nHours\n';
  const empty = lintFiles({ 'knowledge/opening-hours.md': unnamed }).find((p) => p.ruleId === 'topic-name-empty')!;
  assert.equal(applyFix(unnamed, empty), '---\nname: "opening-hours"\n---\n\nHours\n');
});

test('the lint file sets severities and turns rules off; a setting applies on top; unknown rules are said, not thrown', () => {
  const files = { 'behavior.md': 'Never discuss prices.\nSay: "Hello"\n' };
  const { config, problems } = parseLintConfig(
    '{"rules": {"behavior-prohibition-only": "error", "behavior-scripted-line": "off", "no-such-rule": "error", "secret": "loud"}}',
  );
  assert.deepEqual(problems, [
    '.agent-workbench/lint.json "rules": "no-such-rule" is not a rule',
    '.agent-workbench/lint.json "rules": "secret" must be one of error, warning, info, off',
  ]);
  const found = lintFiles(files, config).filter((p) => p.path === 'behavior.md');
  assert.deepEqual(
    found.map((p) => `${p.ruleId} ${p.severity}`),
    ['behavior-prohibition-only error'],
  );
  const setting = lintFiles(files, withSeverities(config, { 'behavior-prohibition-only': 'off' }));
  assert.deepEqual(
    setting.filter((p) => p.path === 'behavior.md'),
    [],
  );
  assert.match(parseLintConfig('{rules').problems[0]!, /not valid JSON/);
  assert.equal(parseLintConfig('{"options": {"behaviorBudget": 10}}').config.options.behaviorBudget, 10);
});

test('checking again after an edit re-reads only what changed, and a fixed problem goes away', () => {
  const session = new LintSession();
  const config = parseLintConfig('{}').config;
  const files = [
    { path: 'agent.json', text: MANIFEST },
    { path: 'knowledge/a.md', text: topic('Hours', 'Nine to five') },
    { path: 'knowledge/b.md', text: topic('Hours', 'Closed Sundays') },
  ];
  assert.equal(session.lint(files, config).filter((p) => p.ruleId === 'topic-duplicate-name').length, 1);
  files[2] = { path: 'knowledge/b.md', text: topic('Sundays', 'Closed Sundays') };
  assert.deepEqual(session.lint(files, config), []);
});

test('file-unreadable: JSON that does not parse is said in words, with its line and column, never in the parser text', () => {
  const problems = lintFiles({
    'realtime/store.json': '{\n  "open": "09:00"\n  "close": "17:00"\n}\n',
    'realtime/hours.json': '{"open": ',
  }).filter((p) => p.ruleId === 'file-unreadable');
  const store = problems.find((p) => p.path === 'realtime/store.json')!;
  assert.equal(
    store.message,
    'realtime/store.json cannot be checked: not valid JSON at line 3, column 3: a comma is expected between two entries',
  );
  assert.deepEqual(store.range.start, { line: 2, character: 2 });
  const hours = problems.find((p) => p.path === 'realtime/hours.json')!;
  assert.match(hours.message, /not valid JSON at line 1, column 10: a value is expected here/);
  for (const p of problems) assert.doesNotMatch(p.message, /Unexpected|position \d|after property value/);
});

test('secret: the message says a key the agent uses belongs in the platform secrets, not in a connection profile', () => {
  const [found] = lintFiles({
    'behavior.md': 'Use the key sk-proj-abcdefghijklmnopqrstuvwxyz0123 when asked.\n',
  }).filter((p) => p.ruleId === 'secret');
  assert.match(found!.message, /belongs in the platform's secrets/);
  assert.match(found!.message, /not in the agent's files nor in a connection profile/);
  assert.doesNotMatch(found!.message, /keep it in the profile/);
  assert.equal(found!.fix!.title, 'Remove the API key');
  assert.equal(
    applyFix('Use the key sk-proj-abcdefghijklmnopqrstuvwxyz0123 when asked.\n', found!),
    'Use the key when asked.\n',
  );
});

test('personal-data: a line marked as meant to be public is not reported, and the quick fix marks the line', () => {
  const text = topic('Contact', 'Call us on +1 415 555 0132 or write to hello@bellatavola.it.\r\nAsk for Jane.');
  const found = lintFiles({ 'knowledge/contact.md': text }).filter((p) => p.ruleId === 'personal-data');
  assert.equal(found.length, 2, 'the phone number and the e-mail address');
  assert.equal(found[0]!.fix!.title, 'Mark this line as meant to be public');
  assert.match(found[0]!.message, /mark the line as meant to be public \(<!-- agent-workbench: public -->\)/);
  const fixed = applyFix(text, found[0]!);
  assert.equal(
    fixed,
    topic(
      'Contact',
      'Call us on +1 415 555 0132 or write to hello@bellatavola.it. <!-- agent-workbench: public -->\r\nAsk for Jane.',
    ),
  );
  assert.deepEqual(
    lintFiles({ 'knowledge/contact.md': fixed }).filter((p) => p.ruleId === 'personal-data'),
    [],
  );
  // The mark covers its own line only.
  const other = topic('Staff', 'Reception: +1 415 555 0132 <!-- agent-workbench: public -->\nJane: +1 415 555 0199');
  const left = lintFiles({ 'knowledge/staff.md': other }).filter((p) => p.ruleId === 'personal-data');
  assert.deepEqual(
    left.map((p) => p.range.start.line),
    [5],
  );
});

test('personal-data: the lint file sets a rule per file, by path or pattern, the last that fits winning', () => {
  const files = {
    'knowledge/contact.md': topic('Contact', 'Call us on +1 415 555 0132.'),
    'knowledge/staff.md': topic('Staff', 'Jane: +1 415 555 0199.'),
    'knowledge/public/press.md': topic('Press', 'press@bellatavola.it'),
  };
  const { config, problems } = parseLintConfig(
    JSON.stringify({
      rules: { 'personal-data': 'error' },
      overrides: [
        { files: ['knowledge/contact.md', 'knowledge/**/press.md'], rules: { 'personal-data': 'off' } },
        { files: 'knowledge/s*.md', rules: { 'personal-data': 'info' } },
      ],
    }),
  );
  assert.deepEqual(problems, []);
  const found = lintFiles(files, config).filter((p) => p.ruleId === 'personal-data');
  assert.deepEqual(
    found.map((p) => `${p.path} ${p.severity}`),
    ['knowledge/staff.md info'],
  );
  assert.deepEqual(
    parseLintConfig('{"overrides": [{"rules": {"personal-data": "off"}}, {"files": ["x"], "rules": {"nope": "off"}}]}')
      .problems,
    [
      '.agent-workbench/lint.json "overrides"[0] "files" must name the files it applies to, relative to the agent folder (such as "knowledge/contact.md")',
      '.agent-workbench/lint.json "overrides"[1] "rules": "nope" is not a rule',
    ],
  );
  assert.match(parseLintConfig('{"overrides": {}}').problems[0]!, /must be a list/);
});

test('a session checking again after edits finds the same near-duplicates as a fresh check, whatever was edited', () => {
  // Few words, so topics share many shingles; a footer shared by more and more topics crosses the count above
  // which a shingle tells nothing apart (20 topics), and back.
  const words = 'store order return refund parcel receipt'.split(' ');
  let x = 7;
  const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 16;
  const prose = (n: number): string => Array.from({ length: n }, () => words[next() % words.length]).join(' ');
  const footer = 'call us on the number printed on your receipt for anything else';
  const files: Record<string, string> = { 'agent.json': MANIFEST };
  for (let i = 0; i < 40; i++) files[`knowledge/t${i}.md`] = topic(`T ${i}`, prose(30 + (next() % 40)));
  const session = new LintSession();
  const nearDuplicates = (problems: Problem[]) =>
    problems.filter((p) => p.ruleId === 'topic-near-duplicate').map((p) => `${p.path} ${p.message}`);
  const asInputs = () => Object.entries(files).map(([path, text]) => ({ path, text }));
  let found = 0;
  const footers: number[] = [];
  for (let step = 0; step < 140; step++) {
    // Even steps: the footer goes into topic after topic (up to 35 of them), then out of them again.
    const i = step % 2 === 0 ? Math.floor(step / 2) % 35 : 35 + (next() % 10);
    const path = `knowledge/t${i}.md`;
    if (step % 2 === 0) files[path] = topic(`T ${i}`, step < 70 ? `${prose(20)} ${footer}` : prose(32));
    else if (step % 11 === 0) Reflect.deleteProperty(files, path);
    else if (step % 7 === 0) files[path] = topic(`T ${i}`, files[`knowledge/t${(i + 1) % 40}.md`] ?? prose(25));
    else files[path] = topic(`T ${i}`, prose(10 + (next() % 60)));
    const fresh = nearDuplicates(new LintSession().lint(asInputs(), DEFAULT_CONFIG));
    assert.deepEqual(nearDuplicates(session.lint(asInputs(), DEFAULT_CONFIG)), fresh, `after step ${step}`);
    found += fresh.length;
    footers.push(Object.values(files).filter((t) => t.includes(footer)).length);
  }
  assert.ok(found > 0, 'some topics were near-duplicates along the way');
  assert.ok(Math.max(...footers) > 21 && footers.at(-1)! < 20, `topics with the footer: ${footers.join(', ')}`);
});
