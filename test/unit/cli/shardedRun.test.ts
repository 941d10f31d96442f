// `test --shard I/N` and `merge-reports`: a suite of 100 cases run as 4 shards and merged gives the same cases,
// results and counts as one run of the whole suite.
import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CaseRecord, ReportRecord, SummaryRecord } from '../../../src/cli/reporters/records';
import { runCli } from '../../support/commandLine';

function cli(args: string[], cwd: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.GITHUB_STEP_SUMMARY;
  return runCli(args, { cwd, env });
}

/** 100 cases in 4 files of the Support Desk agent: every seventh fails, the others pass. */
function suiteOf100(): string {
  const root = mkdtempSync(join(tmpdir(), 'aw-shards-'));
  const agent = join(root, 'support-desk');
  mkdirSync(join(agent, 'tests'), { recursive: true });
  cpSync('test/fixtures/conversationTests/support-desk/agent.json', join(agent, 'agent.json'));
  for (let file = 0; file < 4; file++) {
    const cases = Array.from({ length: 25 }, (_, i) => {
      const n = file * 25 + i;
      const wanted = n % 7 === 0 ? 'closed on Mondays' : 'Monday';
      return `  - name: Opening hours ${n}\n    turns:\n      - user: What are your opening hours?\n        contains: ${wanted}\n`;
    });
    writeFileSync(join(agent, 'tests', `hours-${file}.yaml`), `cases:\n${cases.join('')}`);
  }
  return root;
}

const records = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ReportRecord);
const casesOf = (list: ReportRecord[]) => list.filter((r): r is CaseRecord => r.type === 'case');
const summaryOf = (list: ReportRecord[]) => list.find((r): r is SummaryRecord => r.type === 'summary');
/** What must be equal between one run and the merged shards: not the times or conversation ids. */
const outcome = (c: CaseRecord) => ({ id: c.id, outcome: c.outcome, failures: c.failures, passRate: c.passRate });
const counts = (s: SummaryRecord | undefined) =>
  s && { total: s.total, passed: s.passed, failed: s.failed, skipped: s.skipped, problems: s.problems, ok: s.ok };

test('100 cases as 4 shards, merged, are the cases, results and counts of one run', { timeout: 180_000 }, async () => {
  const root = suiteOf100();
  const whole = await cli(['test', '--local', '--reporter', 'json:whole.jsonl', '--concurrency', '8'], root);
  assert.equal(whole.code, 1, whole.stderr);
  const one = records(readFileSync(join(root, 'whole.jsonl'), 'utf8'));
  assert.equal(casesOf(one).length, 100);
  assert.deepEqual(counts(summaryOf(one)), { total: 100, passed: 85, failed: 15, skipped: 0, problems: 0, ok: false });

  const shards = await Promise.all(
    [1, 2, 3, 4].map((i) =>
      cli(['test', '--local', '--shard', `${i}/4`, '--reporter', `json:shard-${i}.jsonl`, '--concurrency', '8'], root),
    ),
  );
  const perShard = [1, 2, 3, 4].map((i) => casesOf(records(readFileSync(join(root, `shard-${i}.jsonl`), 'utf8'))));
  // Each shard runs a share: none is empty, none runs a case another runs, together they run all 100.
  for (const [i, list] of perShard.entries()) assert.ok(list.length > 0, `shard ${i + 1} ran no case`);
  const ids = perShard.flat().map((c) => c.id);
  assert.equal(new Set(ids).size, 100);
  assert.equal(ids.length, 100);
  for (const [i, run] of shards.entries())
    assert.equal(run.code, perShard[i]?.some((c) => c.outcome === 'failed') ? 1 : 0, run.stderr);

  const merged = await cli(
    ['merge-reports', ...[1, 2, 3, 4].map((i) => `shard-${i}.jsonl`), '--reporter', 'json', '--junit', 'merged.xml'],
    root,
  );
  assert.equal(merged.code, 1, merged.stderr);
  const joined = records(merged.stdout);
  assert.deepEqual(casesOf(joined).map(outcome), casesOf(one).map(outcome));
  assert.deepEqual(counts(summaryOf(joined)), counts(summaryOf(one)));
  assert.deepEqual(
    summaryOf(joined)?.shards,
    [1, 2, 3, 4].map((index) => ({ index, total: 4 })),
  );

  // The merged JUnit is the one run's but for the times.
  await cli(['merge-reports', 'whole.jsonl', 'shard-1.jsonl'], root).then((r) => {
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not shards of one run/);
  });
  const untimed = (xml: string) => xml.replace(/time="[\d.]+"/g, '').replace(/conv_\w+/g, '');
  const wholeXml = await cli(
    ['merge-reports', 'shard-1.jsonl', 'shard-2.jsonl', 'shard-3.jsonl', 'shard-4.jsonl', '--reporter', 'junit'],
    root,
  );
  const oneXml = await cli(['test', '--local', '--reporter', 'junit', '--concurrency', '8'], root);
  assert.equal(untimed(wholeXml.stdout), untimed(oneXml.stdout));
  assert.equal(untimed(readFileSync(join(root, 'merged.xml'), 'utf8')), untimed(oneXml.stdout));
});

test('merge-reports refuses a missing shard and a shard given twice', { timeout: 60_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'aw-merge-'));
  const summary = (index: number) =>
    JSON.stringify({
      type: 'summary',
      version: 1,
      total: 0,
      passed: 0,
      failed: 0,
      skipped: 0,
      cancelled: 0,
      flaky: 0,
      problems: 0,
      shard: { index, total: 3 },
      durationMs: 1,
      ok: true,
    });
  for (const i of [1, 3]) writeFileSync(join(root, `s${i}.jsonl`), `${summary(i)}\n`);
  const missing = await cli(['merge-reports', 's1.jsonl', 's3.jsonl'], root);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /Shard 2\/3 missing/);
  const twice = await cli(['merge-reports', 's1.jsonl', 's1.jsonl', 's3.jsonl'], root);
  assert.equal(twice.code, 1);
  assert.match(twice.stderr, /Shard 1\/3 is given twice/);
  const none = await cli(['merge-reports'], root);
  assert.equal(none.code, 2);
});
