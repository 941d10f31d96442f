import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULT_FILTERS } from '../../src/protocol/transcripts';
import { PanelHost } from '../../src/ui/panels/panelHost';
import { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';
import { answers, openChat } from '../support/editor/chatPanel';
import {
  activateExtension,
  getExtension,
  type LocalPlatformUrls,
  openPanel,
  type WorkbenchExports,
} from '../support/editor/extension';
import { scriptedPrompts } from '../support/editor/prompts';
import { checkWebview } from '../support/editor/webviews';
import { demoWeek, openDetail, openList, settled } from '../support/editor/transcriptPanels';

/** What the chart and replay commands return, as this suite uses them. */
interface ViewPanelHandle {
  readonly panel: vscode.WebviewPanel;
  readonly view: { state: string; message?: string };
  readonly onDidDispose: vscode.Event<void>;
  dispose(): void;
}
interface ReplayHandle extends ViewPanelHandle {
  readonly finished: Promise<void>;
}

/**
 * Opens every panel, uses it as a person would, checks its webview (the page's policy, where it may load from), and
 * closes it: the chat in both modes with a message each, the
 * transcript list with a conversation opened beside it and one in a panel of its own, the concurrency chart, a
 * replay, and the webhook receiver's view with a delivery.
 */
async function useEveryPanel(urls: LocalPlatformUrls): Promise<void> {
  for (const mode of ['messaging', 'chatApi'] as const) {
    const chat = await openChat({ mode, streaming: mode === 'messaging', target: { label: `Lifecycle ${mode}` } });
    await until(`the ${mode} greeting`, () => answers(chat).length === 1, 30_000);
    checkWebview(chat.panel, `the chat (${mode})`);
    await chat.send('What are your opening hours?');
    await until(`the ${mode} answer`, () => answers(chat).length === 2, 30_000);
    chat.dispose();
  }

  const list = await openList({
    filters: { ...DEFAULT_FILTERS, range: 'custom', ...(await demoWeek(new LocalAdmin(urls.admin))) },
  });
  await until('the first page of conversations', () => list.shownRows().length > 0, 60_000);
  checkWebview(list.panel, 'the conversations');
  await settled(list);
  const row = list.shownRows().find((r) => !r.inProgress && !r.handoff && r.turns >= 3 && r.turns <= 6);
  assert.ok(row, 'a finished demo conversation to open and replay');
  const beside = (await list.open(row.id)) as { loaded: Promise<void> } | undefined;
  await beside?.loaded;
  await list.command({ type: 'find', text: 'order', conversationId: row.id });
  const detail = await openDetail({ conversationId: row.id });
  await detail.loaded;
  checkWebview(detail.panel, 'a conversation');
  detail.dispose();
  list.dispose();

  const chart = await openPanel<ViewPanelHandle>('agentWorkbench.openConcurrencyChart', {
    agentId: 'ag_support',
    label: 'Support Desk',
  });
  await until('the chart', () => chart.view.state === 'ready' || chart.view.state === 'failed', 30_000);
  assert.equal(chart.view.state, 'ready', chart.view.message);
  checkWebview(chart.panel, 'the concurrency chart');
  chart.dispose();

  const replay = await openPanel<ReplayHandle>('agentWorkbench.replayConversation', {
    conversationId: row.id,
    variantId: '',
  });
  await replay.finished;
  assert.equal(replay.view.state, 'done', replay.view.message);
  checkWebview(replay.panel, 'a replay');
  replay.dispose();

  const receiver = await vscode.commands.executeCommand<{ url: string }>('agentWorkbench.startWebhookReceiver');
  assert.ok(receiver?.url, 'the webhook receiver listens');
  assert.equal((await fetch(receiver.url, { method: 'POST', body: '{}' })).status, 200);
  await until('the delivery listed with its verdict', async () => {
    const listed = await vscode.commands.executeCommand<Array<{ delivery: { verdict: { checking?: boolean } } }>>(
      'agentWorkbench.refreshWebhookDeliveries',
    );
    return listed[0] && !listed[0].delivery.verdict.checking;
  });
  await vscode.commands.executeCommand('agentWorkbench.clearWebhookDeliveries');
  await vscode.commands.executeCommand('agentWorkbench.stopWebhookReceiver');
}

/** What the tracker still lists, waiting a little for what closes asynchronously (a socket, a read under way). */
async function leftAfter(tracking: { undisposed(): string[] }, ms = 5_000): Promise<string[]> {
  return until('nothing left undisposed', () => tracking.undisposed().length === 0, {
    timeoutMs: ms,
    intervalMs: 100,
  }).then(
    () => [],
    () => tracking.undisposed(),
  );
}

suite('Lifecycle of the panels', () => {
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;

  suiteSetup(async () => {
    api = await activateExtension();
    urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    await new LocalAdmin(urls.admin).reset('demo');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
  });

  test('every panel opened, used and closed releases every subscription, emitter and store it made', async function () {
    this.timeout(240_000);
    // The person dismisses every question (the receiver's offer to register it as an endpoint).
    const ui = scriptedPrompts(api);
    try {
      // A first round makes what lives as long as the extension and is made on first use (the clients, the
      // panels' socket server); the second, tracked, round must leave nothing of its own behind.
      await useEveryPanel(urls);
      const tracking = api.testing!.trackDisposables();
      try {
        await useEveryPanel(urls);
        const left = await leftAfter(tracking);
        assert.equal(
          left.length,
          0,
          `${left.length} disposables made while the panels were used were never released, made at:\n\n${left.join('\n\n')}`,
        );
      } finally {
        tracking.stop();
      }
    } finally {
      ui.dispose();
    }
  });

  test('a shown page that never says it is ready is written once more after its bound, only once, and that is logged', async () => {
    /** A host whose page loads no app (it can never say `ready`): what it logs, and the html it wrote. */
    const blank = (readyWithinMs: number, column: vscode.ViewColumn) => {
      const panel = vscode.window.createWebviewPanel('agentWorkbench.blankPage', 'Blank page', column);
      const logged: string[] = [];
      const host = new PanelHost(panel, getExtension().extensionUri, {
        app: 'no-such-app',
        isCommand: (_v): _v is never => false,
        isRequest: (_v): _v is never => false,
        onReady: () => logged.push('ready'),
        onCommand: () => undefined,
        requests: {},
        onRejected: (reason) => logged.push(reason),
        readyWithinMs,
      });
      return { panel, host, logged, first: panel.webview.html };
    };
    const quick = blank(200, vscode.ViewColumn.Active);
    try {
      await until('the page written once more', () => quick.logged.length > 0);
      assert.deepEqual(quick.logged, ['the page did not say it was ready within 0.2 s; writing it once more']);
      assert.notEqual(quick.panel.webview.html, quick.first, 'a new page (a new nonce) is written');
      // A second blank page with five times the bound is the barrier: once it is written again, the first page had
      // five bounds to be written a third time.
      const slow = blank(1_000, vscode.ViewColumn.Beside);
      try {
        await until('the slower page written once more', () => slow.logged.length > 0);
        assert.ok(quick.panel.visible, 'the first page stayed shown beside the second');
        assert.equal(quick.logged.length, 1, 'a page is written once more only once until it says ready');
      } finally {
        slow.host.dispose();
        slow.panel.dispose();
      }
    } finally {
      quick.host.dispose();
      quick.panel.dispose();
    }
  });
});
