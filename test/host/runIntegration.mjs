// Runs the integration suites (test/integration) inside a real VS Code extension host:
// code-server 1.100.3 + Chromium, the extension loaded from this tree through extensionDevelopmentPath.
//   node test/host/runIntegration.mjs [--no-build] [--production] [--grep TEXT] [--bench] [--results FILE] [--responses full|minimal|spec-only]
//                                     [--webview-site own|workbench]
// --responses minimal runs the suites against a local platform that answers only what the spec shows;
// --responses spec-only against one that also has only the spec's endpoints and event names.
// --webview-site own serves webviews from a site of their own, as desktop VS Code and vscode.dev do; by default
// they come from the workbench's origin, as code-server serves them.
// Environment: AGENT_WORKBENCH_TEST_TIMEOUT_MS (default 840000, under npm test's 20 minutes a part), AGENT_WORKBENCH_VERBOSE=1 (code-server output).
// Ends with `N passed, N failed, N retried` and exits non-zero when a test failed or two tests needed a second attempt.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, parseArgs } from 'node:util';
import { CODE_SERVER_VERSION } from '../../scripts/lib/hostPaths.mjs';
import { sleep } from '../../scripts/lib/processes.mjs';
import {
  ROOT,
  createSandbox,
  ensureHost,
  keepBrowserStorage,
  keepPageText,
  keepSandbox,
  launchBrowser,
  outputDir,
  serveWebviewsFromOwnSite,
  startHost,
  workbenchUrl,
} from './workbench.mjs';

const { values: opts } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    production: { type: 'boolean', default: false },
    grep: { type: 'string' },
    bench: { type: 'boolean', default: false },
    results: { type: 'string' },
    responses: { type: 'string', default: 'full' },
    'webview-site': { type: 'string', default: 'workbench' },
  },
});
const timeoutMs = Number(process.env.AGENT_WORKBENCH_TEST_TIMEOUT_MS ?? 840_000);
/** A run with this many second attempts fails (docs/testing.md, "Retries"); `npm test` counts them over its parts. */
if (!['full', 'minimal', 'spec-only'].includes(opts.responses))
  throw new Error('--responses is full, minimal or spec-only');
const thin = opts.responses !== 'full';
if (!['own', 'workbench'].includes(opts['webview-site'])) throw new Error('--webview-site is own or workbench');
const ownWebviewSite = opts['webview-site'] === 'own';
const name = opts.bench
  ? 'bench-activation'
  : `integration${thin ? `-${opts.responses}` : ''}${ownWebviewSite ? '-own-site' : ''}`;
const out = outputDir(name);
const started = Date.now();

