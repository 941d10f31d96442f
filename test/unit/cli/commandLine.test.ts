// The command line's contract with CI: --help and --version on each command, exit codes 0 / 1 / 2, the closest
// valid command or option for a mistyped one, reporters, colour, the step summary and the shard's arithmetic.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../support/commandLine';
import { colourFor } from '../../../src/cli/reporters/colour';
import { parseReporters } from '../../../src/cli/reporters/runReport';
import { caseIdentity, casesOfShard, parseShard } from '../../../src/cli/shard';
import { SUBCOMMANDS } from '../../../src/cli/subcommands';
import { closestWord } from '../../../src/core/closest';
import { parseCommandLine, UsageError } from '../../../src/core/commandLine';

const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const FIXTURES = 'test/fixtures/conversationTests';

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '' };
  delete base.GITHUB_STEP_SUMMARY;
  delete base.FORCE_COLOR;
  return spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', env: { ...base, ...env } });
}

test('every command answers --version with the extension version and --help with its usage, exit 0', () => {
  assert.equal(cli(['--version']).stdout, `${VERSION}\n`);
  for (const name of Object.keys(SUBCOMMANDS)) {
    const version = cli([name, '--version']);
    assert.equal(version.status, 0, name);
    assert.equal(version.stdout, `${VERSION}\n`, name);
    const help = cli([name, '--help']);
    assert.equal(help.status, 0, name);
    assert.match(help.stdout, /Usage: /, name);
  }
});

test('a mistyped command or option is a usage error (2) that names the closest valid one', () => {
  const command = cli(['tset', '--local']);
  assert.equal(command.status, 2);
  assert.match(command.stderr, /"tset" is not a command of Agent Workbench\. Did you mean test\?/);
  for (const [args, typed, near] of [
    [['test', '--locl'], '--locl', '--local'],
    [['test', '--local', '--reporer', 'json'], '--reporer', '--reporter'],
    [['lint', '--sarf', 'x.sarif'], '--sarf', '--sarif'],
    [['serve', '--prot', '0'], '--prot', '--port'],
    [['mcp', '--allow-write'], '--allow-write', '--allow-writes'],
    [['merge-reports', 'a.jsonl', '--junt', 'x.xml'], '--junt', '--junit'],
  ] as const) {
    const run = cli([...args]);
    assert.equal(run.status, 2, args.join(' '));
    assert.match(run.stderr, new RegExp(`Unknown option ${typed}\\. Did you mean ${near}\\?`));
  }
  const reporter = cli(['test', '--local', '--reporter', 'junt']);
  assert.equal(reporter.status, 2);
  assert.match(
    reporter.stderr,
    /--reporter must be one of line, json, junit, markdown, got "junt"\. Did you mean junit\?/,
  );
});

test('a shard outside 1..n is a usage error', () => {
  for (const bad of ['3/2', '0/4', '1/0', 'two/4', '2', '-1/4']) {
    assert.throws(() => parseShard(bad), UsageError, bad);
    const run = cli(['test', FIXTURES, '--local', `--shard=${bad}`]);
    assert.equal(run.status, 2, bad);
    assert.match(run.stderr, /--shard must be i\/n with 1 <= i <= n/);
  }
  assert.deepEqual(parseShard('4/4'), { index: 4, total: 4 });
});

test('a case keeps its shard whatever other cases come and go, and each case is in exactly one shard', () => {
  const cases = Array.from({ length: 300 }, (_, i) => ({ file: `agents/a${i % 5}/tests/t.yaml`, name: `case ${i}` }));
  const shards = [1, 2, 3].map((index) => casesOfShard(cases, { index, total: 3 }));
  assert.equal(new Set(shards.flat().map(caseIdentity)).size, 300);
  assert.equal(shards.flat().length, 300);
  for (const list of shards) assert.ok(list.length > 60, `an uneven split: ${shards.map((l) => l.length).join(', ')}`);
  const fewer = cases.filter((_, i) => i % 2 === 0);
  for (const index of [1, 2, 3])
    assert.deepEqual(
      casesOfShard(fewer, { index, total: 3 }),
      shards[index - 1]?.filter((c) => fewer.includes(c)),
    );
  // Windows separators name the same case.
  assert.equal(
    caseIdentity({ file: 'agents\\a\\tests\\t.yaml', name: 'x' }),
    caseIdentity({ file: 'agents/a/tests/t.yaml', name: 'x' }),
  );
});

