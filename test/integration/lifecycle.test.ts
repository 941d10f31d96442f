import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { until } from '../support/until';
import { answers, openChat } from '../support/editor/chatPanel';
import { scriptedPrompts } from '../support/editor/prompts';
import {
  activateExtension,
  type LocalPlatformUrls,
  treeItems,
  type WorkbenchExports,
} from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';

/** Node's handles of the extension host by kind (timers, sockets, servers, watchers, child processes). */
function handles(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** Kinds with more handles now than before, waiting up to `ms` for closing sockets and ending processes. */
async function handlesLeft(before: Map<string, number>, ms = 5000): Promise<string[]> {
  const more = () =>
    [...handles()]
      .filter(([kind, n]) => n > (before.get(kind) ?? 0))
      .map(([kind, n]) => `${kind}: ${before.get(kind) ?? 0} → ${n}`);
  return until('no more handles than before', () => more().length === 0, { timeoutMs: ms, intervalMs: 100 }).then(
    () => [],
    () => more(),
  );
}

const POLL_SETTING = 'agentWorkbench.alerts.pollIntervalSeconds';

const ownCommands = async (): Promise<string[]> =>
  (await vscode.commands.getCommands(true)).filter(
    (c) =>
      c.startsWith('agentWorkbench.') && !/^agentWorkbench\.(agents|alerts|webhookDeliveries|replayResults)\./.test(c),
  );

suite('Activation and deactivation', () => {
  let api: WorkbenchExports;

  suiteSetup(async () => {
    api = await activateExtension();
  });

  // Whatever happens, leave the extension active for the suites after this one.
  suiteTeardown(() => api.testing!.activate());

  test('deactivating after real use (views, chat, webhook receiver, alerts watcher) leaves no listener, timer, watcher, socket, server or child process behind', async function () {
    this.timeout(60_000);
    const testing = api.testing!;
    await testing.deactivate();
    assert.deepEqual(await ownCommands(), [], 'deactivation unregisters every command');
    // The alerts watcher reads on a timer (the test hosts switch it off); the person dismisses every question.
    const settings = vscode.workspace.getConfiguration();
    const interval = settings.inspect<number>(POLL_SETTING)?.globalValue;
    await settings.update(POLL_SETTING, 5, vscode.ConfigurationTarget.Global);
    const ui = scriptedPrompts(api);
    const before = handles();
    const tracking = testing.trackDisposables();
    try {
      testing.activate();
      assert.ok((await ownCommands()).includes('agentWorkbench.publish'), 'activation registers the commands again');
      // Use what holds resources: the local platform, the client's keep-alive connections, both views, the file watcher.
      const urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
      await new LocalAdmin(urls.admin).reset('demo');
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
      const [agent] = await treeItems(api.agentsView);
      assert.ok(agent, 'the Agents view shows the local agents');
      await treeItems(api.agentsView, agent.node);
      await vscode.commands.executeCommand('agentWorkbench.refreshAlerts');
      await vscode.commands.executeCommand('agentWorkbench.testConnection', 'local');
      // A chat panel with its WebSocket, the webhook receiver's listener, and a reading of the alerts watcher.
      const chat = await openChat({ mode: 'messaging', streaming: true });
      await until('the greeting', () => answers(chat).length === 1);
      let chatClosed = false;
      chat.panel.onDidDispose(() => (chatClosed = true));
      const receiver = await vscode.commands.executeCommand<{ url: string }>('agentWorkbench.startWebhookReceiver');
      assert.ok(receiver?.url, ui.lastError());
      assert.equal((await fetch(receiver.url, { method: 'POST', body: '{}' })).status, 200, 'the receiver listens');
      await vscode.commands.executeCommand('agentWorkbench.checkAlerts');

      await testing.deactivate();
      assert.deepEqual(await ownCommands(), []);
      await assert.rejects(fetch(`${urls.origin}/_local/health`), 'the local platform stopped with the extension');
      assert.deepEqual(tracking.undisposed(), [], 'subscriptions and stores the extension made and never released');
      assert.deepEqual(await handlesLeft(before), [], 'handles of the extension host left open');
      assert.ok(chatClosed, 'the chat panel closed with the extension');
      await assert.rejects(fetch(receiver.url, { method: 'POST', body: '{}' }), 'the receiver stopped listening');
    } finally {
      tracking.stop();
      ui.dispose();
      await settings.update(POLL_SETTING, interval, vscode.ConfigurationTarget.Global);
    }
  });
});
