// Shared by the host runners: a fresh sandbox per run (workspace copy, user data, extensions),
// code-server in it, and Chromium (playwright-core) on the workbench.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startCodeServer } from '../../scripts/lib/codeServer.mjs';
import { CHROMIUM_PATH, isHostInstalled } from '../../scripts/lib/hostPaths.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURE_WORKSPACE = join(ROOT, 'test', 'fixtures', 'workspace');
export const OUTPUT_ROOT = join(ROOT, '.test-output');

/** User settings that keep the workbench quiet and predictable for tests. */
export const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'extensions.ignoreRecommendations': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'window.commandCenter': false,
  'workbench.colorTheme': 'Default Dark Modern',
  'chat.commandCenter.enabled': false,
  'chat.disableAIFeatures': true,
  'git.openRepositoryInParentFolders': 'never',
  // Suites that watch alerts switch the reading on themselves; the others are not interrupted by its notifications.
  'agentWorkbench.alerts.pollIntervalSeconds': 0,
};

export async function ensureHost() {
  if (isHostInstalled()) return;
  console.log('The test host is not installed yet; installing it (once, into the cache folder).');
  const { installHost } = await import('../../scripts/installHost.mjs');
  await installHost();
}

/** A temporary sandbox: a copy of the sample workspace, a user data folder with quiet settings, an extensions folder. */
export function createSandbox(name, settings = {}) {
  const dir = mkdtempSync(join(tmpdir(), `aw-${name}-`));
  const workspace = join(dir, 'workspace');
  cpSync(FIXTURE_WORKSPACE, workspace, { recursive: true });
  const userDataDir = join(dir, 'user-data');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...USER_SETTINGS, ...settings }, null, 2));
  const extensionsDir = join(dir, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  return { dir, workspace, userDataDir, extensionsDir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function outputDir(name) {
  const dir = join(OUTPUT_ROOT, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Starts code-server in a sandbox; its output goes to `logFile` (and to the console when verbose). */
export async function startHost(sandbox, { logLines, env } = {}) {
  return startCodeServer({
    workspace: sandbox.workspace,
    userDataDir: sandbox.userDataDir,
    extensionsDir: sandbox.extensionsDir,
    env,
    log: (line) => {
      logLines?.push(line);
      if (process.env.AGENT_WORKBENCH_VERBOSE) console.log(`[code-server] ${line}`);
    },
  });
}

/**
 * The workbench address, with the folder to open and, for development runs, the payload that
 * loads the extension from the source tree and the integration entry.
 */
export function workbenchUrl(server, { folder, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const query = [`folder=${encodeURIComponent(folder)}`];
  if (payload.length) query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `${server.url}/?${query.join('&')}`;
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}
