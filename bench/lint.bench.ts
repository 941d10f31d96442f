// The checks of agent folders, with an agent folder of 1,000 topics and a 100 KB behavior:
// - the command line, `node dist/cli.js lint <folder>` (production bundle), whole runs: start, read, check, print
// - the same rule set in one process, from files read to problems (a fresh session: nothing kept from before)
// - a keystroke in the 100 KB behavior: checking again with what the session kept from the last check
// - in the editor (a real extension host): a keystroke in the 100 KB behavior until its diagnostics are published,
//   and opening a file of a folder not checked yet until the folder's diagnostics are published; each from when the
//   extension host is told (of the keystroke, of the opening) to when the diagnostics are handed to VS Code, and
//   for the opening also from the test's open to VS Code's change event (which VS Code fires 50 ms after the change);
//   what a person sees after a keystroke is measured in Chromium (lintWorkbench.bench.mjs)
// The command line's processor time (user and system, its own and its threads') is given beside its wall time: on
// a shared machine the wall time is mostly waiting for a processor.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_CONFIG } from '../src/lint/config';
import { LintSession } from '../src/lint/engine';
import { readAgentFolder } from '../src/lint/nodeFolder';
import { median } from '../test/support/median';
import { writeBenchFolder } from '../test/support/lintBenchFolder';
import { editorFigures } from './editorFigures';

const PRINT_CPU = resolve(__dirname, 'cpuAtExit.cjs');
const round = (n: number): number => Math.round(n * 10) / 10;
const bench = (name: string, value: number, unit: string, target?: string): void =>
  console.log(`BENCH ${JSON.stringify({ name, value: round(value), unit, ...(target ? { target } : {}) })}`);

/** A run of node with its wall time and processor time (user and system, all its threads), as the OS counts them. */
function timed(args: string[]): { wallMs: number; cpuMs: number } {
  const started = performance.now();
  // /usr/bin/time is not everywhere: the child reports its own processor time as it exits instead.
  const run = spawnSync(process.execPath, ['--require', PRINT_CPU, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const wallMs = performance.now() - started;
  const m = /CPU_MS (\d+(?:\.\d+)?)/.exec(run.stderr);
  return { wallMs, cpuMs: m ? Number(m[1]) : NaN };
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'aw-bench-lint-'));
  try {
    const folder = join(dir, 'agent');
    await writeBenchFolder(folder);

    const cli: number[] = [];
    const cliCpu: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < 5; i++) {
      const run = timed(['dist/cli.js', 'lint', folder]);
      cli.push(run.wallMs);
      cliCpu.push(run.cpuMs);
      bare.push(timed(['-e', '0']).wallMs);
    }
    bench(
      'lint: command line over an agent folder of 1,000 topics, whole run (median of 5)',
      median(cli),
      'ms',
      '< 500',
    );
    bench(
      'lint: the same runs, processor time of the command line (user and system, median of 5)',
      median(cliCpu),
      'ms',
    );
    bench('lint: this machine meanwhile, a bare `node -e 0` (wall time, median of 5)', median(bare), 'ms');

    const files = await readAgentFolder(folder);
    const whole: number[] = [];
    for (let i = 0; i < 7; i++) {
      const started = performance.now();
      new LintSession().lint(files, DEFAULT_CONFIG);
      whole.push(performance.now() - started);
    }
    bench(
      'lint: the whole rule set over 1,000 topics in one process, files already read (median of 7)',
      median(whole),
      'ms',
    );

    const session = new LintSession();
    session.lint(files, DEFAULT_CONFIG);
    const behavior = files.findIndex((f) => f.path === 'behavior.md');
    const keystrokes: number[] = [];
    for (let i = 0; i < 50; i++) {
      const typed = files.map((f, j) => (j === behavior ? { ...f, text: `${f.text}${'x'.repeat(i + 1)}` } : f));
      const started = performance.now();
      session.lint(typed, DEFAULT_CONFIG);
      keystrokes.push(performance.now() - started);
    }
    bench('lint: a keystroke in a 100 KB behavior, checking again in one process (p95 of 50)', p95(keystrokes), 'ms');

    const editor = editorFigures(
      'Agent folder check figures',
      ['lintKeystrokeEditP95Ms', 'lintKeystrokeToldP95Ms', 'lintFolderMs', 'lintFolderToldMs'],
      { timeoutMs: 600_000 },
    );
    bench(
      'lint: diagnostics of a 100 KB behavior handed to VS Code after a keystroke reaches the extension host (p95 of 30)',
      editor.lintKeystrokeToldP95Ms,
      'ms',
      '< 20',
    );
    bench(
      'lint: the same from the edit sent by the extension host (a round trip through the workbench first, p95 of 30)',
      editor.lintKeystrokeEditP95Ms,
      'ms',
    );
    bench(
      'lint: the whole rule set over an agent folder of 1,000 topics in the editor, file opened to diagnostics (median of 5)',
      editor.lintFolderMs,
      'ms',
      '< 500',
    );
    bench(
      'lint: the whole rule set over an agent folder of 1,000 topics in the editor, from the extension host told of the opened file to the diagnostics handed to VS Code (median of 5)',
      editor.lintFolderToldMs,
      'ms',
      '< 500',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

void main();
