// The chat panel in a real VS Code extension host (code-server 1.100.3) with the production bundle and the
// webview in Chromium: from a streamed chunk reaching the extension host to its text in the webview's page
// (p95 and p50 over 1,000 chunks after three answers of warm-up, at two paces: 5 ms between the platform's
// pieces, and 40 ms, the local platform's own pace; both ends read src/protocol/epochClock.ts,
// performance.now() anchored to the system clock, so the two processes' times compare). Of that, the page's
// own part: from the message reaching the page to the text written; the rest is the way there and the wait
// for the page's thread. Then the most line elements the page holds for a conversation of 2,000 messages,
// shown and scrolled to its top and bottom twice.
// The webview is served from a site of its own, as desktop VS Code (a vscode-webview:// origin per webview) and
// vscode.dev serve webviews, so Chromium runs the page in a renderer process of its own. code-server serves
// webviews from the workbench's origin instead, where the page shares the workbench's thread and waits for its
// frames: that figure is printed beside (test/host/workbench.mjs, serveWebviewsFromOwnSite).
// Beside them, the floor of this machine: the same 1,000 chunks at the same paces from a Node process straight
// into a bare Chromium page over a loopback WebSocket, with no editor between them. And, on Linux, the share
// of processor time the virtual machine's host took while the editor ran (steal): it moves the tail most.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { WebSocketServer } from 'ws';
import { epochClock } from '../src/protocol/epochClock';
import { editorFigures } from './editorFigures';

const CHUNKS = 1_000;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * A growing answer sent a piece every `paceMs` from this process to a bare page, which writes it into a line
 * and tells, 50 ms later with others (as the chat page does), when each version was in the page.
 */
async function floor(paceMs: number): Promise<{ p95: number; p50: number }> {
  const page = `<!DOCTYPE html><html><body><div id="line"></div><script>
const now = (${epochClock.toString()})();
const line = document.getElementById('line');
const socket = new WebSocket('ws://' + location.host + '/chunks');
let told = [];
socket.onmessage = (e) => {
  const m = JSON.parse(e.data);
  line.textContent = m.text;
  told.push([m.i, now()]);
  if (told.length === 1) setTimeout(() => { socket.send(JSON.stringify(told)); told = []; }, 50);
};
</script></body></html>`;
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  const sockets = new WebSocketServer({ server, path: '/chunks' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const hostPaths: string = '../scripts/lib/hostPaths.mjs';
  const { CHROMIUM_PATH } = (await import(hostPaths)) as { CHROMIUM_PATH: string };
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  try {
    const now = epochClock();
    const sent = new Map<number, number>();
    const latencies: number[] = [];
    const done = new Promise<void>((resolve) => {
      sockets.on('connection', (socket) => {
        socket.on('message', (data) => {
          for (const [i, at] of JSON.parse(String(data)) as Array<[number, number]>)
            if (i > 100) latencies.push(at - sent.get(i)!); // the first hundred warm up
          if (latencies.length >= CHUNKS) resolve();
        });
        let i = 0;
        let text = '';
        const next = () => {
          if (latencies.length >= CHUNKS || socket.readyState !== socket.OPEN) return;
          i++;
          text = i % 60 === 0 ? '' : `${text} word${i}`;
          sent.set(i, now());
          socket.send(JSON.stringify({ i, text }));
          setTimeout(next, paceMs);
        };
        next();
      });
    });
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${port}/`);
    await done;
    return { p95: percentile(latencies, 95), p50: percentile(latencies, 50) };
  } finally {
    await browser.close();
    sockets.close();
    server.close();
  }
}

/**
 * The machine's CPU counters (Linux /proc/stat): `steal` is time a virtual machine's host gave its processors to
 * others. Undefined elsewhere.
 */
function cpuCounters(): { total: number; steal: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/** The metrics the chat panel run reports, each checked present. */
const METRICS = [
  'chunkToPageP95Ms',
  'chunkToPageP50Ms',
  'chunksMeasured',
  'chunkInPageP95Ms',
  'chunkToPageP95MsPace40',
  'chunkToPageP50MsPace40',
  'chunksMeasuredPace40',
  'chunkInPageP95MsPace40',
  'longConversationElements',
] as const;

/**
 * The chat panel's figures in the editor, with the webview served from a site of its own (as desktop VS Code and
 * vscode.dev serve webviews, so Chromium gives the page a renderer process of its own) or from the workbench's
 * origin (as code-server serves them, so the page shares the workbench's thread). With the steal while it ran.
 */
function runEditor(webviewSite: 'own' | 'workbench'): {
  metrics: Record<(typeof METRICS)[number], number>;
  steal: number | undefined;
} {
  const before = cpuCounters();
  const metrics = editorFigures('Chat panel figures', METRICS, { args: ['--webview-site', webviewSite] });
  const after = cpuCounters();
  return {
    metrics,
    steal:
      before && after && after.total > before.total
        ? (100 * (after.steal - before.steal)) / (after.total - before.total)
        : undefined,
  };
}

async function main(): Promise<void> {
  const round = (n: number): number => Math.round(n * 100) / 100;
  const line = (name: string, value: number, unit: string, target?: string) =>
    console.log(`BENCH ${JSON.stringify({ name, value: round(value), unit, ...(target ? { target } : {}) })}`);
  const own = runEditor('own');
  const shared = runEditor('workbench');
  for (const [pace, suffix] of [
    [5, ''],
    [40, 'Pace40'],
  ] as const) {
    const n = own.metrics[`chunksMeasured${suffix}`];
    line(
      `chat: streamed chunk from extension host to webview page, ${pace} ms apart, p95 (${n} chunks)`,
      own.metrics[`chunkToPageP95Ms${suffix}`],
      'ms',
      '< 5',
    );
    line(
      `chat: streamed chunk from extension host to webview page, ${pace} ms apart, p50 (${n} chunks)`,
      own.metrics[`chunkToPageP50Ms${suffix}`],
      'ms',
    );
    line(
      `chat: of that, the page's own part (from the message reaching the page to the text written), ${pace} ms apart, p95`,
      own.metrics[`chunkInPageP95Ms${suffix}`],
      'ms',
    );
    line(
      `chat: the same with the webview on the workbench's origin, as code-server serves it, ${pace} ms apart, p95 (${shared.metrics[`chunksMeasured${suffix}`]} chunks)`,
      shared.metrics[`chunkToPageP95Ms${suffix}`],
      'ms',
    );
    const bare = await floor(pace);
    line(
      `chat: this machine's floor, a chunk from a Node process into a bare Chromium page over a loopback WebSocket, ${pace} ms apart, p95 (${CHUNKS} chunks)`,
      bare.p95,
      'ms',
    );
    line(
      `chat: this machine's floor, a chunk from a Node process into a bare Chromium page over a loopback WebSocket, ${pace} ms apart, p50 (${CHUNKS} chunks)`,
      bare.p50,
      'ms',
    );
  }
  for (const [run, where] of [
    [own, 'with the webview on its own site'],
    [shared, "with the webview on the workbench's origin"],
  ] as const) {
    if (run.steal !== undefined)
      line(
        `chat: this machine's processor time taken by its virtual machine host (steal) while the editor ran, ${where}`,
        run.steal,
        '%',
      );
  }
  line(
    'chat: most line elements in the page for a conversation of 2,000 messages, scrolled top and bottom',
    own.metrics.longConversationElements,
    'elements',
    '<= 300',
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
