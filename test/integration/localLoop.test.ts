import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatHeader } from '../../src/protocol/chat';
import type { SavedTest } from '../../src/ui/testing/saveAsTest';
import { shownFolder, waitForEditor } from '../support/editor/agentFolders';
import { answers, type ChatPanelHandle } from '../support/editor/chatPanel';
import type { WorkbenchExports } from '../support/editor/extension';
import type { ScriptedPrompts, Shown } from '../support/editor/prompts';
import { until } from '../support/until';
import { editorSuite } from '../support/editor/suite';

type Chat = ChatPanelHandle & { readonly header: ChatHeader | undefined; saveAsTest(): Promise<SavedTest | undefined> };

/** Each demo agent the local platform seeds: its main branch, and how its greeting names it. */
const DEMO_AGENTS = [
  { name: 'Support Desk', agentId: 'ag_support', branchId: 'br_support_main', greeting: /Sam/ },
  { name: 'Bella Tavola Bookings', agentId: 'ag_restaurant', branchId: 'br_restaurant_main', greeting: /Gio/ },
  { name: 'Northwind Card Services', agentId: 'ag_bank_cards', branchId: 'br_bank_main', greeting: /Card services/ },
] as const;

const exec = <T = unknown>(command: string, ...args: unknown[]) =>
  vscode.commands.executeCommand<T>(`agentWorkbench.${command}`, ...args);

/**
 * The loop a builder goes round all day, for each agent the local platform serves, under the one Local profile:
 * check out, edit, push, publish and chat, save the chat as a test, run it, promote. The Local profile reaches every
 * project the local platform holds, so nothing offers another profile and the profile in use stays the Local one.
 */
suite('One Local profile for the whole loop on every demo agent', function () {
  this.timeout(240_000);
  let api: WorkbenchExports;
  let ui: ScriptedPrompts;
  const folders: string[] = [];
  const chats: Chat[] = [];

  const editor = editorSuite({ seed: 'demo', reset: 'once' });
  suiteSetup(async () => {
    ({ api, ui } = editor);
    await exec('refreshAgents');
  });

  suiteTeardown(async () => {
    chats.forEach((c) => c.dispose());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const dir of folders) await rm(dir, { recursive: true, force: true });
  });

  test('check out, edit, push, chat, save as test, run and promote each demo agent: no profile is offered or switched to, and each chat and test reaches its own agent', async () => {
    const tests = api.testing!.conversationTests();
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    for (const agent of DEMO_AGENTS) {
      ui.shown.length = 0;
      ui.setAnswer((s: Shown) => {
        if (s.modal) return s.items.find((i) => /^(Publish|Promote|Run Tests|Push and Publish)/.test(i)) ?? s.items[0];
        if (s.kind === 'pick') return s.items.find((i) => /New test file/.test(i)) ?? s.items[0];
        if (s.kind === 'input') return /Type the agent name/.test(s.message) ? agent.name : (s.value ?? '');
        return undefined;
      });
      const folder = join(root, `loop-${agent.agentId}-${randomBytes(4).toString('hex')}`);
      folders.push(folder);
      assert.equal(await exec('checkOut', { agentId: agent.agentId, branchId: agent.branchId, folder }), folder);
      await waitForEditor(api, `the source control of ${agent.name}`, () => shownFolder(api, folder));

      // Written to disk as another editor would: Source Control lists it all the same.
      const behavior = vscode.Uri.file(join(folder, 'behavior.md'));
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(behavior));
      await vscode.workspace.fs.writeFile(
        behavior,
        new TextEncoder().encode(`${text.trimEnd()}\nKeep every answer short.\n`),
      );
      await waitForEditor(api, 'behavior.md under Local Changes', () =>
        shownFolder(api, folder)?.groups.local.includes('behavior.md'),
      );
      await exec('push', vscode.Uri.file(folder));
      await until(`the push of ${agent.name}`, () => ui.shown.find((s) => /^Pushed 1 change/.test(s.message)));

      const chat = await exec<Chat | undefined>('publishAndChat', {
        agentId: agent.agentId,
        branchId: agent.branchId,
        mode: 'chatApi',
      });
      assert.ok(chat, `${agent.name}: a chat opened; shown: ${ui.shown.map((s) => s.message).join(' | ')}`);
      chats.push(chat);
      const greeting = await until(`the greeting of ${agent.name}`, () => answers(chat)[0]);
      assert.match(greeting.text, agent.greeting, `${agent.name} answers`);
      assert.equal((await until('the header', () => chat.header)).agent, agent.name);

      await chat.send('Hello');
      await until(`the answer of ${agent.name}`, () => answers(chat).length === 2);
      const saved = await chat.saveAsTest();
      assert.ok(saved, ui.lastError());
      const file = await until(`the test item of ${agent.name}`, async () => {
        await tests.discover();
        return tests.controller.items.get(saved.uri.toString());
      });
      const profile = tests.runProfiles.find((p) => p.isDefault);
      assert.equal(profile?.label, 'Local platform');
      await profile.runHandler(
        new vscode.TestRunRequest([file], undefined, profile),
        new vscode.CancellationTokenSource().token,
      );
      const run = tests.runs.at(-1)!;
      const reported = [...run.items.values()].find((i) => i.id.endsWith(saved.caseName));
      assert.equal(reported?.state, 'passed', run.output);
      assert.match(run.output, agent.greeting, `the test reached ${agent.name}`);

      const promoted = await exec<{ deployment: { environment: string } } | undefined>(
        'promote',
        { agentId: agent.agentId, environment: 'sandbox' },
        { deploymentMessage: '' },
      );
      assert.equal(promoted?.deployment.environment, 'pre-release', `${agent.name} promoted; ${ui.lastError()}`);

      const offered = ui.shown.filter((s) => /profile/i.test([s.message, ...s.items].join(' ')));
      assert.deepEqual(
        offered.map((s) => s.message),
        [],
        `${agent.name}: nothing offered another profile`,
      );
      assert.equal(api.testing!.conversationTests().connection.profiles.active?.id, 'local', 'still the Local profile');
    }
  });
});