if (!opts['no-build']) {
  execFileSync(process.execPath, ['esbuild.mjs', '--tests', ...(opts.production ? ['--production'] : [])], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
await ensureHost();

// The minimal and spec-only runs set the local platform's answers through the user setting, as a person would.
const sandbox = createSandbox(name, thin ? { 'agentWorkbench.localPlatform.responses': opts.responses } : {});
const resultsFile = join(sandbox.dir, 'results.json');
const keptBySuites = join(out, 'kept-by-suites');
rmSync(keptBySuites, { recursive: true, force: true });
mkdirSync(keptBySuites, { recursive: true });
const hostLog = [];
const workbenchLog = [];
let server;
let browser;
let page;
let exitCode;
let results;
let problem;
/** How many frames were loaded from webview sites of their own (see serveWebviewsFromOwnSite). */
let framesOnOwnSite = () => 0;

try {
  server = await startHost(sandbox, {
    logLines: hostLog,
    ownWebviewSite,
    env: {
      AGENT_WORKBENCH_TEST_RESULTS: resultsFile,
      // Where suites keep what they wrote in the workspace before deleting it, for the secrets scan.
      AGENT_WORKBENCH_KEEP_DIR: keptBySuites,
      ...(opts.bench ? { AGENT_WORKBENCH_TEST_MODE: 'bench' } : {}),
      ...(opts.grep ? { AGENT_WORKBENCH_TEST_GREP: opts.grep } : {}),
    },
  });
  console.log(`code-server (pid ${server.pid}) on ${server.url}`);
  browser = await launchBrowser({ ownWebviewSite });
  page = await browser.newPage();
  if (ownWebviewSite) framesOnOwnSite = await serveWebviewsFromOwnSite(page, server);
  // The workbench forwards the extension host's output here while tests run, and reports the end.
  await page.exposeFunction('codeAutomationLog', (type, message) => {
    const text = Array.isArray(message) ? format(...message) : String(message);
    workbenchLog.push(`[${type}] ${text}`);
    for (const line of text.split('\n')) console.log(`  │ ${line}`);
  });
  await page.exposeFunction('codeAutomationExit', (code) => {
    exitCode = code;
  });
  page.on('pageerror', (err) => workbenchLog.push(`[pageerror] ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') workbenchLog.push(`[console.error] ${msg.text()}`);
  });
  await page.goto(
    workbenchUrl(server, {
      folder: sandbox.workspace,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: join(ROOT, 'out', 'test', 'integration', 'index.js'),
    }),
    // The page loads before a test starts; on a busy machine that alone can take longer than a navigation's 30 s.
    { timeout: 180_000 },
  );

  // A run ends when the results file is written; a failed run is reported by the workbench much later.
  const deadline = started + timeoutMs;
  while (Date.now() < deadline && !existsSync(resultsFile) && exitCode === undefined) await sleep(250);
  if (existsSync(resultsFile)) {
    results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  } else if (exitCode !== undefined) {
    problem = `the extension host ended the run (exit code ${exitCode}) without writing results: the integration entry did not load or crashed`;
  } else {
    problem = `the run did not finish within ${timeoutMs / 1000} s`;
  }
  await page.screenshot({ path: join(out, 'workbench.png') }).catch(() => {});
} catch (err) {
  problem = err instanceof Error ? err.message : String(err);
} finally {
  // What the secrets scan reads (npm test's last part): the page's text, the browser's storage, the sandbox.
  rmSync(join(out, 'pages.txt'), { force: true });
  if (page) {
    await keepPageText(page, join(out, 'pages.txt'), 'the end of the run');
    await keepBrowserStorage(page, join(out, 'browser-storage.json'));
  }
  await browser?.close().catch(() => {});
  await server?.stop();
  writeFileSync(join(out, 'code-server.log'), hostLog.join('\n') + '\n');
  writeFileSync(join(out, 'workbench.log'), workbenchLog.join('\n') + '\n');
  keepSandbox(sandbox, join(out, 'sandbox'));
  if (!process.env.AGENT_WORKBENCH_KEEP_SANDBOX) sandbox.remove();
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (results) {
  writeFileSync(join(out, 'results.json'), JSON.stringify(results, null, 2));
  if (opts.results) writeFileSync(opts.results, JSON.stringify(results, null, 2));
  for (const f of results.failures) {
    console.log(`\n✖ ${f.title}\n  ${f.message}\n${f.stack.split('\n').slice(1, 6).join('\n')}`);
  }
  console.log(
    `\nIntegration suites ran in VS Code ${results.vscodeVersion} (code-server ${CODE_SERVER_VERSION}) in ${seconds} s; logs in ${out}`,
  );
  // Webviews asked on their own site and none seen there: the run did not test what it was asked to.
  const notOnOwnSite = ownWebviewSite && framesOnOwnSite() === 0 ? 1 : 0;
  if (notOnOwnSite) console.log('\n✖ no webview was served from a site of its own (--webview-site own)');
  // A test runs a second time only where it says so (`this.retries(1)`, its reason beside it); each second attempt
  // is named, and npm test fails a run in which the same test needed one in two of its parts.
  const retried = results.retried ?? [];
  for (const r of retried) console.log(`↻ retried: ${r.title} (first attempt: ${r.firstError})`);
  console.log(`${results.passed} passed, ${results.failed + notOnOwnSite} failed, ${retried.length} retried`);
  process.exit(results.failed + notOnOwnSite > 0 || results.passed === 0 ? 1 : 0);
}
console.log(`\nThe integration run failed: ${problem}`);
console.log(`Last lines of code-server's output (all of it in ${join(out, 'code-server.log')}):`);
for (const line of hostLog.slice(-30)) console.log(`  ${line}`);
console.log('0 passed, 1 failed, 0 retried');
process.exit(1);
