// Shared by the host runners: a fresh sandbox per run (workspace copy, user data, extensions),
// code-server in it, and Chromium (playwright-core) on the workbench.
import { appendFileSync, cpSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startCodeServer } from '../../scripts/lib/codeServer.mjs';
import { CHROMIUM_PATH, isHostInstalled } from '../../scripts/lib/hostPaths.mjs';
import { freePort } from '../../scripts/lib/processes.mjs';

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

/**
 * Starts code-server in a sandbox; its output goes to `logFile` (and to the console when verbose).
 * With `ownWebviewSite`, pages served from {@link webviewSite} may open sockets to it too.
 */
export async function startHost(sandbox, { logLines, env, ownWebviewSite = false } = {}) {
  const port = await freePort();
  return startCodeServer({
    workspace: sandbox.workspace,
    userDataDir: sandbox.userDataDir,
    extensionsDir: sandbox.extensionsDir,
    port,
    // Each webview's host name is its own, so sockets from pages on any origin are let in (the server listens on
    // the loopback address only).
    trustedOrigins: ownWebviewSite ? ['*'] : [],
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

/**
 * Chromium for the workbench. With `ownWebviewSite` (see {@link serveWebviewsFromOwnSite}) the workbench page
 * reaches Chromium from the test runner rather than from a loopback address, so Chromium would take it for a
 * public page and stop its sockets to the loopback server: that check is off then.
 */
export async function launchBrowser({ ownWebviewSite = false } = {}) {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
      ...(ownWebviewSite ? ['--disable-features=LocalNetworkAccessChecks'] : []),
    ],
  });
}

/**
 * The address template webviews are served from with `serveWebviewsFromOwnSite`: the same server under a
 * name of each webview's own (`{{uuid}}` becomes the hash of the workbench's origin and the webview's id, which
 * the webview's page checks), as vscode.dev does with its vscode-cdn.net hosts. Chromium sends *.localhost to
 * the loopback address and takes it for another site than 127.0.0.1.
 */
export function webviewSite(port) {
  return `http://{{uuid}}.localhost:${port}`;
}

const HTML_ENTITIES = { '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };

/**
 * Serves the workbench's webviews from other sites than the workbench, as desktop VS Code (a vscode-webview://
 * origin per webview) and vscode.dev do; code-server serves them from the workbench's own origin. Chromium then
 * runs a webview's page in a renderer process of its own instead of on the workbench's thread. The workbench
 * page's configuration is rewritten as it loads: no webview endpoint of code-server's, the product's template
 * of webview addresses pointing at the other sites, and frame-src allowing them. Answers how many frames have
 * been loaded from those sites so far, so a run can tell it tested what it was asked to.
 */
export async function serveWebviewsFromOwnSite(page, server) {
  const template = webviewSite(server.port);
  const workbench = new URL(server.url);
  await page.route(
    (url) => url.origin === workbench.origin && url.pathname === '/',
    async (route) => {
      const response = await route.fetch();
      let rewritten = false;
      const body = (await response.text()).replace(
        /(<meta id="vscode-workbench-web-configuration" data-settings=")([^"]*)(")/,
        (_, before, escaped, after) => {
          const settings = JSON.parse(escaped.replace(/&(quot|#39|lt|gt|amp);/g, (e) => HTML_ENTITIES[e]));
          const endpoint = new URL(settings.webviewEndpoint, server.url);
          delete settings.webviewEndpoint;
          settings.productConfiguration = {
            ...settings.productConfiguration,
            webviewContentExternalBaseUrlTemplate: `${template}${endpoint.pathname}/`,
          };
          rewritten = true;
          const json = JSON.stringify(settings).replace(/[&"'<>]/g, (c) => `&#${c.charCodeAt(0)};`);
          return `${before}${json}${after}`;
        },
      );
      if (!rewritten) throw new Error('the workbench page has no configuration to point webviews at another site');
      // The body is given decoded and changed: its encoding and length headers go.
      const headers = {};
      for (const [name, value] of Object.entries(response.headers())) {
        if (name === 'content-encoding' || name === 'content-length') continue;
        headers[name] =
          name === 'content-security-policy'
            ? value.replace(/frame-src /, `frame-src http://*.localhost:${server.port} `)
            : value;
      }
      await route.fulfill({ response, body, headers });
    },
  );
  let framesOnOwnSite = 0;
  page.on('framenavigated', (frame) => {
    if (new URL(frame.url(), 'about:blank').hostname.endsWith('.localhost')) framesOnOwnSite++;
  });
  return () => framesOnOwnSite;
}

/**
 * Keeps a copy of a sandbox for the secrets scan of npm test's last part (test/host/scanSecrets.ts): the workspace
 * as the run left it (files, cassettes, reports), the user data (settings, the editor's and the extension's logs,
 * local history, state) and code-server's own logs. Sockets and links are left out; a copy made before is replaced.
 */
export function keepSandbox(sandbox, dir) {
  keepFolder(sandbox.dir, dir);
}

/** Copies a folder for the secrets scan, files and folders only, without the folders named in `skip`. */
export function keepFolder(from, dir, skip = ['node_modules']) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(from, dir, {
    recursive: true,
    filter: (src) => {
      try {
        const st = lstatSync(src);
        return st.isFile() || (st.isDirectory() && !skip.includes(basename(src)));
      } catch {
        return false;
      }
    },
  });
}

/**
 * Appends the text each frame of the page shows (the workbench and every webview in it) to `file`, for the secrets
 * scan; `when` names the moment. A frame that is gone meanwhile is skipped.
 */
export async function keepPageText(page, file, when) {
  const parts = [];
  for (const frame of page.frames()) {
    const text = await frame
      .evaluate(() => document.body?.innerText ?? '', undefined, { timeout: 5_000 })
      .catch(() => undefined);
    if (text) parts.push(`── ${when}: ${frame.url().slice(0, 120)}\n${text}\n`);
  }
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, parts.join(''));
}

/**
 * Writes what the workbench's page keeps in the browser to `file`, as text, for the secrets scan: code-server keeps
 * the editor's state there (extension state, the webviews' saved state, secret storage), in IndexedDB and local
 * storage, where the server's folders never see it.
 */
export async function keepBrowserStorage(page, file) {
  const stored = await page
    .evaluate(async () => {
      const text = async (v) => {
        if (typeof v === 'string') return v;
        if (v instanceof Blob) return await v.text();
        if (v instanceof ArrayBuffer) return new TextDecoder('latin1').decode(v);
        if (ArrayBuffer.isView(v))
          return new TextDecoder('latin1').decode(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
        try {
          return JSON.stringify(v);
        } catch {
          return String(v);
        }
      };
      const done = (request) =>
        new Promise((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const out = { localStorage: { ...localStorage }, sessionStorage: { ...sessionStorage }, indexedDB: {} };
      for (const { name } of await indexedDB.databases()) {
        if (!name) continue;
        const db = await done(indexedDB.open(name));
        for (const store of db.objectStoreNames) {
          const objects = db.transaction(store, 'readonly').objectStore(store);
          const [keys, values] = await Promise.all([done(objects.getAllKeys()), done(objects.getAll())]);
          out.indexedDB[`${name}/${store}`] = await Promise.all(
            keys.map(async (k, i) => [String(k), await text(values[i])]),
          );
        }
        db.close();
      }
      return out;
    })
    .catch((err) => ({ unreadable: String(err) }));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(stored, null, 1));
}
