import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULT_FILTERS, type TranscriptsNotification } from '../../src/protocol/transcripts';
import { until } from '../support/until';
import { activateExtension, type LocalPlatformUrls, recordMetric } from '../support/editor/extension';
import {
  demoWeek,
  type DetailHandle,
  openDetail,
  openList,
  seedConversation,
  settled,
} from '../support/editor/transcriptPanels';
import { LocalAdmin } from '../support/localAdmin';
import { median } from '../support/median';

const RUNS = 7;
const TURNS = 2_000;

const now = () => performance.timeOrigin + performance.now();
/** The transcript viewer in a real editor: rows and a long conversation from the extension host to the webview's page. */
suite('Transcript viewer figures', () => {
  let admin: LocalAdmin;
  suiteSetup(async () => {
    await activateExtension();
    const urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    admin = new LocalAdmin(urls.admin);
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  test('the first 500 rows of a page: from their data to the page', async function () {
    this.timeout(300_000);
    const filters = { ...DEFAULT_FILTERS, range: 'custom' as const, ...(await demoWeek(admin)) };
    const p = await openList({ filters, ackPaint: true });
    try {
      const madeAt = new Map<number, number>();
      const painted = new Map<number, { at: number; elements: number }>();
      p.onDidNotify((n) => {
        const rows = n as Extract<TranscriptsNotification, { type: 'rows' }>;
        if (rows.type === 'rows' && rows.rows.length === 500) madeAt.set(rows.seq, now());
      });
      p.onDidPaint(({ seq, at, elements }) => painted.set(seq, { at, elements }));
      // The webview's page loads first (what it was sent before it was ready comes in one snapshot).
      await until('the webview page', () => painted.size > 0, 60_000);
      const latencies: number[] = [];
      const elements: number[] = [];
      for (let run = 0; run <= RUNS; run++) {
        await p.apply({ ...filters, channels: run % 2 ? [] : ['VOICE-SIP', 'WEBCHAT', 'CHAT'] });
        await settled(p);
        assert.equal(p.shownRows().length, 500);
        const seq = Math.max(...madeAt.keys());
        await until('the rows in the page', () => painted.has(seq), 30_000);
        // The first run warms up.
        if (run === 0) continue;
        latencies.push(painted.get(seq)!.at - madeAt.get(seq)!);
        elements.push(painted.get(seq)!.elements);
      }
      recordMetric('listRowsToPageMedianMs', median(latencies));
      recordMetric('listRowsToPageMaxMs', Math.max(...latencies));
      recordMetric('listRowElements', Math.max(...elements));
    } finally {
      p.dispose();
    }
  });

  test('a conversation of 2,000 turns: opened, and the elements in the page while scrolled', async function () {
    this.timeout(300_000);
    const started = new Date(Date.now() - 3_600_000).toISOString();
    const id = await seedConversation(admin, {
      started_at: started,
      turns: Array.from({ length: TURNS }, (_, i) => ({
        user_input: `Question ${i + 1}: ${'where is my parcel and when will it arrive '.repeat(1 + (i % 3))}`,
        agent_response: `Answer ${i + 1}: ${'it is on its way and arrives tomorrow morning '.repeat(1 + (i % 4))}`,
        latency: 150 + ((i * 37) % 600),
        intents: ['delivery_status'],
      })),
    });
    const opens: number[] = [];
    const shows: number[] = [];
    const totals: number[] = [];
    const elements: number[] = [];
    for (let run = 0; run <= 3; run++) {
      const t0 = now();
      let recordAt: number | undefined;
      let recordSeq = Number.POSITIVE_INFINITY;
      let paint: { at: number; elements: number } | undefined;
      const d: DetailHandle = await openDetail({
        conversationId: id,
        environment: 'live',
        from: started,
        ackPaint: true,
        // Opened in the middle: the page is measured while scrolled there.
        turn: 1_000 + run * 200,
      });
      try {
        d.onDidNotify((n) => {
          const s = n as Extract<TranscriptsNotification, { type: 'snapshot' }>;
          if (s.type === 'snapshot' && s.snapshot.kind === 'detail' && s.snapshot.detail && recordAt === undefined) {
            recordAt = now();
            recordSeq = s.seq;
          }
        });
        d.onDidPaint(({ seq, at, elements: n }) => {
          if (seq >= recordSeq && !paint) paint = { at, elements: n };
        });
        await until('the conversation in the page', () => paint, 60_000);
        assert.equal(d.shown!.turns.length, TURNS);
        opens.push(paint!.at - recordAt!);
        totals.push(paint!.at - t0);
        elements.push(paint!.elements);
        // Read again into the open panel: from the record's arrival to its timeline in a page already loaded.
        paint = undefined;
        recordAt = undefined;
        recordSeq = Number.POSITIVE_INFINITY;
        await d.refresh();
        await until('the conversation read again in the page', () => paint, 60_000);
        shows.push(paint!.at - recordAt!);
        elements.push(paint!.elements);
      } finally {
        d.dispose();
      }
    }
    // Opened as a person browsing does: a click on its row in the list, shown beside the list in the list's page.
    const listed = await openList({
      filters: {
        ...DEFAULT_FILTERS,
        range: 'custom',
        start: new Date(Date.parse(started) - 60_000).toISOString(),
        end: new Date(Date.now() + 60_000).toISOString(),
      },
      ackPaint: true,
    });
    const fromList: number[] = [];
    const clickToPage: number[] = [];
    try {
      let recordAt: number | undefined;
      let recordSeq = Number.POSITIVE_INFINITY;
      let paint: { at: number; elements: number } | undefined;
      let listPainted = false;
      listed.onDidNotify((n) => {
        const s = n as Extract<TranscriptsNotification, { type: 'snapshot' }>;
        if (s.type === 'snapshot' && s.snapshot.kind === 'detail' && recordAt === undefined) {
          recordAt = now();
          recordSeq = s.seq;
        }
      });
      listed.onDidPaint(({ seq, at, elements: n }) => {
        listPainted = true;
        if (seq >= recordSeq && !paint) paint = { at, elements: n };
      });
      await settled(listed);
      await until('the list in the page', () => listPainted, 60_000);
      assert.ok(
        listed.shownRows().some((r) => r.id === id),
        'the long conversation is listed',
      );
      for (let run = 0; run <= RUNS; run++) {
        recordAt = undefined;
        recordSeq = Number.POSITIVE_INFINITY;
        paint = undefined;
        const t0 = now();
        const view = (await listed.open(id)) as DetailHandle;
        await until('the conversation beside the list', () => paint, 60_000);
        assert.equal(view.shown!.turns.length, TURNS);
        // The first run warms up the page's code for the timeline.
        if (run > 0) {
          fromList.push(paint!.at - recordAt!);
          clickToPage.push(paint!.at - t0);
        }
        elements.push(paint!.elements);
        view.dispose();
      }
    } finally {
      listed.dispose();
    }
    recordMetric('longConversationFromListMedianMs', median(fromList));
    recordMetric('longConversationFromListMaxMs', Math.max(...fromList));
    recordMetric('longConversationClickToPageMedianMs', median(clickToPage));
    // The first opening also loads the webview's code for the first time in this window: all runs are kept.
    recordMetric('longConversationOpenMedianMs', median(opens));
    recordMetric('longConversationShowMedianMs', median(shows));
    recordMetric('longConversationCommandToPageMedianMs', median(totals));
    recordMetric('longConversationElements', Math.max(...elements));
  });

  test('a new webview panel with an empty page: from its creation to its script running', async function () {
    this.timeout(120_000);
    // What any new panel costs in this editor before a line of its page runs: the floor under opening in a new panel.
    const times: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const t0 = now();
      const panel = vscode.window.createWebviewPanel('agentWorkbench.benchEmpty', 'Empty', vscode.ViewColumn.Active, {
        enableScripts: true,
      });
      const ran = new Promise<void>((resolve) => panel.webview.onDidReceiveMessage(() => resolve()));
      panel.webview.html =
        '<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src \'none\'; script-src \'nonce-empty\'"></head>' +
        '<body><script nonce="empty">acquireVsCodeApi().postMessage(1)</script></body></html>';
      await ran;
      if (run > 0) times.push(now() - t0);
      panel.dispose();
    }
    recordMetric('emptyPanelMedianMs', median(times));
  });
});
