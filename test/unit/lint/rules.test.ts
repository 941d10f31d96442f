// Every rule of the lint engine: a folder that breaks it and one that does not, and its page in docs/rules/.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { RULES } from '../../../src/lint/rules';
import { lintFiles, topic } from './lintFiles';

const OPENING =
  'The store opens at nine in the morning and closes at five in the evening on every weekday except public holidays.';

interface Case {
  breaks: Record<string, string>;
  passes: Record<string, string>;
  credentials?: string[];
}

const manifest = (name: string): string =>
  JSON.stringify({ agentId: 'ag_a', name, profile: 'local', branch: { branchId: 'br_a', name: 'main' } });

const CASES: Record<string, Case> = {
  'agent-json-invalid': {
    breaks: { 'agent.json': '{"agentId": "ag_a", "name": "A"}' },
    passes: { 'agent.json': manifest('A') },
  },
  'agent-name-length': {
    breaks: { 'agent.json': manifest('x'.repeat(129)) },
    passes: { 'agent.json': manifest('x'.repeat(128)) },
  },
  'file-unreadable': {
    breaks: { 'realtime/store.json': '{"open": ' },
    passes: { 'realtime/store.json': '{"open": "09:00"}' },
  },
  'file-ignored-by-push': {
    breaks: { 'knowledge/faq.txt': 'Hours' },
    passes: { 'knowledge/faq.md': topic('FAQ', 'Hours') },
  },
  'file-name-refused': {
    breaks: { 'realtime/store settings.json': '{}' },
    passes: { 'realtime/store-settings.json': '{}' },
  },
  'content-size': {
    breaks: { 'knowledge/big.md': topic('Big', 'x'.repeat(100_001)) },
    passes: { 'knowledge/big.md': topic('Big', 'x'.repeat(100_000)) },
  },
  'topic-name-empty': {
    breaks: { 'knowledge/faq.md': '---\nname: ""\n---\n\nHours\n' },
    passes: { 'knowledge/faq.md': topic('FAQ', 'Hours') },
  },
  'topic-content-empty': {
    breaks: { 'knowledge/faq.md': topic('FAQ', '  ') },
    passes: { 'knowledge/faq.md': topic('FAQ', 'Hours') },
  },
  'topic-duplicate-name': {
    breaks: { 'knowledge/a.md': topic('Hours', 'Nine to five'), 'knowledge/b.md': topic('hours', 'Closed Sundays') },
    passes: { 'knowledge/a.md': topic('Hours', 'Nine to five'), 'knowledge/b.md': topic('Sundays', 'Closed Sundays') },
  },
  'topic-near-duplicate': {
    breaks: {
      'knowledge/a.md': topic('Hours', OPENING),
      'knowledge/b.md': topic('Opening', `${OPENING} Thanks.`),
    },
    passes: {
      'knowledge/a.md': topic('Hours', OPENING),
      'knowledge/b.md': topic('Returns', 'Items can be returned within thirty days with the receipt at any store.'),
    },
  },
  secret: {
    breaks: { 'behavior.md': 'Use the key sk-proj-abcdefghijklmnopqrstuvwxyz0123 when asked.\n' },
    passes: { 'behavior.md': 'Look the order up with the lookup tool when asked.\n' },
  },
  'personal-data': {
    breaks: { 'knowledge/contact.md': topic('Contact', 'Ask Jane on +44 20 7946 0958.') },
    passes: { 'knowledge/contact.md': topic('Contact', 'Use the contact form on the website.') },
  },
  'behavior-length-budget': {
    breaks: { 'behavior.md': 'Be brief. '.repeat(2_001) },
    passes: { 'behavior.md': 'Be brief. '.repeat(100) },
  },
  'behavior-prohibition-only': {
    breaks: { 'behavior.md': '- Never discuss prices.\n' },
    passes: { 'behavior.md': '- Never discuss prices; offer to send the price list instead.\n' },
  },
  'behavior-scripted-line': {
    breaks: { 'behavior.md': 'Say: "Thank you for calling Acme, how can I help?"\n' },
    passes: { 'behavior.md': 'Greet the caller warmly and ask how you can help.\n' },
  },
  'realtime-variables': {
    breaks: { 'realtime/store.json': '{\n  "holidayMode": null\n}\n' },
    passes: { 'realtime/store.json': '{\n  "holidayMode": false\n}\n' },
  },
};

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
