// The README's first command, as a newcomer runs it on a fresh machine: `npm start` with an empty home folder
// prints the workbench address, and the workbench there shows the Agents view with the demo agents.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cacheRoot } from '../../scripts/lib/hostPaths.mjs';
import { stopProcessGroup } from '../../scripts/lib/processes.mjs';
import { keepFolder, launchBrowser } from '../host/workbench.mjs';
import { keptFolder, OUT, showAgentWorkbench, step } from '../support/browser/workbench.mjs';
import { stageRepository } from '../support/stagedRepository.mjs';
import { until } from '../support/until.ts';

/** Resolves with the first line of the process's output that matches `pattern`; rejects when it exits first. Collects all output. */
function waitForLine(child, pattern, output) {
  return new Promise((resolveLine, reject) => {
    let pending = '';
    const onData = (chunk) => {
      output.push(String(chunk));
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const found = lines.find((line) => pattern.test(line));
      if (found) resolveLine(found.trim()); // later output is still collected; a settled promise ignores the rest
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => output.push(String(chunk)));
    child.once('exit', (code) =>
      reject(
        new Error(`npm start exited (code ${code}) before printing the address:\n${output.join('').slice(-3000)}`),
      ),
    );
  });
}

/** Whether something answers at `origin` (a refused connection is the answer "nothing runs there"). */
async function answers(origin) {
  return fetch(origin, { signal: AbortSignal.timeout(2_000) }).then(
    () => true,
    () => false,
  );
}

/** Waits until `origin` no longer answers; false if it still does after `timeoutMs`. */
function goesAway(origin, timeoutMs) {
  return until(`${origin} to stop answering`, async () => !(await answers(origin)), {
    timeoutMs,
    intervalMs: 250,
  }).then(
    () => true,
    () => false,
  );
}

describe('npm start on a fresh machine', { timeout: 240_000 }, () => {
  const home = mkdtempSync(join(tmpdir(), 'aw-fresh-home-'));
  const state = mkdtempSync(join(tmpdir(), 'aw-start-'));
  // A copy of the repository, as a newcomer's clone: `npm start` builds there, not under the suites running beside it.
  const clone = stageRepository('start');
  const output = [];
  let start;
  let browser;
  before(() => {
    start = spawn('npm', ['start', '--', '--port', '0', '--platform-port', '0'], {
      cwd: clone.dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // An empty home folder: no ~/.config, ~/.cache or ~/.npm. The test host stays where it was installed, so
      // the run does not rebuild it (the install itself is checked with an empty home by .ci/run).
      env: {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: '',
        XDG_DATA_HOME: '',
        XDG_CACHE_HOME: '',
        AGENT_WORKBENCH_CACHE: cacheRoot(),
        AGENT_WORKBENCH_START_DIR: state,
      },
    });
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await stopProcessGroup(start);
    // What npm start left in its own folders and printed, for the secrets scan.
    const kept = keptFolder('start');
    keepFolder(home, join(kept, 'home'));
    keepFolder(state, join(kept, 'state'));
    writeFileSync(join(kept, 'npm-start-output.txt'), output.join(''));
    rmSync(home, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
    clone.remove();
  });

  let platformOrigin;
  let workbenchOrigin;

  it('prints the workbench address, and the workbench there shows the demo agents', async () => {
    const address = await waitForLine(start, /^\s*http:\/\/127\.0\.0\.1:\d+\/\?folder=/, output);
    workbenchOrigin = new URL(address).origin;
    platformOrigin = output.join('').match(/The local platform runs on (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
    assert.ok(platformOrigin, 'npm start says where the local platform runs');
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    page.setDefaultTimeout(60_000);
    await page.goto(address);
    await step(page, 'npm-start', async () => {
      await showAgentWorkbench(page);
      await page.locator('.sidebar .monaco-list-row .label-name', { hasText: /^Support Desk$/ }).waitFor();
      await page.screenshot({ path: join(OUT, 'npm-start.png') });
    });
    assert.doesNotMatch(output.join(''), /Error:/, 'npm start printed no error');
  });

  it('Ctrl-C stops everything it started: the workbench and the local platform no longer answer', async () => {
    assert.ok(platformOrigin && workbenchOrigin, 'npm start was running');
    await browser?.close().catch(() => {});
    const exited = once(start, 'exit', { signal: AbortSignal.timeout(30_000) }).catch(() => {});
    process.kill(-start.pid, 'SIGINT'); // what a terminal sends to the whole foreground group on Ctrl-C
    // Its exit, or after 30 s the check below, which names what still answers.
    await exited;
    assert.ok(
      await goesAway(workbenchOrigin, 15_000),
      `the workbench at ${workbenchOrigin} still answers after Ctrl-C`,
    );
    assert.ok(
      await goesAway(platformOrigin, 15_000),
      `the local platform at ${platformOrigin} still answers after Ctrl-C`,
    );
  });
});
