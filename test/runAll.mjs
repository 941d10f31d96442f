// npm test: typecheck, lint, unit, integration (real VS Code extension host), end to end (workbench in
// Chromium), in that order, every part even when an earlier one fails. Ends with one line
// `N passed, N failed, N retried`; the run fails when a test failed, or when one test needed a second attempt in two of
// its parts (docs/testing.md, "Retries").
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PART_LIMIT_MS = 20 * 60_000;
/** Each part's output is kept here too, for the secrets scan of the last part. */
const PART_LOGS = join('.test-output', 'parts');
/** A run with this many second attempts, over all its parts, fails even when every test passed in the end. */
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const node = process.execPath;

/**
 * `count` reads a part's output and returns {passed, failed, retried}; parts without their own count are one test.
 * `retried` names each test that needed a second attempt (the integration runners print `↻ retried: <title> …`).
 */
const single = (code) => (code === 0 ? { passed: 1, failed: 0, retried: [] } : { passed: 0, failed: 1, retried: [] });
const summaryLine = /^(\d+) passed, (\d+) failed(?:, (\d+) retried)?$/;

function lastSummary(output) {
  const lines = output.split('\n').map((l) => l.trim());
  const retried = lines.filter((l) => l.startsWith('↻ retried: ')).map((l) => l.slice('↻ retried: '.length));
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = lines[i].match(/^(?:\S+: )?(\d+) passed, (\d+) failed(?:, (\d+) retried)?$/);
    if (!m) continue;
    // A count of retries without their names (a runner that lost them) still counts.
    const named = [...retried];
    while (named.length < Number(m[3] ?? 0)) named.push('a test its output does not name');
    return { passed: Number(m[1]), failed: Number(m[2]), retried: named };
  }
  return undefined;
}

/** node's spec reporter ends with "ℹ pass N", "ℹ fail N", "ℹ cancelled N". */
function nodeTestSummary(output) {
  const get = (key) => {
    const all = [...output.matchAll(new RegExp(`^\\S* ?${key} (\\d+)$`, 'gm'))];
    return all.length ? Number(all[all.length - 1][1]) : undefined;
  };
  const passed = get('pass');
  if (passed === undefined) return undefined;
  return { passed, failed: (get('fail') ?? 0) + (get('cancelled') ?? 0), retried: [] };
}

/** The integration suites that run in the spec-only mode too (suite titles). */
const SPEC_ONLY_FLOWS =
  '^(Alerts view against a platform with only the spec endpoints|Answers the extension cannot fully read|Concurrency chart|Connection profiles|Comparing two environments (a returns topic|a Chat connector|two identical)|Conversation tests that follow saves|Faults in the editor: every place under every fault|Perturbed conversation tests in the Testing view|Record checks in the Testing view|Replaying traffic|Language model tools against a platform with only the spec endpoints|Runtime tools|Transcript viewer) ';

/**
 * The integration suites that run in the spec-minimal mode too (suite titles): those whose views and tools show what
 * the platform's answers hold. The client and file mirror read every answer of that mode in the unit suites.
 */
const MINIMAL_FLOWS =
  '^(Agents view and commands|Alerts view and commands|Answers the extension cannot fully read|Concurrency chart|Connection profiles|Conversation tests in the Testing view|First use:|Language model tools|Replay|Runtime tools|Source control and the Agents view show the same platform text|Transcript viewer) ';

