import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ProbeResult } from '../../src/client/probe';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { until } from '../support/until';
import type { ScriptedPrompts, Shown } from '../support/editor/prompts';
import { type LocalPlatformUrls, treeItems, type WorkbenchExports } from '../support/editor/extension';
import { editorSuite } from '../support/editor/suite';
import { TEST_KEYS } from '../support/secretsScan';

/** What a newcomer meets when connecting: each outcome is said, and each failure leads to its fix. */
suite('First use: connecting, testing and switching', () => {
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let ui: ScriptedPrompts;
  const added: string[] = [];

  /** A profile on this machine; `build` replaces the build address (a port where nothing answers, say). */
  async function addProfile(name: string, opts: { build?: string; agentsKey?: string } = {}): Promise<string> {
    const profile = await vscode.commands.executeCommand<{ id: string }>('agentWorkbench.addProfile', {
      name,
      accountId: 'ACCOUNT-a1b2c3d',
      projectId: 'PROJECT-5a7e1c0d',
      region: 'custom',
      runtimeUrl: urls.runtime,
      buildUrl: opts.build ?? urls.build,
      messagingUrl: urls.messaging,
      activate: false,
      ...(opts.agentsKey ? { credentials: { agentsApiKey: opts.agentsKey } } : {}),
    });
    added.push(profile.id);
    return profile.id;
  }

  const editor = editorSuite({ reset: 'once' });
  suiteSetup(() => ({ api, urls, ui } = editor));

  suiteTeardown(async () => {
    ui.setAnswer((s) => (s.modal ? 'Remove' : undefined));
    for (const id of added) await vscode.commands.executeCommand('agentWorkbench.removeProfile', id);
    await vscode.commands.executeCommand('agentWorkbench.startLocalPlatform');
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  test('Connect to a Platform offers the local platform, a new profile and the saved ones', async () => {
    const saved = await addProfile('Acme staging');
    await vscode.commands.executeCommand('agentWorkbench.connect');
    const pick = ui.shown.find((s) => s.kind === 'pick');
    assert.deepEqual(pick?.items.slice(0, 2), [
      '$(server-environment) Use the Local Platform',
      '$(add) Add Connection Profile…',
    ]);
    assert.ok(pick.items.includes('Acme staging'), 'the saved profile is offered');
    ui.setAnswer((s) => (s.kind === 'pick' ? 'Acme staging' : undefined));
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.connect'), saved);
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  test('a key set for a profile not in use offers to use it, and does not switch by itself', async () => {
    const id = await addProfile('Keys later');
    await vscode.commands.executeCommand('agentWorkbench.setCredential', {
      profileId: id,
      credential: 'agentsApiKey',
      value: LOCAL_KEYS.agents,
    });
    const told = ui.shown.find((s) => s.kind === 'info');
    assert.match(
      told?.message ?? '',
      /^Agents API key of "Keys later" saved .* The profile in use is still "Local platform"\./,
    );
    assert.deepEqual(told?.items, ['Use This Profile', 'Test Connection']);
    assert.ok(
      (await treeItems(api.agentsView)).some((i) => i.label === 'Support Desk'),
      'the view still shows the profile in use',
    );
  });

  test('an unreachable platform is named by host and by the address setting typed', async () => {
    const id = await addProfile('Nowhere', { build: 'http://127.0.0.1:9', agentsKey: LOCAL_KEYS.agents });
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', id);
    try {
      await vscode.commands.executeCommand('agentWorkbench.createAgent', { name: 'Never', description: '' });
      const error = await until('the error', () => ui.shown.find((s) => s.kind === 'error'));
      assert.match(error.message, /could not be reached at 127\.0\.0\.1:9 \(nothing answers there/);
      assert.match(error.message, /Check the build address of the connection profile/);
    } finally {
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    }
  });

  test('Test Connection names the APIs that failed, and a failed row leads to its fix', async () => {
    const id = await addProfile('Wrong key', { agentsKey: TEST_KEYS.wrongAgents });
    let fix: Shown | undefined;
    ui.setAnswer((s) => {
      if (s.items.includes('Show Details')) return 'Show Details';
      if (s.kind === 'pick' && s.message === 'Choose a row to fix it')
        return s.items.find((i) => i.endsWith(' Agents API'));
      if (s.kind === 'input') fix = s;
      return undefined;
    });
    const results = await vscode.commands.executeCommand<ProbeResult[]>('agentWorkbench.testConnection', id);
    assert.equal(results.find((r) => r.family === 'agents')?.outcome, 'rejected');
    const summary = ui.shown.find((s) => s.kind === 'warning')!;
    assert.match(summary.message, /^"Wrong key": \d+ of 8 APIs work\. Failed: Agents API \(credential refused\)/);
    assert.match(summary.message, /Not configured: .*DNI API/);
    await until('the fix offered', () => fix);
    assert.equal(fix!.detail, 'Agents API key for "Wrong key"', 'the row led to setting that key');

    // The log names the profile and the host of each request (written asynchronously: wait for the line).
    const dir = dirname(api.logUri.fsPath);
    const walk = (d: string): string[] =>
      readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
    const line = await until('the log line of the refused key', () =>
      walk(dir)
        .filter((f) => f.includes('Agent Workbench'))
        .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
        .find((l) => /\[Wrong key\] GET 127\.0\.0\.1:\d+\/build\/v1\/agents\S* → 401/.test(l)),
    );
    assert.ok(!line.includes(TEST_KEYS.wrongAgents), line);
  });

  test('Remove Connection Profile says what it removed', async () => {
    const id = await addProfile('Short lived');
    ui.setAnswer((s) => (s.modal ? 'Remove' : undefined));
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.removeProfile', id), true);
    added.splice(added.indexOf(id), 1);
    assert.ok(ui.shown.some((s) => s.message === 'Profile "Short lived" and its keys and tokens were removed.'));
  });

  test('an open read-only document of one profile is closed on a switch, never read from the other platform', async () => {
    const other = await addProfile('Other platform', { agentsKey: LOCAL_KEYS.agents });
    const [agent] = await treeItems(api.agentsView);
    const [main] = await treeItems(api.agentsView, agent!.node);
    const [behavior] = await treeItems(api.agentsView, main!.node);
    const uri = behavior!.item.command!.arguments![0] as vscode.Uri;
    assert.match(uri.path, /^\/local\/.*\/behavior — Support Desk \(main\)\.md$/);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const open = () =>
      vscode.window.tabGroups.all.some((g) =>
        g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()),
      );
    assert.ok(open());
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', other);
    try {
      await until('the document closed', () => !open());
      const told = await until('the closing told', () =>
        ui.shown.find((s) => /^Closed 1 read-only document/.test(s.message)),
      );
      assert.match(told.message, /of another connection profile/);
    } finally {
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    }
  });

  test('Stop Local Platform says what it did', async () => {
    await vscode.commands.executeCommand('agentWorkbench.stopLocalPlatform');
    const told = ui.shown.find((s) => s.kind === 'info');
    assert.match(
      told?.message ?? '',
      /^The local platform at http:\/\/127\.0\.0\.1:\d+ stopped|^The editor no longer uses/,
    );
  });
});
