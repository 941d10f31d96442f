// Time the extension spends in activate(), measured in a real VS Code extension host (code-server
// 1.100.3) with the production bundle: each run starts a fresh host and reads the value activate()
// returns. Prints the median of a few runs as one BENCH line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = 3;
const RUN_LIMIT_MS = 180_000;

function measureOnce(dir: string, run: number, build: boolean): number {
  const results = join(dir, `activation-${run}.json`);
  const args = [
    'test/host/runIntegration.mjs',
    '--bench',
    '--results',
    results,
    ...(build ? ['--production'] : ['--no-build']),
  ];
  const child = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'], timeout: RUN_LIMIT_MS });
  if (child.status !== 0) throw new Error(`the activation run ${run} failed (exit ${child.status ?? child.signal})`);
  const { metrics } = JSON.parse(readFileSync(results, 'utf8')) as { metrics: Record<string, number> };
  const ms = metrics.activationTimeMs;
  if (typeof ms !== 'number') throw new Error('the extension host reported no activation time');
  return ms;
}

const dir = mkdtempSync(join(tmpdir(), 'aw-bench-activation-'));
try {
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) samples.push(measureOnce(dir, run, run === 0));
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  if (median === undefined) throw new Error('no activation run was measured');
  console.error(`activation samples (ms): ${samples.map((s) => s.toFixed(2)).join(', ')}`);
  console.log(
    `BENCH ${JSON.stringify({ name: 'extension activation (time in activate(), median of 3 hosts)', value: Math.round(median * 100) / 100, unit: 'ms', target: '< 20' })}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
