import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ProbeResult } from '../../src/client/probe';
import { type LocalPlatform, startLocalPlatform } from '../../src/localPlatform/server';
import { activateExtension, type LocalPlatformUrls, treeItems } from '../support/editor/extension';

/** Using a local platform that already runs on this machine (as `npm start` runs one), instead of starting one. */
suite('Local platform started outside the editor', () => {
  let outside: LocalPlatform;
  const config = () => vscode.workspace.getConfiguration('agentWorkbench.localPlatform');

  suiteSetup(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
    outside = await startLocalPlatform({
      seed: 'demo',
      demoAnchor: 'now',
      streamDelayMs: 0,
      alertEvaluationIntervalMs: 0,
    });
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

  test('a configured address where nothing answers is refused with what to do, and nothing is attached', async () => {
    await config().update('url', 'http://127.0.0.1:9', vscode.ConfigurationTarget.Global);
    const urls = await vscode.commands.executeCommand('agentWorkbench.startLocalPlatform');
    assert.equal(urls, undefined);
    await config().update('url', 'https://example.com', vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.startLocalPlatform'), undefined);
  });
});
