import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';
import { call } from '../support/http';
import {
  activateExtension,
  getExtension,
  type LocalPlatformUrls,
  treeItems,
  type WorkbenchExports,
} from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';
import { editorSuite } from '../support/editor/suite';
import { buttons, welcomeShown } from '../support/editor/welcome';

/** What a newcomer meets first: a profile without keys, setting the key, a filter that matches nothing. */
suite("First use: the views' states and their buttons", () => {
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let ui: ScriptedPrompts;
  let profileId: string;
  const state = (view: 'agents' | 'alerts') => api.testing!.viewState(view);

  const editor = editorSuite({ reset: 'once' });
  suiteSetup(async () => {
    ({ api, urls, ui } = editor);
    const profile = await vscode.commands.executeCommand<{ id: string }>('agentWorkbench.addProfile', {
      name: 'No keys yet',
      accountId: 'ACCOUNT-a1b2c3d',
      projectId: 'PROJECT-5a7e1c0d',
      region: 'custom',
      runtimeUrl: urls.runtime,
      buildUrl: urls.build,
      messagingUrl: urls.messaging,
    });
    profileId = profile.id;
  });

  suiteTeardown(async () => {
    ui.setAnswer((s) => (s.modal && /^Remove the profile/.test(s.message) ? 'Remove' : undefined));
    await vscode.commands.executeCommand('agentWorkbench.removeProfile', profileId);
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  test('a profile without keys shows why, with Set Credential, Test Connection and Show Log buttons (no message hides them)', async () => {
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', profileId);
    assert.deepEqual(await treeItems(api.agentsView), []);
    const shown = state('agents');
    assert.equal(shown.message, undefined, 'a message would hide the welcome content and its buttons');
    assert.equal(shown.state, 'error');
    assert.equal(shown.problem, 'missingKey');
    const welcome = welcomeShown('agents', shown);
    assert.match(welcome?.contents ?? '', /no Agents API key/);
    assert.deepEqual(buttons(welcome), [
      'Set Agents API Key',
      'Switch Connection Profile',
      'Test Connection',
      'Show Log',
    ]);
  });

  test('setting the key confirms it and reloads the view at once, without Refresh', async () => {
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', profileId);
    await treeItems(api.agentsView);
    let reloaded = false;
    const listening = api.agentsView.onDidChangeTreeData!(() => (reloaded = true));
    try {
      const set = await vscode.commands.executeCommand('agentWorkbench.setCredential', {
        credential: 'agentsApiKey',
        value: LOCAL_KEYS.agents,
      });
      assert.equal(set, true);
    } finally {
      listening.dispose();
    }
    assert.ok(reloaded, 'the Agents view was told to read again');
    assert.match(ui.shown.find((s) => s.kind === 'info')?.message ?? '', /^Agents API key of "No keys yet" saved/);
    assert.deepEqual(
      (await treeItems(api.agentsView)).map((i) => i.label),
      ['Support Desk'],
    );
    assert.equal(state('agents').state, 'ready');
  });

  test('a filter that matches nothing shows Clear Filter (no message hides it)', async () => {
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    await vscode.commands.executeCommand('agentWorkbench.filterAgents', 'zzz');
    try {
      assert.deepEqual(await treeItems(api.agentsView), []);
      const shown = state('agents');
      assert.equal(shown.state, 'noMatch');
      assert.deepEqual(buttons(welcomeShown('agents', shown)), ['Clear Filter', 'Change Filter']);
    } finally {
      await vscode.commands.executeCommand('agentWorkbench.clearAgentFilter');
    }
  });

  test('Copy Id is not offered on the Deployments and Real-time Configs group rows', async () => {
    const [agent] = await treeItems(api.agentsView);
    const groups = (await treeItems(api.agentsView, agent!.node)).filter(
      (g) => g.label === 'Deployments' || g.label === 'Real-time Configs',
    );
    assert.equal(groups.length, 2);
    const manifest = JSON.parse(fs.readFileSync(path.join(getExtension().extensionPath, 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, Array<{ command: string; when?: string }>> };
    };
    const copy = manifest.contributes.menus['view/item/context']!.filter(
      (m) => m.command === 'agentWorkbench.copyId' && m.when?.includes('agentWorkbench.agents'),
    );
    for (const g of groups) {
      const value = g.item.contextValue ?? '';
      const offered = copy.some((m) =>
        [...(m.when ?? '').matchAll(/viewItem =~ \/(.+?)\/(?=\s|\)|$)/g)].some((r) => new RegExp(r[1]!).test(value)),
      );
      assert.equal(offered, false, `Copy Id is offered on "${g.label}" (${value})`);
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.copyId', g.node), undefined);
    }
  });
});

suite("First use: checking a webhook delivery's signature", () => {
  let ui: ScriptedPrompts;

  suiteSetup(async () => {
    ui = scriptedPrompts(await activateExtension());
    await vscode.commands.executeCommand('agentWorkbench.startLocalPlatform');
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  suiteTeardown(() => ui.dispose());

  test('asks where the body is, naming the open editor, instead of checking whatever editor is active', async () => {
    const created = await vscode.commands.executeCommand<{ endpoint: { id: string } }>(
      'agentWorkbench.createWebhookEndpoint',
      {
        name: 'Body check',
        url: 'https://example.com/hooks',
        event_types: ['alerts.triggered'],
        storeSecret: true,
        showSecret: false,
      },
    );
    assert.ok(created, 'the endpoint was created');
    const doc = await vscode.workspace.openTextDocument({ content: 'unrelated notes' });
    await vscode.window.showTextDocument(doc);
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
    const result = await vscode.commands.executeCommand('agentWorkbench.verifyWebhookSignature', created.endpoint.id);
    assert.equal(result, undefined, 'nothing is checked when the person does not say where the body is');
    const asked = ui.shown.find((s) => s.kind === 'pick');
    assert.match(asked?.message ?? '', /Where is the raw body of the delivery to Body check/);
    assert.ok(
      asked!.items.some((i) => /The text of Untitled/.test(i)),
      asked!.items.join(', '),
    );
    assert.ok(asked!.items.some((i) => /Paste the Body/.test(i)));
    assert.equal(
      ui.shown.filter((s) => s.kind === 'warning').length,
      0,
      'no "does not check out" for a body never given',
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    ui.setAnswer((s) => (s.modal && /^Delete/.test(s.message) ? s.items[0] : undefined));
    await vscode.commands.executeCommand('agentWorkbench.deleteWebhookEndpoint', created.endpoint.id);
  });
});

suite('First use: importing phone numbers with a refused one', () => {
  let ui: ScriptedPrompts;
  let urls: LocalPlatformUrls;
  const typed = '+14155550199, +1 415 555 0101, +14155550123, +14155550199, +999123';

  suiteSetup(async () => {
    ui = scriptedPrompts(await activateExtension());
    const started = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    urls = started;
    await new LocalAdmin(started.admin).reset();
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  suiteTeardown(() => ui.dispose());

  test("the check as typed is this editor's (E.164 form): a number the platform may refuse passes it", async () => {
    ui.shown.length = 0;
    ui.setAnswer((s) => (s.kind === 'input' ? typed : undefined));
    assert.equal(
      await vscode.commands.executeCommand('agentWorkbench.importNumbers', { agentId: 'ag_support' }),
      undefined,
    );
    assert.equal(ui.shown.find((s) => s.kind === 'input')?.refused ?? '', '', "+999123 is the platform's to judge");
    assert.ok(
      ui.shown.some((s) => s.kind === 'pick'),
      'the environment is asked next',
    );
    ui.shown.length = 0;
    ui.setAnswer((s) => (s.kind === 'input' ? '+14155550199, 4155550101' : undefined));
    assert.equal(
      await vscode.commands.executeCommand('agentWorkbench.importNumbers', { agentId: 'ag_support' }),
      undefined,
    );
    const refused = ui.shown.find((s) => s.kind === 'input')?.refused ?? '';
    assert.match(refused, /This editor sends numbers in E\.164 form: 4155550101 \(not in E\.164 form/);
    assert.doesNotMatch(refused, /platform refuses/);
  });

  test("a number in E.164 form that the platform refuses is sent, and the platform's answer names it", async () => {
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
    const numbers = typed.split(',').map((n) => n.replace(/\s/g, ''));
    const report = await vscode.commands.executeCommand(
      'agentWorkbench.importNumbers',
      { agentId: 'ag_support' },
      {
        numbers,
        clientEnv: 'sandbox',
      },
    );
    assert.equal(report, undefined);
    const told = ui.lastError();
    assert.match(told, /\+999123/);
    assert.match(told, /local platform/);
    assert.doesNotMatch(told, /phoneNumbers\[/);
    // The local platform imports all or nothing: the valid numbers were not imported either.
    const listed = await call<{ phoneNumbers: Array<{ number: string }> }>(
      'GET',
      `${urls.build}/v1/agents/ag_support/telephony/phone-numbers`,
      { headers: { 'x-api-key': LOCAL_KEYS.agents } },
    );
    assert.ok(!listed.body.phoneNumbers.some((n) => n.number === '+14155550101'));
  });

  test('at most agentWorkbench.numbers.maxPerImport numbers go out at a time, as typed and as given', async () => {
    const config = vscode.workspace.getConfiguration('agentWorkbench.numbers');
    await config.update('maxPerImport', 2, vscode.ConfigurationTarget.Global);
    try {
      ui.shown.length = 0;
      ui.setAnswer((s) => (s.kind === 'input' ? '+14155550101, +14155550102, +14155550103' : undefined));
      assert.equal(
        await vscode.commands.executeCommand('agentWorkbench.importNumbers', { agentId: 'ag_support' }),
        undefined,
      );
      const limit =
        /This editor imports at most 2 numbers at a time \(setting agentWorkbench\.numbers\.maxPerImport\); 3 were given/;
      assert.match(ui.shown.find((s) => s.kind === 'input')?.refused ?? '', limit);
      ui.setAnswer(() => undefined);
      const given = await vscode.commands.executeCommand(
        'agentWorkbench.importNumbers',
        { agentId: 'ag_support' },
        { numbers: ['+14155550101', '+14155550102', '+14155550103'], clientEnv: 'sandbox' },
      );
      assert.equal(given, undefined);
      assert.match(ui.lastError(), limit);
    } finally {
      await config.update('maxPerImport', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
