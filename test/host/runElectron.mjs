// Runs the same integration suites in a desktop VS Code through @vscode/test-electron, for machines
// that can download VS Code (it is not part of npm test: offline machines use code-server instead).
//   node test/host/runElectron.mjs [--version 1.100.3]
// On Linux without a display it needs xvfb-run (Debian package xvfb).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { cacheRoot } from '../../scripts/lib/hostPaths.mjs';
import { ROOT, createSandbox } from './workbench.mjs';

const { values: opts } = parseArgs({ options: { version: { type: 'string', default: '1.100.3' } } });
const DOWNLOAD_LIMIT_MS = 120_000;

if (!process.env.AGENT_WORKBENCH_UNDER_XVFB)
  execFileSync(process.execPath, ['esbuild.mjs', '--tests'], { cwd: ROOT, stdio: 'inherit' });

let vscodeExecutablePath;
try {
  console.log(`Downloading VS Code ${opts.version} (or reusing the cached copy)…`);
  vscodeExecutablePath = await Promise.race([
    downloadAndUnzipVSCode({ version: opts.version, cachePath: join(cacheRoot(), 'vscode-test') }),
    new Promise((_, reject) =>
      setTimeout(
        () => reject(new Error(`no download within ${DOWNLOAD_LIMIT_MS / 1000} s`)),
        DOWNLOAD_LIMIT_MS,
      ).unref(),
    ),
  ]);
} catch (err) {
  console.error(`\nCould not download VS Code ${opts.version}: ${err instanceof Error ? err.message : String(err)}`);
  console.error(
    'This machine cannot reach update.code.visualstudio.com. Run the same suites offline in code-server with',
  );
  console.error('`npm run test:integration` (see docs/testing.md).');
  process.exit(2);
}

if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.AGENT_WORKBENCH_UNDER_XVFB) {
  if (!existsSync('/usr/bin/xvfb-run')) {
    console.error('A desktop VS Code needs a display: install xvfb (apt-get install xvfb) or set DISPLAY.');
    process.exit(1);
  }
  // A desktop VS Code needs a display: run again under a virtual one.
  const again = spawnSync('/usr/bin/xvfb-run', ['-a', process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, AGENT_WORKBENCH_UNDER_XVFB: '1' },
  });
  process.exit(again.status ?? 1);
}

const sandbox = createSandbox('electron');
const resultsFile = join(mkdtempSync(join(tmpdir(), 'aw-electron-results-')), 'results.json');
let exitCode = 1;
try {
  exitCode = await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: join(ROOT, 'out', 'test', 'integration', 'index.js'),
    extensionTestsEnv: { AGENT_WORKBENCH_TEST_RESULTS: resultsFile },
    launchArgs: [
      sandbox.workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      `--user-data-dir=${sandbox.userDataDir}`,
      `--extensions-dir=${sandbox.extensionsDir}`,
    ],
  });
} catch (err) {
  console.error(`VS Code ended the run with an error: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  sandbox.remove();
}
if (existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  rmSync(resultsFile, { force: true });
  console.log(`Integration suites ran in VS Code ${results.vscodeVersion} (desktop)`);
  const retried = results.retried ?? [];
  for (const r of retried) console.log(`↻ retried: ${r.title} (first attempt: ${r.firstError})`);
  console.log(`${results.passed} passed, ${results.failed} failed, ${retried.length} retried`);
  // As runIntegration.mjs: two second attempts in one run fail it.
  process.exit(results.failed > 0 ? 1 : 0);
}
console.log('0 passed, 1 failed');
process.exit(exitCode || 1);
