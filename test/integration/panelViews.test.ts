import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChartQuery, ChartView } from '../../src/protocol/concurrency';
import { DEFAULT_FILTERS } from '../../src/protocol/transcripts';
import type { ReplayView } from '../../src/protocol/replay';
import { LocalAdmin } from '../support/localAdmin';
import { until } from '../support/until';
import { answers, type ChatPanelHandle, openChat } from '../support/editor/chatPanel';
import {
  activateExtension,
  type LocalPlatformUrls,
  openPanel,
  type WorkbenchExports,
} from '../support/editor/extension';
import {
  demoWeek,
  type DetailHandle,
  type ListHandle,
  openDetail,
  openList,
  settled,
} from '../support/editor/transcriptPanels';

/** A panel drawn from one view model (the chart, a replay), as this suite drives it. */
interface ViewPanelHandle<V> {
  readonly panel: vscode.WebviewPanel;
  readonly view: V;
  readonly onDidLoad: vscode.Event<void>;
  dispose(): void;
}
interface ChartHandle extends ViewPanelHandle<ChartView> {
  show(query: ChartQuery): Promise<ChartView>;
  readonly onDidDraw: vscode.Event<number>;
}
interface ReplayHandle extends ViewPanelHandle<ReplayView> {
  readonly finished: Promise<void>;
}

/** Counts an event from now on, for a wait on the next one. */
function counter<T>(event: vscode.Event<T>): { readonly count: number; dispose(): void } {
  let count = 0;
  const listening = event(() => count++);
  return {
    get count() {
      return count;
    },
    dispose: () => listening.dispose(),
  };
}

/** Another editor in the panel's group hides the panel (its page is discarded); revealing it shows it again. */
async function hideAndShow(panel: vscode.WebviewPanel): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'in front of the panel' });
  await vscode.window.showTextDocument(doc, { viewColumn: panel.viewColumn, preview: false });
  await until('the panel hidden', () => !panel.visible);
  panel.reveal();
  await until('the panel shown again', () => panel.visible);
}

/** The panel's tab is moved into the group on its right (made for it). */
async function moveRight(panel: vscode.WebviewPanel): Promise<void> {
  panel.reveal();
  await until('the panel active', () => panel.active);
  const before = panel.viewColumn;
  await vscode.commands.executeCommand('workbench.action.moveEditorToRightGroup');
  await until('the panel in another group', () => panel.viewColumn !== before && panel.visible);
}

/**
 * Every panel keeps working after its tab is hidden and shown again, moved to another group, and after a window
 * reload (VS Code hands the state its page kept to the panel type's serializer). Working means the page asked
 * for its content again and what the host then changes reaches the page and is drawn there.
 */
