// Every rule of the lint engine: a folder that breaks it and one that does not, and its page in docs/rules/.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { RULES } from '../../../src/lint/rules';
import { LINT_CASES as CASES } from '../../support/lintCases';
import { lintFiles } from './lintFiles';

test('every rule has a case here and a page under docs/rules/ that says what, why, how to fix, with an example', () => {
  assert.deepEqual(Object.keys(CASES).sort(), RULES.map((r) => r.id).sort());
  for (const rule of RULES) {
    const page = `docs/rules/${rule.id}.md`;
    assert.ok(existsSync(page), `${page} is missing`);
    const text = readFileSync(page, 'utf8');
    assert.match(text, new RegExp(`^# ${rule.id}\\n`), page);
    assert.match(text, new RegExp(`Default severity: ${rule.severity}`), page);
    for (const part of ['## Why', '## How to fix', '## Example']) assert.ok(text.includes(part), `${page}: ${part}`);
  }
});

for (const rule of RULES) {
  const c = CASES[rule.id];
  test(`${rule.id}: a file that breaks it is reported, one that does not is not`, () => {
    assert.ok(c, `no case for ${rule.id}`);
    const broken = lintFiles(c.breaks).filter((p) => p.ruleId === rule.id);
    assert.ok(broken.length > 0, `${rule.id} found nothing in ${JSON.stringify(Object.keys(c.breaks))}`);
    assert.equal(broken[0]!.severity, rule.severity);
    const clean = lintFiles(c.passes).filter((p) => p.ruleId === rule.id);
    assert.deepEqual(clean, [], clean.map((p) => p.message).join('\n'));
  });
}
