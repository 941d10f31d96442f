// The command line as an agent team installs it: the agent-workbench package packed with `npm pack`, installed
// from its tarball into an empty folder with an empty home, an empty npm cache and no registry within reach, and
// every subcommand run from there: test --local, lint, serve, and mcp through a real MCP client (the MCP
// Inspector's command line mode, a devDependency).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { keepFolder } from '../host/workbench.mjs';
import { keptFolder } from '../support/browser/workbench.mjs';
import { TEST_KEYS } from '../support/secretsScan.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const PACKAGE_DIR = join(ROOT, 'dist', 'cli-package');
const INSPECTOR = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  createRequire(import.meta.url)('@modelcontextprotocol/inspector/package.json').bin['mcp-inspector'],
);

describe('The agent-workbench package, installed from its tarball', { timeout: 300_000 }, () => {
  const sandbox = mkdtempSync(join(tmpdir(), 'aw-cli-package-'));
  const home = join(sandbox, 'home');
  const app = join(sandbox, 'agents-repo');
  const bin = join(app, 'node_modules', '.bin', 'agent-workbench');
  /** An empty home and npm cache, and a registry nothing answers at: the install cannot reach a network. */
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    npm_config_cache: join(sandbox, 'npm-cache'),
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
  };
  let tarball;

  before(() => {
    mkdirSync(home);
    mkdirSync(app);
    if (!existsSync(join(PACKAGE_DIR, 'package.json')))
      execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', sandbox], {
        cwd: PACKAGE_DIR,
        env,
        encoding: 'utf8',
      }),
    );
    tarball = join(sandbox, packed[0].filename);
    // An agent folder with its tests, as a team's repository holds it.
    cpSync(join(ROOT, 'test', 'fixtures', 'conversationTests', 'support-desk'), join(app, 'support-desk'), {
      recursive: true,
    });
    writeFileSync(join(app, 'support-desk', 'behavior.md'), 'You are the support desk of Acme.\n');
  });
  after(() => {
    // The folder the commands ran in (their JUnit and SARIF reports, the agent folders), for the secrets scan.
    keepFolder(app, keptFolder('cli-package'));
    rmSync(sandbox, { recursive: true, force: true });
  });

  it('installs offline into an empty folder, with no dependency of its own', () => {
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: app, env, stdio: 'pipe' });
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', 'agent-workbench', 'package.json'), 'utf8'));
    assert.equal(manifest.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    assert.deepEqual(manifest.bin, { 'agent-workbench': 'cli.js' });
    assert.equal(manifest.dependencies, undefined);
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
    assert.deepEqual(Object.keys(lock.packages).sort(), ['', 'node_modules/agent-workbench']);
    assert.equal(execFileSync(bin, ['--version'], { cwd: app, env, encoding: 'utf8' }).trim(), manifest.version);
  });

  it('test --local finds tests/*.yaml from the current folder and runs them against its own local platform', () => {
    const out = execFileSync(bin, ['test', '--local', '--reporter', 'line', '--reporter', 'junit:results.xml'], {
      cwd: app,
      env,
      encoding: 'utf8',
    });
    assert.match(out, /✔ support-desk\/tests\/support\.yaml › Opening hours/);
    assert.match(out, /\n2 passed, 0 failed\n$/);
    assert.match(readFileSync(join(app, 'results.xml'), 'utf8'), /<testsuites [^>]*tests="2" failures="0"/);
  });

  it('compare --local runs the same tests against two environments of its own local platform', () => {
    const out = execFileSync(bin, ['compare', '--local', '--repeat', '2', '--reporter', 'markdown:compare.md'], {
      cwd: app,
      env,
      encoding: 'utf8',
    });
    assert.match(out, /= support-desk\/tests\/support\.yaml › Opening hours: no significant change/);
    assert.match(out, /Suite: no significant change/);
    assert.match(readFileSync(join(app, 'compare.md'), 'utf8'), /^## ➖ Comparison: sandbox against pre-release/);
  });

  it('lint checks the agent folders: 0 when clean, 1 when an error remains', () => {
    assert.match(execFileSync(bin, ['lint'], { cwd: app, env, encoding: 'utf8' }), /0 error\(s\)/);
    writeFileSync(join(app, 'support-desk', 'behavior.md'), `Use the key ${TEST_KEYS.forLint} to look up orders.\n`);
    const run = spawnResult(bin, ['lint', '--credential-env', 'ORDERS_KEY', '--sarif', 'lint.sarif'], {
      cwd: app,
      env: { ...env, ORDERS_KEY: TEST_KEYS.forLint },
    });
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stdout, /support-desk\/behavior\.md:1:\d+ error /);
    const sarif = readFileSync(join(app, 'lint.sarif'), 'utf8');
    assert.ok(JSON.parse(sarif).runs[0].results.length > 0, 'the problems in the SARIF report');
    assert.ok(!sarif.includes(TEST_KEYS.forLint) && !run.stdout.includes(TEST_KEYS.forLint), 'the key is not repeated');
    writeFileSync(join(app, 'support-desk', 'behavior.md'), 'You are the support desk of Acme.\n');
  });

  it('serve runs the local platform on a free port', async () => {
    const child = spawn(bin, ['serve', '--port', '0', '--json'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [chunk] = await once(child.stdout, 'data');
      const info = JSON.parse(chunk.toString('utf8').split('\n')[0]);
      const res = await fetch(`${info.urls.origin}/_local/connection`);
      assert.equal(res.status, 200);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  describe('mcp, through the MCP Inspector', () => {
    const inspect = (args) => {
      const run = spawnResult(
        process.execPath,
        [INSPECTOR, '--cli', bin, 'mcp', '--local', '--workspace', app, ...args],
        { cwd: app, env },
      );
      assert.equal(run.status, 0, run.stderr);
      return JSON.parse(run.stdout);
    };

    it('lists the tools', () => {
      const { tools } = inspect(['--method', 'tools/list']);
      const names = tools.map((t) => t.name);
      for (const name of ['agentWorkbench_agentFolders', 'agentWorkbench_runConversationTests', 'agentWorkbench_push'])
        assert.ok(names.includes(name), `${name} is not in ${names.join(', ')}`);
    });

    it('calls a read tool: the agent folders of the workspace', () => {
      const result = inspect([
        '--method',
        'tools/call',
        '--tool-name',
        'agentWorkbench_agentFolders',
        '--tool-arg',
        'remote=false',
      ]);
      assert.notEqual(result.isError, true, JSON.stringify(result));
      assert.match(JSON.stringify(result.content), /ag_support/);
    });

    it('refuses a write without --allow-writes', () => {
      const result = inspect([
        '--method',
        'tools/call',
        '--tool-name',
        'agentWorkbench_push',
        '--tool-arg',
        'folder=support-desk',
      ]);
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, /started without --allow-writes, so nothing was done/);
    });
  });
});

/** A child's exit status and output, whatever the status. */
function spawnResult(command, args, options) {
  try {
    const stdout = execFileSync(command, args, { ...options, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { status: 0, stdout, stderr: '' };
  } catch (err) {
    return { status: err.status, stdout: String(err.stdout ?? ''), stderr: String(err.stderr ?? '') };
  }
}
