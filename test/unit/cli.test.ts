// The one command line: `node dist/cli.js <command>`, with `serve` as the local platform.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { once } from 'node:events';
import { call } from '../support/http';

// The source entry through tsx: the same module `dist/cli.js` bundles, so the unit run needs no build first.
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];

test('without a command, the command line lists its commands and exits 0', () => {
  const run = spawnSync(process.execPath, CLI, { encoding: 'utf8' });
  assert.equal(run.status, 0);
  assert.match(run.stdout, /Usage: agent-workbench <command> .*node dist\/cli\.js <command>/);
  assert.match(run.stdout, /\n {2}serve {2,}run the local platform/);
});

test('an unknown command is named, the commands are listed, and the exit code is 2', () => {
  const run = spawnSync(process.execPath, [...CLI, 'deploy-everything'], { encoding: 'utf8' });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /"deploy-everything" is not a command of Agent Workbench/);
  assert.match(run.stderr, /serve/);
});

test('serve refuses a bad option with what to fix and its own help', () => {
  const run = spawnSync(process.execPath, [...CLI, 'serve', '--port', 'eighty'], { encoding: 'utf8' });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--port must be a number from 0 to 65535, got "eighty"/);
  assert.match(run.stderr, /Usage: node dist\/cli\.js serve/);
});

test('serve starts the local platform on a free port, where the editor reads its connection', async () => {
  const child = spawn(process.execPath, [...CLI, 'serve', '--port', '0', '--seed', 'demo', '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    const info = JSON.parse(chunk.toString('utf8').split('\n')[0] ?? '') as { urls: { origin: string } };
    const res = await call('GET', `${info.urls.origin}/_local/connection`);
    assert.equal(res.status, 200);
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});