test('no test file found says where it looked and exits 1, or 0 with --pass-with-no-tests', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'aw-no-tests-'));
  const run = cli(['test', empty, '--local']);
  assert.equal(run.status, 1);
  assert.match(
    run.stderr,
    new RegExp(`No test files found: looked for tests/\\*\\.yaml and tests/\\*\\.yml at any depth below ${empty}`),
  );
  assert.match(run.stderr, /--pass-with-no-tests/);
  // Run in the empty folder itself, the message names it: a CI log shows where the run stood.
  const here = await runCli(['test', '--local'], { cwd: empty });
  assert.equal(here.code, 1);
  assert.ok(here.stderr.includes(`at any depth below the current folder, ${empty} (`), here.stderr);
  assert.equal(cli(['test', empty, '--local', '--pass-with-no-tests']).status, 0);
});

test('json on stdout is a line per case then the summary; GITHUB_STEP_SUMMARY gets the Markdown summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aw-reports-'));
  const summaryFile = join(dir, 'step-summary.md');
  writeFileSync(summaryFile, '# Earlier step\n');
  const run = cli(['test', FIXTURES, '--local', '--reporter', 'json', '--reporter', `markdown:${join(dir, 'r.md')}`], {
    GITHUB_STEP_SUMMARY: summaryFile,
  });
  assert.equal(run.status, 1, run.stderr);
  const lines = run.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; outcome?: string });
  assert.deepEqual(
    lines.map((l) => l.type),
    ['case', 'case', 'case', 'case', 'summary'],
  );
  assert.deepEqual(lines.at(-1), { ...lines.at(-1), total: 4, passed: 3, failed: 1, ok: false });
  const step = readFileSync(summaryFile, 'utf8');
  assert.ok(step.startsWith('# Earlier step\n'), 'the step summary is appended to, not replaced');
  assert.match(step, /## ❌ Conversation tests\n/);
  assert.match(step, /\| 4 \| 3 \| 1 \| 0 \| 0 \| 0 \| 0 \|/);
  assert.match(step, /- \*\*test\/fixtures\/conversationTests\/failing\/tests\/password\.yaml › Password reset\*\*/);
  assert.equal(readFileSync(join(dir, 'r.md'), 'utf8'), step.slice('# Earlier step\n'.length));
});

test('colour only on a terminal, NO_COLOR turns it off, FORCE_COLOR on', () => {
  assert.equal(colourFor({ isTTY: true }, {}), true);
  assert.equal(colourFor({ isTTY: false }, {}), false);
  assert.equal(colourFor({ isTTY: true }, { NO_COLOR: '1' }), false);
  assert.equal(colourFor({ isTTY: false }, { FORCE_COLOR: '1' }), true);
  assert.equal(colourFor({ isTTY: true }, { FORCE_COLOR: '0' }), false);
  assert.equal(colourFor({ isTTY: true }, { TERM: 'dumb' }), false);
  const forced = cli(['test', `${FIXTURES}/support-desk`, '--local'], { FORCE_COLOR: '1' });
  assert.match(forced.stdout, /\x1b\[32m✔\x1b\[39m /);
  const plain = cli(['test', `${FIXTURES}/support-desk`, '--local'], { FORCE_COLOR: '1', NO_COLOR: '1' });
  assert.match(plain.stdout, /\x1b\[32m✔/, 'FORCE_COLOR wins over NO_COLOR');
  assert.doesNotMatch(cli(['test', `${FIXTURES}/support-desk`, '--local']).stdout, /\x1b\[/);
});

test('progress goes to stderr, never into the report on stdout', () => {
  const run = cli(['test', FIXTURES, '--local', '--reporter', 'json', '--concurrency', '1'], {
    AGENT_WORKBENCH_PROGRESS_MS: '1',
  });
  assert.match(run.stderr, /\d+\/4 cases done, \d+ failed \(\d+ s\)/);
  for (const line of run.stdout.trim().split('\n')) JSON.parse(line);
});

test('reporters: one on stdout at most, line by default, --junit as junit:FILE', () => {
  assert.deepEqual(parseReporters([]), [{ name: 'line' }]);
  assert.deepEqual(parseReporters(['junit:out.xml'], 'also.xml'), [
    { name: 'line' },
    { name: 'junit', file: 'out.xml' },
    { name: 'junit', file: 'also.xml' },
  ]);
  assert.throws(() => parseReporters(['json', 'markdown']), /Only one reporter can write to standard output/);
  assert.equal(closestWord('mcpp', Object.keys(SUBCOMMANDS)), 'mcp');
  assert.equal(closestWord('deploy-everything', Object.keys(SUBCOMMANDS)), undefined);
  assert.throws(
    () => parseCommandLine({ args: ['--shrad', '1/2'], options: { shard: { type: 'string' } } }),
    /Unknown option --shrad\. Did you mean --shard\?/,
  );
});
