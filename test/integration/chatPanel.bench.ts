import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatLine, ChatSnapshot } from '../../src/protocol/chat';
import { epochClock } from '../../src/protocol/epochClock';
import { activateExtension, type LocalPlatformUrls, recordMetric } from '../support/editor/extension';
import { until } from '../support/until';
import { answers, type ChatPanelHandle, openChat } from '../support/editor/chatPanel';
import { scriptedPrompts } from '../support/editor/prompts';
import { LocalAdmin } from '../support/localAdmin';

const CHUNKS = 1_000;
/** Answers streamed before the measured ones: the page's first layouts and the code's first runs are not the figure. */
const WARM_UP_ANSWERS = 3;
const MESSAGES = 2_000;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The chat panel in a real editor: a streamed chunk from the extension host to the webview's page, and a long conversation. */
suite('Chat panel figures', () => {
  let urls: LocalPlatformUrls;
  suiteSetup(async () => {
    await activateExtension();
    urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  /**
   * 1,000 streamed chunks at a pace (ms between the platform's pieces): from each version of the answer reaching
   * the extension host to its text in the webview page. Recorded as chunkToPage{P95,P50}Ms{suffix}.
   */
  async function streamedChunks(paceMs: number, suffix: string): Promise<void> {
    await new LocalAdmin(urls.admin).setOptions({ streamDelayMs: paceMs });
    const p = await openChat({ mode: 'messaging', streaming: true, ackPaint: true });
    try {
      await until('the greeting', () => answers(p).length === 1);
      // When each streamed version of an answer reached the extension host: the notification is made in the same
      // turn of the event loop as the socket's message arrives. Both ends read epochClock, so they compare.
      const now = epochClock();
      // Versions not painted yet, by line: a version replaced by a newer one before it was posted is on screen
      // when the newer one is, and is timed from its own arrival.
      const waiting = new Map<string, Array<{ rev: number; at: number }>>();
      const lineOf = new Map<number, string>();
      const latencies: number[] = [];
      // Of each, the page's own part: from the message reaching the page to the text written.
      const inPage: number[] = [];
      let measuring = false;
      p.onDidNotify((n) => {
        const line = n as { type: string; line?: ChatLine; rev?: number };
        if (!measuring || line.type !== 'line' || line.line?.role !== 'agent' || !line.line.streaming) return;
        waiting.set(line.line.id, [...(waiting.get(line.line.id) ?? []), { rev: line.rev!, at: now() }]);
        lineOf.set(line.rev!, line.line.id);
      });
      p.onDidPaint(({ rev, at, inPage: own }) => {
        const id = lineOf.get(rev);
        const versions = id === undefined ? undefined : waiting.get(id);
        if (!id || !versions) return;
        for (const v of versions) if (v.rev <= rev) latencies.push(at - v.at);
        if (own !== undefined) inPage.push(own);
        waiting.set(
          id,
          versions.filter((v) => v.rev > rev),
        );
      });
      for (let i = 0; latencies.length < CHUNKS; i++) {
        measuring = i >= WARM_UP_ANSWERS;
        await p.send(`Question ${i}: what are your opening hours on Sunday, and can I return an order?`);
        await until(`answer ${i}`, () => answers(p).length === i + 2, 60_000);
      }
      recordMetric(`chunkToPageP95Ms${suffix}`, percentile(latencies, 95));
      recordMetric(`chunkToPageP50Ms${suffix}`, percentile(latencies, 50));
      recordMetric(`chunksMeasured${suffix}`, latencies.length);
      assert.ok(inPage.length > 0, 'the page told no time of its own');
      recordMetric(`chunkInPageP95Ms${suffix}`, percentile(inPage, 95));
    } finally {
      p.dispose();
      await new LocalAdmin(urls.admin).setOptions({ streamDelayMs: 0 });
    }
  }

  test('1,000 streamed chunks, 5 ms apart: from the extension host to the webview page', async function () {
    this.timeout(300_000);
    await streamedChunks(5, '');
  });

  test("1,000 streamed chunks, 40 ms apart (the local platform's own pace): from the extension host to the webview page", async function () {
    this.timeout(300_000);
    await streamedChunks(40, 'Pace40');
  });

  test('a conversation of 2,000 messages keeps a few hundred line elements in the page', async function () {
    this.timeout(120_000);
    const lines: ChatLine[] = Array.from({ length: MESSAGES }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 ? 'agent' : 'user',
      text: `Message ${i}: ${'a few words of a conversation '.repeat(1 + (i % 4))}`,
      time: new Date(Date.UTC(2026, 0, 1, 9, 0, i)).toISOString(),
    }));
    const conversation: ChatSnapshot = {
      settings: { mode: 'messaging', streaming: true, target: { label: 'Long' } },
      lines,
      inspector: [],
      status: { state: 'closed', text: 'saved', agentTyping: false, canSend: false },
    };
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'long.chat.json');
    await vscode.workspace.fs.writeFile(
      file,
      new TextEncoder().encode(
        JSON.stringify({
          format: 'agent-workbench.conversation',
          version: 1,
          savedAt: new Date().toISOString(),
          conversation,
        }),
      ),
    );
    const painted: number[] = [];
    const ui = scriptedPrompts(await activateExtension());
    ui.setAnswer((shown) => (shown.kind === 'openFile' ? 'long.chat.json' : undefined));
    let p: ChatPanelHandle | undefined;
    try {
      p = await vscode.commands.executeCommand<ChatPanelHandle>('agentWorkbench.openSavedConversation', {
        ackPaint: true,
      });
    } finally {
      ui.dispose();
    }
    assert.ok(p, 'the saved conversation opened');
    const panel = p;
    try {
      const sub = panel.onDidPaint(({ elements }) => painted.push(elements));
      await until('the conversation in the page', () => painted.length > 0, 60_000);
      // The person scrolls from one end of the conversation to the other and back, twice.
      for (const to of ['top', 'bottom', 'top', 'bottom'] as const) {
        const seen = painted.length;
        panel.scroll(to);
        await until(`the conversation scrolled to its ${to}`, () => painted.length > seen, 30_000);
      }
      sub.dispose();
      assert.equal(panel.snapshot().lines.length, MESSAGES);
      recordMetric('longConversationElements', Math.max(...painted));
      recordMetric('longConversationPaintsMeasured', painted.length);
    } finally {
      panel.dispose();
      await vscode.workspace.fs.delete(file);
    }
  });
});
