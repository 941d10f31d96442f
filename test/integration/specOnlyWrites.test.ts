import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ResponsesMode } from '../../src/localPlatform/responsesMode';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';
import { LocalAdmin } from '../support/localAdmin';

/**
 * The writes of the Agents and Alerts APIs that the other spec-only suites do not reach, from their commands,
 * against a platform that has only the spec's endpoints (the local platform's spec-only mode, whatever mode the
 * run set): each is sent once, and nothing unshown is needed first.
 */
suite('Agents and Alerts writes in spec-only mode', () => {
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  let modeBefore: ResponsesMode;
  const sent = async (method: string, path: RegExp) =>
    (await admin.requests({ base: 'build' })).filter((r) => r.method === method && path.test(r.path));

  suiteSetup(async () => {
    ui = scriptedPrompts(await activateExtension());
    urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    admin = new LocalAdmin(urls.admin);
    modeBefore = (await admin.responses()).mode;
    await admin.setResponses('spec-only');
    await admin.reset();
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  suiteTeardown(async () => {
    ui.dispose();
    await admin.setResponses(modeBefore);
    await admin.reset();
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
  });

  setup(() => {
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
  });

  test('[AGENT-2] Create Branch sends one POST branches where the branch list cannot be read', async () => {
    const branch = await vscode.commands.executeCommand<{ name: string }>(
      'agentWorkbench.createBranch',
      { agentId: 'ag_support' },
      'feature/spec-only',
    );
    assert.equal(branch?.name, 'feature/spec-only', ui.lastError());
    assert.equal((await sent('POST', /^\/v1\/agents\/ag_support\/branches$/)).length, 1);
  });

  test('[AGENT-12] Import Numbers sends the E.164 numbers by one POST phone-numbers', async () => {
    const report = await vscode.commands.executeCommand<{ imported: string[] }>(
      'agentWorkbench.importNumbers',
      { agentId: 'ag_support' },
      { numbers: ['+14155550191'], clientEnv: 'sandbox' },
    );
    assert.deepEqual(report?.imported, ['+14155550191'], ui.lastError());
    assert.equal((await sent('POST', /^\/v1\/agents\/ag_support\/telephony\/phone-numbers$/)).length, 1);
  });

  test('[HOOK-1] Create Webhook Endpoint sends one POST and shows the signing secret once', async () => {
    ui.setAnswer((s) => (s.modal && /^Signing secret/.test(s.message) ? 'Copy Only' : undefined));
    const result = await vscode.commands.executeCommand<{ endpoint: { name: string } }>(
      'agentWorkbench.createWebhookEndpoint',
      { name: 'Spec-only pager', url: 'http://127.0.0.1:9/alerts', event_types: ['alerts.triggered'] },
    );
    assert.equal(result?.endpoint.name, 'Spec-only pager', ui.lastError());
    assert.equal((await sent('POST', /^\/v1\/webhook-endpoints$/)).length, 1);
    assert.equal(ui.shown.filter((s) => s.modal && /^Signing secret/.test(s.message)).length, 1);
  });
});
