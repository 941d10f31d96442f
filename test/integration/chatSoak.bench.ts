import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, type LocalPlatformUrls, recordMetric } from '../support/editor/extension';
import { answers, type ChatPanelHandle, greeted, openChat } from '../support/editor/chatPanel';
import { hostMemory } from '../support/editor/hostMemory';
import { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';

/** How long the soak lasts: 30 minutes unless AGENT_WORKBENCH_SOAK_MINUTES says otherwise (a quick check). */
const SOAK_MINUTES = Number(process.env.AGENT_WORKBENCH_SOAK_MINUTES ?? 30);
/** Turns of one conversation before Restart starts the next; every few conversations the panel is closed and opened again. */
const TURNS_PER_CONVERSATION = 20;
const CONVERSATIONS_PER_PANEL = 5;
/** What the person waits before the next message, once the answer is complete. */
const PAUSE_MS = 500;
const QUESTIONS = [
  'What are your opening hours on Sunday?',
  'Can I return an order I bought online in a store?',
  'How long does delivery take?',
  'Where is my parcel? My order number is 40417.',
  'Do you offer gift wrapping?',
  'How do I reset my password?',
];

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * A chat kept going for 30 minutes in a real editor: the messaging API with streamed answers (the local platform's
 * pace, a piece every 40 ms) through the chat panel and its webview, one message after another's complete answer,
 * conversations of 20 turns started anew with Restart, and the panel closed and opened again every five
 * conversations. The extension host's heap and resident memory (after a full collection) once the first
 * conversation has warmed everything up, every minute, and at the end; each turn from its message sent to its
 * answer complete in the panel.
 */
suite('Chat soak figures', () => {
  test(`a chat of ${SOAK_MINUTES} minutes with streamed answers: the extension host's memory stays flat`, async function () {
    this.timeout((SOAK_MINUTES + 10) * 60_000);
    await activateExtension();
    const urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    const admin = new LocalAdmin(urls.admin);
    await admin.reset();
    await admin.setOptions({ streamDelayMs: 40 });

    let p: ChatPanelHandle | undefined;
    let turns = 0;
    let conversations = 0;
    let pieces = 0;
    const latencies: Array<{ at: number; ms: number }> = [];
    const open = async (): Promise<ChatPanelHandle> => {
      const panel = await openChat({ mode: 'messaging', streaming: true, target: { label: 'Support Desk' } });
      panel.onDidNotify((n) => {
        const { line } = n as { line?: { role: string; streaming?: boolean } };
        if (line?.role === 'agent' && line.streaming) pieces++;
      });
      await greeted(panel, 'the greeting', 60_000);
      return panel;
    };
    /** One conversation of TURNS_PER_CONVERSATION turns, then a new one started (Restart, or a new panel). */
    const conversation = async (): Promise<void> => {
      const panel: ChatPanelHandle = p ?? (p = await open());
      for (let t = 0; t < TURNS_PER_CONVERSATION; t++) {
        const before = answers(panel).length;
        const sent = performance.now();
        await panel.send(QUESTIONS[turns % QUESTIONS.length]!);
        await until(`the answer to turn ${turns + 1}`, () => answers(panel).length > before, {
          timeoutMs: 60_000,
          intervalMs: 2,
        });
        latencies.push({ at: performance.now(), ms: performance.now() - sent });
        turns++;
        assert.equal(panel.snapshot().status.state, 'open', `the session stays open (turn ${turns})`);
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
      conversations++;
      if (conversations % CONVERSATIONS_PER_PANEL === 0) {
        panel.dispose();
        p = undefined;
        p = await open();
      } else {
        await panel.restart();
        await greeted(panel, 'the greeting after Restart', 60_000);
      }
    };

    try {
      // Warm-up: the panel's page, the client's code and the platform's first answers; not counted.
      await conversation();
      const start = await hostMemory();
      const startedAt = performance.now();
      const deadline = startedAt + SOAK_MINUTES * 60_000;
      const warmTurns = turns;
      const heap: number[] = [start.heapMB];
      let nextReading = startedAt + 60_000;
      while (performance.now() < deadline) {
        await conversation();
        if (performance.now() >= nextReading) {
          heap.push((await hostMemory()).heapMB);
          nextReading += 60_000;
        }
      }
      const end = await hostMemory();
      const minutes = (performance.now() - startedAt) / 60_000;
      const counted = latencies.slice(warmTurns);
      const firstFive = counted.filter((l) => l.at - startedAt < 5 * 60_000).map((l) => l.ms);
      const lastFive = counted.filter((l) => deadline - l.at < 5 * 60_000).map((l) => l.ms);
      recordMetric('soakMinutes', minutes);
      recordMetric('soakTurns', turns - warmTurns);
      recordMetric('soakConversations', conversations - 1);
      recordMetric('soakPieces', pieces);
      recordMetric('soakHeapStartMB', start.heapMB);
      recordMetric('soakHeapEndMB', end.heapMB);
      recordMetric('soakHeapMaxMB', Math.max(...heap, end.heapMB));
      recordMetric('soakRssStartMB', start.rssMB);
      recordMetric('soakRssEndMB', end.rssMB);
      recordMetric('soakTurnP95FirstMs', percentile(firstFive, 95));
      recordMetric('soakTurnP95LastMs', percentile(lastFive, 95));
      recordMetric(
        'soakTurnP50Ms',
        percentile(
          counted.map((l) => l.ms),
          50,
        ),
      );
      console.log(
        `soak: heap every minute (MB): ${heap.map((h) => h.toFixed(1)).join(' ')}; end ${end.heapMB.toFixed(1)}`,
      );
    } finally {
      p?.dispose();
      await admin.setOptions({ streamDelayMs: 0 });
    }
  });
});
