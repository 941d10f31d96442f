import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ProbeResult } from '../../src/client/probe';
import { type LocalPlatform, startLocalPlatform } from '../../src/localPlatform/server';
import { activateExtension, type LocalPlatformUrls, treeItems } from '../support/editor/extension';
import { scriptedPrompts } from '../support/editor/prompts';
import { until } from '../support/until';

/** Using a local platform that already runs on this machine (as `npm start` runs one), instead of starting one. */
suite('Local platform started outside the editor', () => {
  let outside: LocalPlatform;
  const config = () => vscode.workspace.getConfiguration('agentWorkbench.localPlatform');
  const startOutside = (port?: number) =>
    startLocalPlatform({ port, seed: 'demo', demoAnchor: 'now', streamDelayMs: 0, alertEvaluationIntervalMs: 0 });
  /** The editor uses the platform running outside it, through the Local profile. */
  const useOutside = async () => {
    await config().update('url', outside.urls.origin, vscode.ConfigurationTarget.Global);
    assert.equal(
      (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))?.origin,
      outside.urls.origin,
    );
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  };

  suiteSetup(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
    outside = await startOutside();
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
    await config().update('url', undefined, vscode.ConfigurationTarget.Global);
    await outside.close();
  });

  test('Start Local Platform connects to the configured address, and the views show its demo data', async () => {
    await config().update('url', outside.urls.origin, vscode.ConfigurationTarget.Global);
    const urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    assert.equal(urls?.origin, outside.urls.origin);
    assert.equal(urls.build, outside.urls.build);
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    const results = await vscode.commands.executeCommand<ProbeResult[]>('agentWorkbench.testConnection', 'local');
    assert.deepEqual(
      results.filter((r) => r.outcome !== 'works').map((r) => r.label),
      [],
    );
    const api = await activateExtension();
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    const agents = (await treeItems(api.agentsView)).map((i) => i.label);
    assert.ok(
      agents.includes('Bella Tavola Bookings') && agents.includes('Support Desk'),
      `demo agents listed: ${agents.join(', ')}`,
    );
  });

  test('stopping lets go of it without stopping it', async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
    const res = await fetch(`${outside.urls.admin}/health`);
    assert.equal(res.status, 200);
  });

  test('a platform used from outside the editor that stops is noticed and said, with Start Local Platform offered; it is used again when it answers again', async function () {
    this.timeout(120_000);
    await useOutside();
    const ui = scriptedPrompts(await activateExtension());
    try {
      // As when it is stopped in its terminal or killed: the editor is told nothing.
      const port = Number(new URL(outside.urls.origin).port);
      await outside.close();
      const lost = await until(
        'the editor to say the platform stopped answering',
        () => ui.shown.find((s) => /^The local platform at .* stopped answering/.test(s.message)),
        { timeoutMs: 60_000 },
      );
      assert.ok(lost.message.includes(outside.urls.origin));
      assert.deepEqual(lost.items, ['Start Local Platform']);
      assert.equal(
        await vscode.commands.executeCommand('agentWorkbench.testConnection', 'local'),
        undefined,
        'the Local profile is gone while nothing answers',
      );
      // Started again at the same address: taken up again without a command.
      outside = await startOutside(port);
      await until(
        'the editor to use the platform again',
        () => ui.shown.find((s) => /answers again: the Local profile is back/.test(s.message)),
        { timeoutMs: 60_000 },
      );
      const results = await vscode.commands.executeCommand<ProbeResult[]>('agentWorkbench.testConnection', 'local');
      assert.ok(results?.length, 'the Local profile is back');
      assert.deepEqual(
        results.filter((r) => r.outcome !== 'works').map((r) => r.label),
        [],
      );
    } finally {
      ui.dispose();
      await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
    }
  });

  test("a request that finds nothing there has the editor say so at once, not at the watch's next turns", async function () {
    this.timeout(120_000);
    await useOutside();
    const ui = scriptedPrompts(await activateExtension());
    const port = Number(new URL(outside.urls.origin).port);
    try {
      await outside.close();
      const closed = performance.now();
      // The watch asks every 5 s and says a platform is gone after two failed asks in a row: 5 s at the soonest.
      await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
      await treeItems((await activateExtension()).agentsView).catch(() => []);
      const lost = await until(
        'the editor to say the platform stopped answering',
        () => ui.shown.find((s) => /^The local platform at .* stopped answering/.test(s.message)),
        { timeoutMs: 60_000 },
      );
      const ms = performance.now() - closed;
      assert.ok(lost.message.includes(outside.urls.origin));
      assert.ok(ms < 4_900, `said ${Math.round(ms)} ms after it stopped, sooner than the watch alone could`);
    } finally {
      ui.dispose();
      outside = await startOutside(port);
      await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
    }
  });

  test('a configured address where nothing answers is refused with what to do, and nothing is attached', async () => {
    await config().update('url', 'http://127.0.0.1:9', vscode.ConfigurationTarget.Global);
    const urls = await vscode.commands.executeCommand('agentWorkbench.startLocalPlatform');
    assert.equal(urls, undefined);
    await config().update('url', 'https://example.com', vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.startLocalPlatform'), undefined);
  });
});
