// `node dist/cli.js test`: conversation tests on the command line, against a local platform it starts.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../support/commandLine';

const FIXTURES = 'test/fixtures/conversationTests';

/** A JUnit reader as CI servers use one (xml2js, a devDependency). */
const xml2js = createRequire(__filename)('xml2js') as { parseStringPromise(text: string): Promise<unknown> };

interface JUnitCase {
  $: { name: string; classname: string; time: string };
  failure?: Array<{ $: { message: string }; _: string }>;
  'system-out'?: string[];
}
interface JUnit {
  testsuites: {
    $: { tests: string; failures: string };
    testsuite: Array<{ $: { name: string; tests: string; failures: string }; testcase: JUnitCase[] }>;
  };
}

const cli = (args: string[], env: NodeJS.ProcessEnv = process.env) => runCli(args, { env });

test('against a local platform it starts, a failing case exits 1, prints a line per case and the summary last, and writes JUnit XML a parser reads', async () => {
  const junit = join(mkdtempSync(join(tmpdir(), 'aw-junit-')), 'results.xml');
  const run = await cli(['test', FIXTURES, '--local', '--junit', junit]);
  assert.equal(run.code, 1, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.at(-1), '3 passed, 1 failed');
  assert.equal(lines.filter((l) => /^[✔✖] /.test(l)).length, 4);
  assert.ok(lines.some((l) => /^✖ .*password\.yaml › Password reset .*does not contain "reset link"/.test(l)));

  const report = (await xml2js.parseStringPromise(readFileSync(junit, 'utf8'))) as JUnit;
  assert.equal(report.testsuites.$.tests, '4');
  assert.equal(report.testsuites.$.failures, '1');
  const cases = report.testsuites.testsuite.flatMap((s) => s.testcase);
  const failed = cases.filter((c) => c.failure);
  assert.deepEqual(
    failed.map((c) => c.$.name),
    ['Password reset'],
  );
  assert.match(failed[0]!.failure![0]!._, /turn 1 \(line 4\)/);
  assert.match(failed[0]!['system-out']![0]!, /user: How do I reset my password\?\nagent: Sorry/);
});

test('when every case passes the exit code is 0, and --repeat runs each case that many times', async () => {
  const run = await cli(['test', `${FIXTURES}/support-desk`, '--local', '--repeat', '2']);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /Opening hours \(2\/2 runs passed\)/);
  assert.match(run.stdout, /2 passed, 0 failed\n$/);
});

test('a file with a problem is named with its line and fails the run; credentials come only from the environment', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aw-tests-'));
  writeFileSync(join(dir, 'bad.yaml'), 'cases:\n  - name: x\n    turns:\n      - user: hi\n        contians: hello\n');
  const bad = await cli(['test', join(dir, 'bad.yaml'), '--local']);
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /bad\.yaml:5:9: error: Unknown key `contians`/);

  const profile = join(dir, 'profile.json');
  writeFileSync(profile, JSON.stringify({ accountId: 'acme', projectId: 'support', region: 'us' }));
  const env = { ...process.env };
  delete env.AGENT_WORKBENCH_CHAT_API_KEY;
  delete env.AGENT_WORKBENCH_CHAT_TOKEN;
  const noKeys = await cli(['test', FIXTURES, '--profile-file', profile, '--environment', 'sandbox'], env);
  assert.equal(noKeys.code, 2);
  assert.match(noKeys.stderr, /Set AGENT_WORKBENCH_CHAT_API_KEY and AGENT_WORKBENCH_CHAT_TOKEN/);
});