const PARTS = [
  // Each of these two keeps one core busy: they run at once (their lines interleave, each whole).
  [
    { name: 'typecheck', cmd: npm, args: ['run', '--silent', 'typecheck'], count: (_o, code) => single(code) },
    { name: 'lint', cmd: npm, args: ['run', '--silent', 'lint'], count: (_o, code) => single(code) },
  ],
  { name: 'unit', cmd: node, args: ['test/runUnit.mjs'], count: (o) => nodeTestSummary(o) },
  // The client, file mirror and MCP server suites again, against a local platform that answers only what the
  // spec shows.
  {
    name: 'unit (spec-minimal)',
    cmd: node,
    args: ['test/runUnit.mjs', 'test/unit/client', 'test/unit/workspace', 'test/unit/assistantTools/mcpServer'],
    env: { AGENT_WORKBENCH_RESPONSES: 'minimal' },
    count: (o) => nodeTestSummary(o),
  },
  // Again, against a local platform that has only the spec's endpoints and event names: tests that need one of
  // our assumptions are skipped by name (`assumed(...)` in test/support/localPlatform.ts).
  {
    name: 'unit (spec-only)',
    cmd: node,
    args: ['test/runUnit.mjs', 'test/unit/client', 'test/unit/workspace', 'test/unit/assistantTools/mcpServer'],
    env: { AGENT_WORKBENCH_RESPONSES: 'spec-only' },
    count: (o) => nodeTestSummary(o),
  },
  // Every rule of the spec is checked by a test whose title names its id (one test; fails without the rules file).
  { name: 'rules', cmd: node, args: ['scripts/ruleCoverage.mjs'], count: (_o, code) => single(code) },
  // The bundles the editor parts load, made once: those parts then run with --no-build, side by side.
  {
    name: 'build',
    cmd: node,
    args: ['esbuild.mjs', '--tests'],
    count: (_o, code) => single(code),
  },
  // The editor parts, in two lines at once: the integration suites (in the extension host) one after another, and the
  // end-to-end suites (the workbench in Chromium). Each mostly waits on an editor, so together they take little longer
  // than the longer of the two alone. The suites that build, package or start the project do it in a copy of it, so
  // nothing rewrites dist/ under the other line (test/support/stagedRepository.mjs). The second line's output is
  // printed whole once it ends, so each part's report reads in one piece.
  [
    [
      {
        name: 'integration',
        cmd: node,
        args: ['test/host/runIntegration.mjs', '--no-build'],
        count: (o) => lastSummary(o),
      },
      // The suites that read the platform's answers again, against a local platform that answers only the fields the
      // spec shows, beside the main flows against one that has only the spec's endpoints and event names (what a person
      // can still reach there: docs/api-assumptions.md, "Spec-only mode"; suites that need an assumed endpoint are left
      // out by the selection), then the panels with webviews served from sites of their own, as desktop VS Code and
      // vscode.dev serve them (code-server serves them from the workbench's origin): their sockets and security policy
      // across origins. All of them use the build the build part made.
      {
        name: 'integration (spec-minimal)',
        cmd: node,
        args: ['test/host/runIntegration.mjs', '--no-build', '--responses', 'minimal', '--grep', MINIMAL_FLOWS],
        count: (o) => lastSummary(o),
      },
      {
        name: 'integration (spec-only)',
        cmd: node,
        args: ['test/host/runIntegration.mjs', '--no-build', '--responses', 'spec-only', '--grep', SPEC_ONLY_FLOWS],
        count: (o) => lastSummary(o),
      },
      {
        name: 'integration (webviews on their own site)',
        cmd: node,
        args: [
          'test/host/runIntegration.mjs',
          '--no-build',
          '--webview-site',
          'own',
          '--grep',
          // The tests about the pages themselves: their sockets, paint reports, a page discarded and drawn again, a
          // page beside the list. The rest of the two suites drive the panels through the extension, which no origin
          // changes; they run in the integration part.
          "^(Chat playground (messaging, streamed: the webview|streamed pieces reach the page|the page's socket carries|a hidden panel shows its whole conversation)|Transcript viewer (the list reads the demo week|a row opens beside the list|after a reload, the list comes back))",
        ],
        count: (o) => lastSummary(o),
      },
    ],
    {
      name: 'e2e',
      cmd: node,
      args: ['test/host/runE2e.mjs', '--no-build'],
      count: (o) => lastSummary(o),
      buffered: true,
    },
  ],
  // After the editor parts: each secret the runs used is searched for in all they left (npm test's output, logs,
  // output channels, settings, workspace files, cassettes, reports, the editor's and the webviews' state, the pages'
  // text). One found fails the run, and so does a place the runs left nothing in.
  {
    name: 'secrets',
    cmd: node,
    args: ['--import', 'tsx', 'test/host/scanSecrets.ts', '--whole-run'],
    count: (_o, code) => single(code),
  },
];

/**
 * The start of a part's failure report (mocha's "N failing", node's "✖ failing tests:"), so the run's last screen
 * names what failed and why even when the part's own output scrolled far above.
 */
function failureReport(output) {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => /^\W*(?:\d+ failing|✖ failing tests:)\s*$/.test(l));
  if (start < 0) return [];
  return lines.slice(start, start + 40).map((l) => (l.length > 240 ? `${l.slice(0, 240)}…` : l));
}

