// The figures an integration suite records in a real VS Code extension host (code-server, production bundle),
// for the benchmarks that measure the extension in the editor.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs the integration suites whose titles match `grep` in bench mode and returns the metrics they recorded,
 * each of `keys` checked present. `args` go to test/host/runIntegration.mjs as well.
 */
export function editorFigures<K extends string>(
  grep: string,
  keys: readonly K[],
  { args = [], timeoutMs = 600_000 }: { args?: string[]; timeoutMs?: number } = {},
  /** Given to the editor's processes, the extension host among them (the suites read it there). */
  env: Record<string, string> = {},
): Record<K, number> {
  const dir = mkdtempSync(join(tmpdir(), 'aw-bench-editor-'));
  try {
    const results = join(dir, 'results.json');
    const child = spawnSync(
      process.execPath,
      ['test/host/runIntegration.mjs', '--bench', '--production', '--grep', grep, ...args, '--results', results],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        timeout: timeoutMs,
        // The host runner's own limit follows this one.
        env: { ...process.env, AGENT_WORKBENCH_TEST_TIMEOUT_MS: String(timeoutMs - 30_000), ...env },
      },
    );
    if (child.status !== 0) throw new Error(`the "${grep}" run failed (exit ${child.status ?? child.signal})`);
    const { metrics } = JSON.parse(readFileSync(results, 'utf8')) as { metrics: Record<string, unknown> };
    for (const key of keys) {
      if (typeof metrics[key] !== 'number') throw new Error(`the extension host reported no ${key}`);
    }
    return metrics as Record<K, number>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