suite('Panels hidden, shown, moved and restored', function () {
  this.timeout(240_000);
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  const open: Array<{ dispose(): void }> = [];

  suiteSetup(async () => {
    api = await activateExtension();
    urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    await new LocalAdmin(urls.admin).reset('demo');
  });

  teardown(async () => {
    open.splice(0).forEach((p) => p.dispose());
    await vscode.commands.executeCommand('workbench.action.closeAllGroups');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
  });

  test('the concurrency chart draws again after hide and show, after a move, and restored after a reload', async () => {
    const p = await openPanel<ChartHandle>('agentWorkbench.openConcurrencyChart', {
      preset: '6h',
      environment: 'live',
    });
    open.push(p);
    const draws = counter(p.onDidDraw);
    await until('the first chart drawn', () => p.view.state === 'ready' && draws.count > 0, 60_000);
    const drawnAgain = async (what: string, handle: ChartHandle, counted: { count: number }) => {
      const seen = counted.count;
      const view = await handle.show({ ...handle.view.query, sliceByVariant: !handle.view.query.sliceByVariant });
      assert.equal(view.state, 'ready', view.message);
      await until(`the chart drawn by the page ${what}`, () => counted.count > seen, 60_000);
    };

    const loads = counter(p.onDidLoad);
    await hideAndShow(p.panel);
    // The page shows the view it kept (which tells the host what it drew) and asks for the current one.
    await until('the page loaded again after hide and show', () => loads.count > 0, 60_000);
    await drawnAgain('after hide and show', p, draws);

    await moveRight(p.panel);
    await drawnAgain('after a move', p, draws);

    const restored = (await api.testing!.restorePanel('agentWorkbench.concurrency', p.view)) as ChartHandle;
    assert.ok(restored, 'the chart comes back after a reload');
    open.push(restored);
    const restoredDraws = counter(restored.onDidDraw);
    await until('the restored chart drawn', () => restored.view.state === 'ready' && restoredDraws.count > 0, 60_000);
    assert.deepEqual(restored.view.query, p.view.query, 'the same range');
    await drawnAgain('after a reload', restored, restoredDraws);
    draws.dispose();
    loads.dispose();
    restoredDraws.dispose();
  });

  test('a replay loads its page again after hide and show and after a move, and comes back after a reload with its turns', async () => {
    const list = await openList({
      filters: { ...DEFAULT_FILTERS, range: 'custom', ...(await demoWeek(new LocalAdmin(urls.admin))) },
    });
    open.push(list);
    await settled(list);
    const row = list.shownRows().find((r) => !r.inProgress && !r.handoff && r.turns >= 3 && r.turns <= 6);
    assert.ok(row, 'a finished demo conversation to replay');
    list.dispose();
    const p = await openPanel<ReplayHandle>('agentWorkbench.replayConversation', {
      conversationId: row.id,
      variantId: '',
    });
    open.push(p);
    await p.finished;
    assert.equal(p.view.state, 'done', p.view.message);

    const loads = counter(p.onDidLoad);
    await hideAndShow(p.panel);
    await until('the page loaded again after hide and show', () => loads.count > 0, 60_000);
    const seen = loads.count;
    await moveRight(p.panel);
    await until('the page loaded again after a move', () => loads.count > seen, 60_000);
    loads.dispose();

    const restored = (await api.testing!.restorePanel('agentWorkbench.replay', p.view)) as ReplayHandle;
    assert.ok(restored, 'the replay comes back after a reload');
    open.push(restored);
    const restoredLoads = counter(restored.onDidLoad);
    await until('the restored page loaded', () => restoredLoads.count > 0, 60_000);
    restoredLoads.dispose();
    assert.deepEqual(
      restored.view.turns.map((t) => t.replayed),
      p.view.turns.map((t) => t.replayed),
    );
  });

  test('a chat paints a new message after hide and show and after a move (its reload is in the chat suite)', async () => {
    const p: ChatPanelHandle = await openChat({ mode: 'chatApi', ackPaint: true, target: { label: 'Moved' } });
    open.push(p);
    await until('the greeting', () => answers(p).length === 1, 60_000);
    const painted = async (what: string, question: string) => {
      const lines: number[] = [];
      const listening = p.onDidPaint((e) => lines.push(e.elements));
      try {
        const before = answers(p).length;
        await p.send(question);
        await until('the answer', () => answers(p).length > before, 60_000);
        await until(`the answer in the page ${what}`, () => lines.includes(p.snapshot().lines.length), 60_000);
      } finally {
        listening.dispose();
      }
    };
    await hideAndShow(p.panel);
    await painted('after hide and show', 'What are your opening hours?');
    await moveRight(p.panel);
    await painted('after a move', 'Do you deliver?');
  });

  test('the conversation list and a conversation paint again after hide and show and after a move', async function () {
    // Failed once in a full npm test on the 2-core machine: the list shown again was not repainted within the wait while
    // the workbench was busy; it passed in the integration run before it.
    this.retries(1);
    const week = await demoWeek(new LocalAdmin(urls.admin));
    const list: ListHandle = await openList({
      filters: { ...DEFAULT_FILTERS, range: 'custom', ...week },
      ackPaint: true,
    });
    open.push(list);
    await settled(list);
    const row = list.shownRows().find((r) => !r.inProgress);
    assert.ok(row, 'a demo conversation');
    const detail: DetailHandle = await openDetail({ conversationId: row.id, ackPaint: true });
    open.push(detail);
    await detail.loaded;

    const paintedAfter = async (
      what: string,
      handle: { onDidPaint: ListHandle['onDidPaint'] },
      change: () => unknown,
    ) => {
      const paints = counter(handle.onDidPaint);
      try {
        await change();
        await until(`a change painted ${what}`, () => paints.count > 0, 60_000);
      } finally {
        paints.dispose();
      }
    };
    // A change of filter repaints the list whatever fields the platform answers with (masking numbers changes
    // nothing where an answer carries none, as the spec-minimal answers do).
    let finishedOnly = false;
    const refilter = async (): Promise<void> => {
      finishedOnly = !finishedOnly;
      await list.apply({ ...DEFAULT_FILTERS, range: 'custom', ...week, progress: finishedOnly ? 'finished' : 'any' });
    };
    for (const [name, handle, change] of [
      ['list', list, refilter],
      ['conversation', detail, () => detail.refresh()],
    ] as const) {
      await hideAndShow(handle.panel);
      await paintedAfter(`in the ${name} after hide and show`, handle, change);
      await moveRight(handle.panel);
      await paintedAfter(`in the ${name} after a move`, handle, change);
    }
  });
});
