// The Agents view with 1,000 agents on the local platform, measured in a real VS Code extension host
// (code-server 1.100.3) with the production bundle: time for the root to resolve (list + tree items)
// and for an agent to expand (its branches + tree items), medians of several runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'aw-bench-explorer-'));
try {
  const results = join(dir, 'explorer.json');
  const child = spawnSync(
    process.execPath,
    ['test/host/runIntegration.mjs', '--bench', '--production', '--grep', 'Explorer figures', '--results', results],
    { stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 },
  );
  if (child.status !== 0) throw new Error(`the explorer run failed (exit ${child.status ?? child.signal})`);
  const { metrics } = JSON.parse(readFileSync(results, 'utf8')) as { metrics: Record<string, number> };
  if (typeof metrics.agentsRootMs !== 'number' || typeof metrics.agentExpandMs !== 'number')
    throw new Error('the extension host reported no explorer figures');
  const round = (n: number): number => Math.round(n * 10) / 10;
  console.log(
    `BENCH ${JSON.stringify({ name: 'Agents view root with 1,000 agents (median of 7)', value: round(metrics.agentsRootMs), unit: 'ms', target: '< 100' })}`,
  );
  console.log(
    `BENCH ${JSON.stringify({ name: 'expanding an agent with 1,000 agents listed (median of 15)', value: round(metrics.agentExpandMs), unit: 'ms', target: '< 50' })}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
