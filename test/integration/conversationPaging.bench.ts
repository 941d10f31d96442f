import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULT_FILTERS, type TranscriptsNotification } from '../../src/protocol/transcripts';
import { activateExtension, type LocalPlatformUrls, recordMetric } from '../support/editor/extension';
import { hostMemory } from '../support/editor/hostMemory';
import { openList } from '../support/editor/transcriptPanels';
import { LocalAdmin } from '../support/localAdmin';
import { median } from '../support/median';
import { until } from '../support/until';

const CONVERSATIONS = 100_000;
/** The host's memory is read after every this many pages. */
const MEMORY_EVERY = 20;
const DAY_MS = 24 * 3_600_000;

const now = () => performance.timeOrigin + performance.now();

/**
 * The transcript viewer paging through 100,000 conversations of the local platform, as a person scrolling to the
 * end does: each page asked as the page asks it when scrolled near its end, timed from the ask to its rows drawn in
 * the webview's page. The extension host's memory (after a full collection) before the list opens, every 20 pages,
 * and at the end.
 */
suite('Conversation paging figures', () => {
  test('100,000 conversations paged to the end in the transcript viewer', async function () {
    this.timeout(900_000);
    await activateExtension();
    const urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    const admin = new LocalAdmin(urls.admin);
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    await admin.reset();
    const { now: platformNow } = await admin.clock();
    const end = Date.parse(platformNow) - 60_000;
    const seeded = performance.now();
    await admin.generateConversations({
      count: CONVERSATIONS,
      start_time: new Date(end - 30 * DAY_MS).toISOString(),
      end_time: new Date(end).toISOString(),
    });
    recordMetric('pagingSeedMs', performance.now() - seeded);
    const before = await hostMemory();

    // When each page's rows were made in the extension host, and when the page drew them.
    const made = new Map<number, number>();
    const drawn = new Map<number, number>();
    const opened = now();
    const p = await openList({ filters: { ...DEFAULT_FILTERS }, ackPaint: true });
    try {
      p.onDidNotify((n) => {
        const rows = n as Extract<TranscriptsNotification, { type: 'rows' }>;
        if (rows.type === 'rows') made.set(rows.seq, now());
      });
      let firstRowsAt: number | undefined;
      p.onDidPaint(({ seq, at, elements }) => {
        drawn.set(seq, at);
        if (elements > 0) firstRowsAt ??= at;
      });
      const pageDrawn = async (what: string): Promise<number> => {
        const seq = await until(what, () => (made.size > 0 ? Math.max(...made.keys()) : undefined), 120_000);
        return until(`${what} drawn`, () => drawn.get(seq), { timeoutMs: 120_000, intervalMs: 2 });
      };
      // The first page may reach the page with its first snapshot (sent once the page is ready): the first paint
      // that shows rows.
      const firstAt = await until('the first page drawn', () => firstRowsAt, { timeoutMs: 120_000, intervalMs: 2 });
      recordMetric('pagingFirstPageMs', firstAt - opened);
      const pageTimes: number[] = [];
      const heap: number[] = [];
      const rss: number[] = [];
      while (p.status().more) {
        made.clear();
        const asked = now();
        await p.command({ type: 'more' });
        // The platform ends a result with an empty page: nothing to draw then.
        if (made.size === 0) break;
        pageTimes.push((await pageDrawn(`page ${pageTimes.length + 2}`)) - asked);
        if (pageTimes.length % MEMORY_EVERY === 0) {
          const m = await hostMemory();
          heap.push(m.heapMB);
          rss.push(m.rssMB);
        }
      }
      assert.equal(p.shownRows().length, CONVERSATIONS);
      const after = await hostMemory();
      const deep = pageTimes.slice(-20);
      recordMetric('pagingPagesRead', pageTimes.length + 1);
      recordMetric('pagingPageMedianMs', median(pageTimes));
      recordMetric('pagingPageMaxMs', Math.max(...pageTimes));
      recordMetric('pagingDeepPageMedianMs', median(deep));
      recordMetric('pagingHeapBeforeMB', before.heapMB);
      recordMetric('pagingHeapMaxMB', Math.max(...heap, after.heapMB));
      recordMetric('pagingHeapAfterMB', after.heapMB);
      recordMetric('pagingRssBeforeMB', before.rssMB);
      recordMetric('pagingRssMaxMB', Math.max(...rss, after.rssMB));
      console.log(
        `pages (ms): ${pageTimes.map(Math.round).join(' ')}; heap every ${MEMORY_EVERY} pages (MB): ${heap.map(Math.round).join(' ')}`,
      );
    } finally {
      p.dispose();
      await admin.reset();
    }
    const closed = await hostMemory();
    recordMetric('pagingHeapClosedMB', closed.heapMB);
  });
});