function runPart(part) {
  return new Promise((resolvePart) => {
    const started = Date.now();
    const command = [part.cmd === node ? 'node' : part.cmd, ...part.args].join(' ');
    console.log(`\n━━ ${part.name}: ${command}${part.buffered ? ' (its output follows once it ends)' : ''}`);
    const child = spawn(part.cmd, part.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, FORCE_COLOR: '0', ...part.env },
    });
    let output = '';
    const forward = (stream, target) => {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        output += chunk;
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        // A part's own total is shown with its name, so the run's last line stays the only bare total.
        for (const line of lines)
          write(target, `${summaryLine.test(line.trim()) ? `${part.name}: ${line.trim()}` : line}\n`);
      });
      stream.on('end', () => pending && write(target, `${pending}\n`));
    };
    // A part that runs beside another keeps its lines until it ends, then prints them in one piece.
    const held = [];
    const write = (target, text) => (part.buffered ? held.push(text) : target.write(text));
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, PART_LIMIT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      mkdirSync(PART_LOGS, { recursive: true });
      writeFileSync(join(PART_LOGS, `${part.name.replace(/[^\w-]+/g, '-')}.log`), output);
      if (held.length) process.stdout.write(`\n━━ ${part.name}: its output\n${held.join('')}`);
      const exit = code ?? (signal ? 1 : 0);
      let counted = part.count(output, exit);
      let note = '';
      if (timedOut) note = `stopped after ${PART_LIMIT_MS / 60_000} min`;
      if (!counted) {
        counted = { passed: 0, failed: 1, retried: [] };
        note ||= `exit code ${exit}, no test count in its output`;
      } else if (exit !== 0 && counted.failed === 0) {
        counted = { ...counted, failed: 1 };
        note ||= `exit code ${exit}`;
      }
      const failures = counted.failed ? failureReport(output) : [];
      resolvePart({ name: part.name, ...counted, seconds: (Date.now() - started) / 1000, note, failures });
    });
  });
}

const startedAll = Date.now();
rmSync(PART_LOGS, { recursive: true, force: true });
const results = [];
/** Parts one after another. */
async function runLine(line) {
  const done = [];
  for (const part of [line].flat()) done.push(await runPart(part));
  return done;
}
// A step is a part, or lines run at once, each line a part or parts one after another.
for (const step of PARTS)
  results.push(...(await Promise.all((Array.isArray(step) ? step : [step]).map(runLine))).flat());

const passed = results.reduce((n, r) => n + r.passed, 0);
const retried = results.flatMap((r) => r.retried.map((title) => `${r.name}: ${title}`));
// A test that needed a second attempt in two parts of one run (the full, minimal and spec-only platforms run the same
// suites) fails the run: the run counts one failure more for each such test.
const titleOf = (line) => line.split(' (first attempt: ')[0];
const timesRetried = new Map();
for (const r of results)
  for (const t of new Set(r.retried.map(titleOf))) timesRetried.set(t, (timesRetried.get(t) ?? 0) + 1);
const retriedTwice = [...timesRetried].filter(([, n]) => n >= 2).map(([t]) => t);
const tooManyRetries = retriedTwice.length > 0;
const failed = results.reduce((n, r) => n + r.failed, 0) + retriedTwice.length;
console.log('\n━━ Summary');
for (const r of results) {
  const mark = r.failed ? '✖' : '✔';
  console.log(
    `${mark} ${r.name.padEnd(12)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed ${String(r.retried.length).padStart(2)} retried ${r.seconds.toFixed(1).padStart(7)} s${r.note ? `  (${r.note})` : ''}`,
  );
}
if (retried.length) {
  console.log(`\n━━ Run a second time after a first failure (a test retried in two parts fails the run)`);
  for (const line of retried) console.log(`↻ ${line}`);
}
if (tooManyRetries) for (const t of retriedTwice) console.log(`✖ needed a second attempt twice in this run: ${t}`);
for (const r of results.filter((each) => each.failures.length)) {
  console.log(`\n━━ What failed in ${r.name} (the start of its report)`);
  for (const line of r.failures) console.log(line);
}
console.log(`Total time ${((Date.now() - startedAll) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${failed} failed, ${retried.length} retried`);
process.exit(failed > 0 ? 1 : 0);
