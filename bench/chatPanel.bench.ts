// The chat panel in a real VS Code extension host (code-server 1.100.3) with the production bundle and the
// webview in Chromium: from a streamed chunk reaching the extension host to its text in the webview's page
// (p95 and p50 over 1,000 chunks after three answers of warm-up; both ends read src/protocol/epochClock.ts,
// performance.now() anchored to the system clock, so the two processes' times compare), and the most line
// elements the page holds for a conversation of 2,000 messages, shown and scrolled to its top and bottom twice.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'aw-bench-chat-'));
try {
  const results = join(dir, 'chat.json');
  const child = spawnSync(
    process.execPath,
    ['test/host/runIntegration.mjs', '--bench', '--production', '--grep', 'Chat panel figures', '--results', results],
    { stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 },
  );
  if (child.status !== 0) throw new Error(`the chat panel run failed (exit ${child.status ?? child.signal})`);
  const { metrics } = JSON.parse(readFileSync(results, 'utf8')) as { metrics: Record<string, number> };
  for (const key of ['chunkToPageP95Ms', 'chunkToPageP50Ms', 'chunksMeasured', 'longConversationElements']) {
    if (typeof metrics[key] !== 'number') throw new Error(`the extension host reported no ${key}`);
  }
  const round = (n: number): number => Math.round(n * 100) / 100;
  console.log(
    `BENCH ${JSON.stringify({ name: `chat: streamed chunk from extension host to webview page, p95 (${metrics.chunksMeasured} chunks)`, value: round(metrics.chunkToPageP95Ms!), unit: 'ms', target: '< 5' })}`,
  );
  console.log(
    `BENCH ${JSON.stringify({ name: `chat: streamed chunk from extension host to webview page, p50 (${metrics.chunksMeasured} chunks)`, value: round(metrics.chunkToPageP50Ms!), unit: 'ms' })}`,
  );
  console.log(
    `BENCH ${JSON.stringify({ name: 'chat: most line elements in the page for a conversation of 2,000 messages, scrolled top and bottom', value: metrics.longConversationElements, unit: 'elements', target: '<= 300' })}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
