// Labels beside the tests: written atomically per criterion identity, agreement and Cohen's kappa (checked
// against tabulated values), and when a criterion turns advisory.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  addLabel,
  agreementOf,
  cohensKappa,
  criterionAgreement,
  criterionIdentity,
  isAdvisory,
  type Label,
  labelsPath,
  readLabels,
} from '../../../../src/agentTests/model/labels';
import { nodeTextFiles } from '../../../../src/agentTests/model/textFiles';

function folder(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'aw-labels-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const pairs = (n: number, a: boolean, b: boolean) => Array.from({ length: n }, () => [a, b] as const);

test("Cohen's kappa matches tabulated examples", () => {
  // Wikipedia's "Cohen's kappa" examples: 20/5/10/15 gives 0.4; 45/15/25/15 gives 0.1304.
  const first = [
    ...pairs(20, true, true),
    ...pairs(5, true, false),
    ...pairs(10, false, true),
    ...pairs(15, false, false),
  ];
  assert.ok(Math.abs(cohensKappa(first) - 0.4) < 1e-9);
  const second = [
    ...pairs(45, true, true),
    ...pairs(15, true, false),
    ...pairs(25, false, true),
    ...pairs(15, false, false),
  ];
  assert.ok(Math.abs(cohensKappa(second) - 0.1304) < 1e-4);
  assert.equal(cohensKappa(pairs(20, true, true)), 1);
});

test('agreement counts right labels; kappa comes at 20 labels, from the judge against the person', () => {
  const label = (verdict: Label['verdict'], right: boolean): Label => ({
    verdict,
    label: right ? 'right' : 'wrong',
    conversationId: 'c',
    time: 't',
  });
  const few = [label('pass', true), label('pass', false), label('fail', true)];
  assert.deepEqual(agreementOf(few), { labels: 3, agreement: 2 / 3 });
  // The first tabulated example as labels: judge pass & person pass = right pass; judge pass & person no = wrong
  // pass; judge no & person pass = wrong fail; both no = right fail.
  const many = [
    ...Array.from({ length: 20 }, () => label('pass', true)),
    ...Array.from({ length: 5 }, () => label('pass', false)),
    ...Array.from({ length: 10 }, () => label('fail', false)),
    ...Array.from({ length: 15 }, () => label('fail', true)),
  ];
  const a = agreementOf(many);
  assert.equal(a.labels, 50);
  assert.equal(a.agreement, 0.7);
  assert.ok(a.kappa !== undefined && Math.abs(a.kappa - 0.4) < 1e-9);
  assert.equal(agreementOf(many.slice(0, 19)).kappa, undefined);
});

test('labels are written beside the test file per criterion identity, stable and sorted', async (t) => {
  const dir = folder(t);
  const testFile = join(dir, 'tests', 'returns.yaml');
  const criterion = 'says returns are accepted within 30 days';
  await addLabel(nodeTextFiles, testFile, {
    caseName: 'return window',
    criterion,
    verdict: 'pass',
    label: 'wrong',
    conversationId: 'conv-1',
    time: '2026-12-02T10:00:00.000Z',
  });
  await addLabel(nodeTextFiles, testFile, {
    caseName: 'a greeting',
    criterion: 'greets',
    verdict: 'pass',
    label: 'right',
    conversationId: 'conv-2',
    time: '2026-12-02T10:01:00.000Z',
  });
  assert.equal(labelsPath(testFile), join(dir, 'tests', 'returns.labels.json'));
  assert.deepEqual(readdirSync(join(dir, 'tests')), ['returns.labels.json']);
  const text = readFileSync(labelsPath(testFile), 'utf8');
  const json = JSON.parse(text) as {
    version: number;
    criteria: Record<string, { case: string; criterion: string; labels: Label[] }>;
  };
  assert.equal(json.version, 1);
  assert.deepEqual(
    Object.keys(json.criteria),
    [criterionIdentity('a greeting', 'greets'), criterionIdentity('return window', criterion)].sort(),
  );
  assert.deepEqual(json.criteria[criterionIdentity('return window', criterion)], {
    case: 'return window',
    criterion,
    labels: [{ verdict: 'pass', label: 'wrong', conversationId: 'conv-1', time: '2026-12-02T10:00:00.000Z' }],
  });
  const read = await readLabels(nodeTextFiles, testFile);
  assert.deepEqual(criterionAgreement(read, 'return window', criterion), { labels: 1, agreement: 0 });
  // Reworded, it is another criterion with no labels.
  assert.deepEqual(criterionAgreement(read, 'return window', `${criterion} and offers one`), {
    labels: 0,
    agreement: 0,
  });
});

test('labels given at once are all kept, and relabelling a verdict replaces the earlier word', async (t) => {
  const dir = folder(t);
  const testFile = join(dir, 'c.yaml');
  const base = { caseName: 'case', criterion: 'greets', verdict: 'pass' as const };
  await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      addLabel(nodeTextFiles, testFile, { ...base, label: 'right', conversationId: `conv-${i}` }),
    ),
  );
  await addLabel(nodeTextFiles, testFile, { ...base, label: 'wrong', conversationId: 'conv-3' });
  const agreement = criterionAgreement(await readLabels(nodeTextFiles, testFile), 'case', 'greets');
  assert.deepEqual(agreement, { labels: 8, agreement: 7 / 8 });
});

test('a criterion is advisory when its judge agrees less often than the threshold, never without labels', () => {
  assert.equal(isAdvisory({ labels: 1, agreement: 0 }, 0.8), true);
  assert.equal(isAdvisory({ labels: 10, agreement: 0.9 }, 0.8), false);
  assert.equal(isAdvisory({ labels: 0, agreement: 0 }, 0.8), false);
  assert.equal(isAdvisory({ labels: 3, agreement: 0.5 }, 0.8, 5), false);
});

test('an unreadable labels file says which and what to do', async (t) => {
  const dir = folder(t);
  const testFile = join(dir, 'c.yaml');
  await nodeTextFiles.write(labelsPath(testFile), '{"version": 1, "criteria": {"x": {}}}');
  await assert.rejects(
    readLabels(nodeTextFiles, testFile),
    /labels file .*c\.labels\.json cannot be read .*restore it from git/,
  );
});
