// npm run bench: builds the production bundles, runs every bench/*.bench.ts (through tsx) and
// bench/*.bench.mjs, collects their `BENCH {json}` lines and writes docs/performance.md.
//   node bench/run.mjs [substring...]   only benchmarks whose file name contains one of the substrings
// Each benchmark is stopped after 10 minutes, unless it prints `BENCH_TIME_LIMIT_MS <ms>` to say it needs longer.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LIMIT_MS = 10 * 60_000;
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));

/** Checks a value against a target such as "< 20" or ">= 2000". */
export function meetsTarget(value, target) {
  const m = String(target)
    .trim()
    .match(/^(<=|>=|<|>|==?)\s*(-?[\d.]+)/);
  if (!m) return undefined;
  const t = Number(m[2]);
  return { '<': value < t, '<=': value <= t, '>': value > t, '>=': value >= t, '=': value === t, '==': value === t }[
    m[1]
  ];
}

function runBench(file) {
  return new Promise((resolveRun) => {
    const args = file.endsWith('.ts') ? ['--import', 'tsx', file] : [file];
    const started = Date.now();
    console.log(`\n━━ ${file}`);
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    const figures = [];
    const stop = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    let timer = setTimeout(stop, LIMIT_MS);
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        process.stdout.write(`${line}\n`);
        // A benchmark longer than the usual limit says how long it may take, first thing (a soak of many minutes).
        const limit = line.match(/^BENCH_TIME_LIMIT_MS (\d+)\s*$/);
        if (limit) {
          clearTimeout(timer);
          timer = setTimeout(stop, Math.max(0, started + Number(limit[1]) - Date.now()));
          continue;
        }
        const m = line.match(/^BENCH (\{.*\})\s*$/);
        if (m) {
          try {
            figures.push(JSON.parse(m[1]));
          } catch {
            console.error(`  not JSON: ${line}`);
          }
        }
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ file, code, figures, seconds: (Date.now() - started) / 1000 });
    });
  });
}

const fmt = (v) => (Number.isInteger(v) ? String(v) : Math.abs(v) >= 100 ? v.toFixed(1) : v.toPrecision(3));

execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'inherit' });
const files = readdirSync(join(ROOT, 'bench'))
  .filter((f) => /\.bench\.(ts|mjs)$/.test(f) && (filters.length === 0 || filters.some((s) => f.includes(s))))
  .sort()
  .map((f) => join('bench', f));

const runs = [];
for (const file of files) runs.push(await runBench(file));

const rows = [];
for (const run of runs) {
  for (const f of run.figures) {
    const ok = typeof f.value === 'number' ? meetsTarget(f.value, f.target) : false;
    rows.push({
      name: f.name,
      value: typeof f.value === 'number' ? fmt(f.value) : String(f.value),
      unit: f.unit ?? '',
      target: f.target ?? '',
      result: ok === undefined ? '—' : ok ? 'pass' : '**fail**',
      file: run.file,
    });
  }
  if (run.code !== 0 || run.figures.length === 0) {
    rows.push({
      name: `${run.file} did not finish`,
      value: '—',
      unit: '',
      target: '',
      result: '**fail**',
      file: run.file,
    });
  }
}

// A run of some benchmarks keeps the rows of the others from the last full run.
if (filters.length > 0 && existsSync(join(ROOT, 'docs', 'performance.md'))) {
  const ran = new Set(files);
  const kept = readFileSync(join(ROOT, 'docs', 'performance.md'), 'utf8')
    .split('\n')
    .map((line) => line.match(/^\| (.*) \| (.*) \| (.*) \| (.*) \| (.*) \| `(.*)` \|$/))
    .filter((m) => m && !ran.has(m[6]))
    .map((m) => ({ name: m[1], value: m[2], unit: m[3], target: m[4], result: m[5], file: m[6] }));
  rows.unshift(...kept);
  rows.sort((a, b) => a.file.localeCompare(b.file));
}

const cpu = cpus();
const machine = [
  `- Date: ${new Date().toISOString()}`,
  `- CPU: ${cpu.length} cores (${cpu[0]?.model?.trim() ?? 'unknown'})`,
  `- Memory: ${(totalmem() / 1024 ** 3).toFixed(1)} GB`,
  `- Node: ${process.version} on ${process.platform} ${process.arch}`,
  `- Load average when the run ended: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
];
const table = [
  '| Benchmark | Value | Unit | Target | Result | Source |',
  '| --- | ---: | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.name} | ${r.value} | ${r.unit} | ${r.target} | ${r.result} | \`${r.file}\` |`),
];
// What the figures need said beside them (kept by hand in bench/notes.md) follows the table.
const notesFile = join(ROOT, 'bench', 'notes.md');
const notes = existsSync(notesFile) ? `\n${readFileSync(notesFile, 'utf8').trim()}\n` : '';
const doc = `# Performance

Figures from \`npm run bench\` (written by \`bench/run.mjs\`; do not edit by hand). Each benchmark
starts what it needs on loopback, bounded in count and time; the extension figures come from the
production build and a real VS Code extension host (code-server 4.100.3, VS Code 1.100.3).

${table.join('\n')}
${notes}
Machine:

${machine.join('\n')}
`;
writeFileSync(join(ROOT, 'docs', 'performance.md'), doc);
const failed = rows.filter((r) => r.result === '**fail**').length;
console.log(`\nWrote docs/performance.md: ${rows.length} figures, ${failed} off target`);
process.exit(failed > 0 ? 1 : 0);
