// `node dist/cli.js lint`: one line per problem, SARIF 2.1.0, exit 1 when an error remains.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { RULES } from '../../../src/lint/rules';
import { MANIFEST, topic } from './lintFiles';

const CLI = ['--import', 'tsx', 'src/cli/main.ts', 'lint'];
const KEY = 'lp-live-0a1b2c3d4e5f';
let root: string;

async function write(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

const lint = (...args: string[]) =>
  spawnSync(process.execPath, [...CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_WORKBENCH_TEST_KEY: KEY },
  });

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'aw-lint-'));
  await write({
    'support/agent.json': MANIFEST,
    'support/behavior.md': `Be friendly.\nUse ${KEY} for the order API.\n`,
    'support/knowledge/hours.md': topic('Hours', 'Nine to five'),
    'support/knowledge/hours-2.md': topic('Hours', 'Closed Sundays'),
    'sales/agent.json': MANIFEST,
    'sales/behavior.md': 'Help callers buy.\n',
  });
});
after(() => rm(root, { recursive: true, force: true }));

test('lint prints file:line:col severity id message per problem, a summary last, and exits 1 on an error', () => {
  const run = lint(root);
  assert.equal(run.status, 1, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  assert.match(lines.at(-1)!, /^1 error\(s\), 1 warning\(s\), 0 info in 2 agent folder\(s\)$/);
  const problems = lines.slice(0, -1);
  assert.equal(problems.length, 2);
  assert.match(
    problems[0]!,
    /support\/behavior\.md:2:5 error secret A credential of this workspace's profiles is written here/,
  );
  assert.match(
    problems[1]!,
    /support\/knowledge\/hours\.md:2:7 warning topic-duplicate-name Another topic is also named "Hours"/,
  );
  assert.ok(!run.stdout.includes(KEY), 'the credential is printed');
});

test('a lint file above the folders turns the error into a warning for the command line too: exit 0', async () => {
  await write({ '.agent-workbench/lint.json': '{"rules": {"secret": "warning"}}' });
  try {
    const run = lint(join(root, 'support'));
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stdout, /behavior\.md:2:5 warning secret/);
  } finally {
    await rm(join(root, '.agent-workbench'), { recursive: true });
  }
});

test('lint of a folder without agents, or with a bad option, is a usage error (2) that says what to do', () => {
  const none = lint(tmpdir(), '--no-such');
  assert.equal(none.status, 2);
  assert.match(none.stderr, /Usage: node dist\/cli\.js lint/);
  const empty = lint(join(root, 'support', 'knowledge'));
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /No agent folder/);
});

/** The SARIF 2.1.0 JSON Schema (draft-04), as SchemaStore publishes it, read as it is installed. */
const SARIF_SCHEMA = createRequire(__filename).resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

/** Every error the SARIF 2.1.0 schema finds in a log, one per line (none: it validates). */
async function sarifSchemaErrors(log: unknown): Promise<string[]> {
  // The schema's language pattern has a lone "]" (a literal in ECMAScript patterns, refused under the u flag).
  const ajv = new Ajv({ allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(await readFile(SARIF_SCHEMA, 'utf8')) as object);
  if (validate(log)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/**
 * What the schema cannot say about this tool's log: every rule listed with its page, each result's rule index
 * pointing at its rule, relative file URIs from a base URI that ends in a slash.
 */
function checkSarif(log: unknown): void {
  const l = log as Record<string, unknown>;
  assert.equal(l.version, '2.1.0');
  assert.ok(Array.isArray(l.runs) && l.runs.length === 1);
  const run = (l.runs as Array<Record<string, unknown>>)[0]!;
  const driver = (run.tool as { driver: { name: string; rules: Array<{ id: string; helpUri: string }> } }).driver;
  assert.equal(typeof driver.name, 'string');
  assert.deepEqual(
    driver.rules.map((r) => r.id),
    RULES.map((r) => r.id),
  );
  for (const r of driver.rules) assert.match(r.helpUri, /^https:\/\/.*\/docs\/rules\/[a-z-]+\.md$/);
  const base = (run.originalUriBaseIds as Record<string, { uri: string }>).ROOT!.uri;
  assert.match(base, /^file:\/\/.*\/$/, 'a base URI ends in a slash');
  for (const result of run.results as Array<Record<string, unknown>>) {
    assert.equal(typeof (result.message as { text: string }).text, 'string');
    assert.ok(['none', 'note', 'warning', 'error'].includes(result.level as string));
    assert.equal(driver.rules[result.ruleIndex as number]!.id, result.ruleId);
    const locations = result.locations as Array<{
      physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: Record<string, number> };
    }>;
    for (const { physicalLocation: p } of locations) {
      assert.equal(p.artifactLocation.uriBaseId, 'ROOT');
      assert.doesNotMatch(p.artifactLocation.uri, /^\/|\\/, 'a relative URI with forward slashes');
      for (const k of ['startLine', 'startColumn', 'endLine', 'endColumn']) assert.ok(p.region[k]! >= 1, k);
    }
  }
}

test('--sarif writes SARIF 2.1.0 that validates against its schema, with every rule, its page, each problem with its place, related place and fix', async () => {
  const out = join(root, 'out.sarif');
  const run = lint(root, '--sarif', out);
  assert.equal(run.status, 1);
  const log = JSON.parse(await readFile(out, 'utf8')) as {
    runs: Array<{
      results: Array<{ ruleId: string; locations: unknown[]; relatedLocations?: unknown[]; fixes?: unknown[] }>;
    }>;
  };
  const errors = await sarifSchemaErrors(log);
  assert.deepEqual(errors, [], `the SARIF does not validate against the SARIF 2.1.0 schema:\n${errors.join('\n')}`);
  checkSarif(log);
  const results = log.runs[0]!.results;
  assert.deepEqual(
    results.map((r) => r.ruleId),
    ['secret', 'topic-duplicate-name'],
  );
  assert.ok(results.every((r) => r.fixes?.length === 1));
  assert.equal(results[1]!.relatedLocations?.length, 1);
  assert.ok(!JSON.stringify(log).includes(KEY));
});
