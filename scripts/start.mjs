// npm start: builds the extension, starts the local platform with demo data and a VS Code (code-server in
// the browser, or a desktop `code` with --desktop) with the extension loaded and a sample workspace open.
//   npm start [-- --port 8080] [--platform-port 4780] [--desktop]
// Ctrl-C stops everything.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { applyEdits, modify } from 'jsonc-parser';
import { startCodeServer } from './lib/codeServer.mjs';
import { isHostInstalled } from './lib/hostPaths.mjs';
import { freePort, isPortFree, prefixLines, stopProcessGroup, waitForHttp } from './lib/processes.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// What npm start keeps between runs (sample workspace, user data); AGENT_WORKBENCH_START_DIR moves it (tests do).
const STATE = process.env.AGENT_WORKBENCH_START_DIR
  ? resolve(process.env.AGENT_WORKBENCH_START_DIR)
  : join(ROOT, '.cache', 'start');
const WORKSPACE = join(STATE, 'sample-workspace');

const { values: opts } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    'platform-port': { type: 'string', default: '4780' },
    desktop: { type: 'boolean', default: false },
  },
});

async function pickPort(wanted) {
  const port = Number(wanted);
  return port > 0 && (await isPortFree(port)) ? port : freePort();
}

/** A copy of the sample workspace that stays between runs, pointed at this run's local platform. */
function prepareWorkspace(platformUrl) {
  if (!existsSync(WORKSPACE)) cpSync(join(ROOT, 'test', 'fixtures', 'workspace'), WORKSPACE, { recursive: true });
  const file = join(WORKSPACE, '.vscode', 'settings.json');
  mkdirSync(dirname(file), { recursive: true });
  // Settings files are JSON with comments (a person may have added some): edit the one value in place.
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '{}\n';
  const edits = modify(text, ['agentWorkbench.localPlatform.url'], platformUrl, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  writeFileSync(file, applyEdits(text, edits));
}

/** First run only: user settings that skip prompts a person does not need here; later edits are kept. */
function prepareUserData() {
  const file = join(STATE, 'user-data', 'User', 'settings.json');
  if (existsSync(file)) return;
  mkdirSync(dirname(file), { recursive: true });
  const settings = {
    'git.openRepositoryInParentFolders': 'never',
    'telemetry.telemetryLevel': 'off',
    'workbench.startupEditor': 'readme',
    'extensions.ignoreRecommendations': true,
  };
  writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
}

const children = [];
let stopping = false;
async function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  for (const stop of children.reverse()) await stop();
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
// Whoever reads the output may be gone (a closed terminal or pipe): stopping must still stop everything.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
if (!opts.desktop && !isHostInstalled()) {
  const { installHost } = await import('./installHost.mjs');
  await installHost();
}

// 1. The local platform, with demo data; its banner lists the addresses and the demo credentials.
const platformPort = await pickPort(opts['platform-port']);
const platform = spawn(
  process.execPath,
  [join(ROOT, 'dist', 'cli.js'), 'serve', '--port', String(platformPort), '--seed', 'demo'],
  {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
children.push(() => stopProcessGroup(platform));
prefixLines(platform.stdout, '[platform] ');
prefixLines(platform.stderr, '[platform] ', (l) => process.stderr.write(l));
platform.on('exit', (code) => {
  if (!stopping) {
    console.error(`The local platform exited (code ${code}).`);
    void stopAll(1);
  }
});
const platformUrl = `http://127.0.0.1:${platformPort}`;
await waitForHttp(`${platformUrl}/_local/health`, { timeoutMs: 30_000, isAlive: () => platform.exitCode === null });
prepareWorkspace(platformUrl);

// 2. VS Code with the extension loaded from this tree.
if (opts.desktop) {
  const found = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).stdout.trim();
  if (!found) {
    console.error(
      "--desktop needs VS Code's `code` command on PATH (VS Code: \"Shell Command: Install 'code' command in PATH\").",
    );
    await stopAll(1);
  }
  const code = spawn(found, ['--new-window', `--extensionDevelopmentPath=${ROOT}`, WORKSPACE], { stdio: 'inherit' });
  code.on('exit', () => console.log('VS Code was started; the local platform keeps running until Ctrl-C.'));
} else {
  prepareUserData();
  const server = await startCodeServer({
    workspace: WORKSPACE,
    userDataDir: join(STATE, 'user-data'),
    extensionsDir: join(STATE, 'extensions'),
    port: await pickPort(opts.port),
    log: (line) => {
      if (process.env.AGENT_WORKBENCH_VERBOSE) console.log(`[code-server] ${line}`);
    },
  });
  children.push(() => server.stop());
  server.child.on('exit', (code) => {
    if (!stopping) {
      console.error(`code-server exited (code ${code}).`);
      void stopAll(1);
    }
  });
  const payload = JSON.stringify([['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${ROOT}`]]);
  const url = `${server.url}/?folder=${encodeURIComponent(WORKSPACE)}&payload=${encodeURIComponent(payload)}`;
  console.log(
    [
      '',
      'Agent Workbench is running. Open this address in a browser:',
      '',
      `  ${url}`,
      '',
      `VS Code 1.100.3 (code-server) serves the sample workspace ${WORKSPACE}`,
      'with the extension loaded from this folder (rebuild with `npm run build` or `npm run watch`, then reload the window).',
      `The local platform runs on ${platformUrl} (demo data). Press Ctrl-C to stop everything.`,
    ].join('\n'),
  );
}
