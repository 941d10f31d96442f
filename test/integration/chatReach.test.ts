import * as assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatHeader } from '../../src/protocol/chat';
import { checkOutSupportMain, shownFolder, waitForEditor } from '../support/editor/agentFolders';
import { answers, type ChatPanelHandle } from '../support/editor/chatPanel';
import { agentNodeNamed } from '../support/editor/agentsView';
import type { WorkbenchExports } from '../support/editor/extension';
import type { ScriptedPrompts, Shown } from '../support/editor/prompts';
import { until } from '../support/until';
import { editorSuite } from '../support/editor/suite';

type ChatWithHeader = ChatPanelHandle & { readonly header: ChatHeader | undefined };

/**
 * Open Chat reaches the agent it was opened for: runtime keys belong to a project and a project serves one agent,
 * and the Local profile reaches each project of the local platform (whose demo gives each agent a project of its
 * own) with that project's keys, asking nothing; the header says agent, project, environment and the
 * version served. After a push, Publish to Sandbox and Chat makes the chat answer from what was pushed.
 */
suite('Chat reaches the agent it was opened for', function () {
  this.timeout(180_000);
  let api: WorkbenchExports;
  let ui: ScriptedPrompts;
  const open: ChatWithHeader[] = [];
  const folders: string[] = [];

  const editor = editorSuite({ seed: 'demo' });
  suiteSetup(() => ({ api, ui } = editor));

  // A test may leave another profile active.
  setup(async () => {
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
  });

  teardown(async () => {
    open.splice(0).forEach((p) => p.dispose());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  });

  const agentNode = (name: string): Promise<unknown> => agentNodeNamed(api, name);

  const MODES = [
    { mode: 'messaging', pick: 'Messaging' },
    { mode: 'chatApi', pick: 'Chat API' },
  ] as const;

  for (const { mode, pick } of MODES) {
    test(`Open Chat on Bella Tavola Bookings (${mode}) under the Local profile asks nothing, keeps the profile and gets Bella Tavola's greeting, not Support Desk's`, async () => {
      ui.setAnswer((s: Shown) => (s.kind === 'pick' ? pick : undefined));
      const chat = await vscode.commands.executeCommand<ChatWithHeader | undefined>(
        'agentWorkbench.openChat',
        await agentNode('Bella Tavola Bookings'),
      );
      assert.ok(chat, `a chat opened; shown: ${JSON.stringify(ui.shown)}`);
      open.push(chat);
      assert.deepEqual(
        ui.shown.filter((s) => s.kind !== 'pick').map((s) => s.message),
        [],
        'nothing asked: the Local profile reaches every project of the local platform',
      );
      assert.equal(api.testing!.conversationTests().connection.profiles.active?.id, 'local');
      const greeting = await until('the greeting', () => answers(chat)[0]);
      assert.match(greeting.text, /Gio/, 'Bella Tavola answers');
      assert.doesNotMatch(greeting.text, /Sam|Acme/, 'not the support desk');
      const header = await until('the header', () => chat.header);
      assert.deepEqual(
        { agent: header.agent, project: header.project, environment: header.environment, version: header.version },
        { agent: 'Bella Tavola Bookings', project: 'bella-tavola', environment: 'sandbox', version: '3' },
      );
    });
  }

  test('Open Chat from the palette names the agent the profile reaches in its header', async () => {
    const chat = await vscode.commands.executeCommand<ChatWithHeader | undefined>('agentWorkbench.openChat', {
      mode: 'chatApi',
    });
    assert.ok(chat);
    open.push(chat);
    const greeting = await until('the greeting', () => answers(chat)[0]);
    assert.match(greeting.text, /Sam/);
    const header = await until('the header', () => chat.header);
    assert.equal(header.agent, 'Support Desk');
    assert.equal(header.project, 'support-desk');
    assert.equal(chat.panel.title, 'Chat: Support Desk');
  });

  test('after a push, Publish to Sandbox and Chat (with the publish confirmation) makes the chat answer from the pushed behavior', async () => {
    const folder = await checkOutSupportMain(api, ui, folders, 'publish-chat');
    await waitForEditor(api, 'the status bar of the folder', () =>
      /Support Desk \(main\)/.test(api.testing!.sourceControl().statusBar ?? ''),
    );
    // Written to disk as another editor would: Source Control lists it all the same.
    const behavior = vscode.Uri.file(join(folder, 'behavior.md'));
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(behavior));
    await vscode.workspace.fs.writeFile(
      behavior,
      new TextEncoder().encode(text.replace('You are Sam', 'You are Robin')),
    );
    await waitForEditor(api, 'behavior.md under Local Changes', () =>
      shownFolder(api, folder)?.groups.local.includes('behavior.md'),
    );
    await vscode.commands.executeCommand('agentWorkbench.push', vscode.Uri.file(folder));
    const pushed = await until('the push report', () => ui.shown.find((s) => /^Pushed 1 change/.test(s.message)));
    assert.deepEqual(pushed.items, ['Publish to Sandbox and Chat'], 'the publish is offered after the push');

    // Before the publish, a chat still talks to the old version, and its header says so.
    const before = await vscode.commands.executeCommand<ChatWithHeader | undefined>('agentWorkbench.openChat', {
      mode: 'chatApi',
      target: { label: 'Support Desk', agentId: 'ag_support' },
    });
    assert.ok(before);
    open.push(before);
    assert.match((await until('the greeting', () => answers(before)[0])).text, /Sam/);
    const stale = await until('the header', () => (before.header?.note ? before.header : undefined));
    assert.match(stale.note ?? '', /main has changes pushed after version 1/);

    ui.shown.length = 0;
    ui.setAnswer((s: Shown) => (s.modal ? 'Publish' : s.kind === 'input' ? '' : undefined));
    const chat = await vscode.commands.executeCommand<ChatWithHeader | undefined>('agentWorkbench.publishAndChat', {
      agentId: 'ag_support',
      branchId: 'br_support_main',
      mode: 'chatApi',
    });
    const confirmation = ui.shown.find((s) => s.modal);
    assert.equal(confirmation?.message, 'Publish the main branch of Support Desk to sandbox?');
    assert.ok(chat, `a chat opened after the publish; shown: ${JSON.stringify(ui.shown.map((s) => s.message))}`);
    open.push(chat);
    const greeting = await until('the greeting', () => answers(chat)[0]);
    assert.match(greeting.text, /Robin/, 'the chat answers from the pushed behavior');
    const header = await until('the header with the new version', () => chat.header?.version !== '1' && chat.header);
    assert.equal(header.note, undefined, 'nothing pushed is left unpublished');
    await until('the older chat told of the new version', () => before.header?.version === header.version);
  });
});
