import * as assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { BranchEditRequest } from '../../src/localPlatform/adminApi';
import type { PullReport, PushReport } from '../../src/workspace/mirror';
import { LocalAdmin } from '../support/localAdmin';
import {
  checkOutSupportMain,
  editAndSave,
  shownFolder,
  supportMainOnPlatform,
  waitForEditor,
} from '../support/editor/agentFolders';
import { activateExtension, child, type LocalPlatformUrls, type WorkbenchExports } from '../support/editor/extension';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';

/**
 * After a teammate's change, Refresh Status, Pull and Push are each followed by the Agents view's read-only
 * documents, Source Control's groups and the platform's side of the Remote Changes diffs showing the same
 * platform text: one model of the platform, read and refreshed by every view.
 */
suite('Source control and the Agents view show the same platform text', function () {
  this.timeout(180_000);
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let ui: ScriptedPrompts;
  const folders: string[] = [];
  const platform = supportMainOnPlatform(() => urls);
  const platformBehavior = platform.behavior;
  const platformTopic = async (topicId: string) => (await platform.topics()).find((t) => t.topicId === topicId)!;
  const teammate = (edit: BranchEditRequest) =>
    new LocalAdmin(urls.admin).editBranch('ag_support', 'br_support_main', edit);
  const shown = (folder: string) => shownFolder(api, folder);

  /** Waits for what the editor reaches by itself (a document read again, the file watcher). */
  const waitFor = <T>(what: string, read: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000) =>
    waitForEditor(api, what, read, ms);

  /** The Agents view's read-only documents of main's behavior and of the Returns topic, opened from the tree. */
  async function openAgentsViewDocuments(): Promise<{ behavior: vscode.TextDocument; returns: vscode.TextDocument }> {
    const view = api.agentsView;
    const agent = await child(view, undefined, 'Support Desk');
    const main = await child(view, agent.node, 'main');
    const behavior = await child(view, main.node, 'Behavior');
    const knowledge = await child(view, main.node, /^Knowledge/);
    const returns = await child(view, knowledge.node, 'Returns');
    const open = (item: vscode.TreeItem) =>
      vscode.workspace.openTextDocument(item.command!.arguments![0] as vscode.Uri);
    return { behavior: await open(behavior.item), returns: await open(returns.item) };
  }

  /** The text a document shows once it was read again (a change event may still be on its way). */
  async function showsText(doc: vscode.TextDocument, text: string, what: string): Promise<void> {
    await waitFor(`${what} to show ${JSON.stringify(text)} (it shows ${JSON.stringify(doc.getText())})`, () =>
      doc.getText() === text ? true : undefined,
    );
  }

  /** The platform's side of a Remote Changes diff: the document its Open Changes opens. */
  async function remoteSide(folder: string, file: string): Promise<vscode.TextDocument> {
    const side = shown(folder)?.remoteSides[file];
    assert.ok(side, `${file} has a Remote Changes diff: ${JSON.stringify(shown(folder))}`);
    return vscode.workspace.openTextDocument(vscode.Uri.parse(side));
  }

  const checkOut = () => checkOutSupportMain(api, ui, folders, 'same');

  suiteSetup(async () => {
    api = await activateExtension();
    urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    ui = scriptedPrompts(api);
  });

  suiteTeardown(async () => {
    ui.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const dir of folders) await rm(dir, { recursive: true, force: true });
  });

  setup(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
    await new LocalAdmin(urls.admin).reset('base');
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    ui.shown.length = 0;
    ui.setAnswer((s) => (s.modal ? s.items[0] : undefined));
  });

  test("Refresh Status: the teammate's text in Source Control, its Remote Changes diffs and the Agents view", async () => {
    const folder = await checkOut();
    const docs = await openAgentsViewDocuments();
    await showsText(docs.behavior, `${await platformBehavior()}\n`, 'the behavior document');
    await teammate({
      behavior: 'You are Sam, now brief.',
      upsertTopics: [{ topicId: 'kt_returns', name: 'Returns', content: 'Returns within 60 days.' }],
    });
    await vscode.commands.executeCommand('agentWorkbench.refreshStatus');
    assert.deepEqual(shown(folder)!.groups.remote, ['behavior.md', 'knowledge/returns.md'], ui.lastError());
    const behaviorSide = await remoteSide(folder, 'behavior.md');
    const returnsSide = await remoteSide(folder, 'knowledge/returns.md');
    await showsText(
      behaviorSide,
      'You are Sam, now brief.\n',
      "the Remote Changes diff's platform side of behavior.md",
    );
    await showsText(docs.behavior, 'You are Sam, now brief.\n', "the Agents view's behavior document");
    assert.match(returnsSide.getText(), /Returns within 60 days\./);
    await showsText(docs.returns, returnsSide.getText(), "the Agents view's Returns document");
  });

  test("Pull: the folder, Source Control and the Agents view all hold the teammate's text", async () => {
    const folder = await checkOut();
    const docs = await openAgentsViewDocuments();
    const before = await platformBehavior();
    await showsText(docs.behavior, `${before}\n`, 'the behavior document');
    await teammate({
      behavior: 'You are Sam, pulled.',
      upsertTopics: [{ topicId: 'kt_returns', name: 'Returns', content: 'Returns within 90 days.' }],
    });
    const report = await vscode.commands.executeCommand<PullReport>('agentWorkbench.pull', vscode.Uri.file(folder));
    assert.ok(report, ui.lastError());
    assert.equal(await readFile(join(folder, 'behavior.md'), 'utf8'), 'You are Sam, pulled.\n');
    await showsText(docs.behavior, 'You are Sam, pulled.\n', "the Agents view's behavior document");
    const returnsFile = await readFile(join(folder, 'knowledge', 'returns.md'), 'utf8');
    assert.match(returnsFile, /Returns within 90 days\./);
    await showsText(docs.returns, returnsFile, "the Agents view's Returns document");
    await waitFor('Source Control in step', () => {
      const s = shown(folder);
      return s && s.groups.remote.length === 0 && s.groups.local.length === 0 && s.groups.conflicts.length === 0;
    });
    // A teammate's change after the pull is the next Refresh Status's: the views still agree on it.
    await teammate({ behavior: 'You are Sam, after the pull.' });
    await vscode.commands.executeCommand('agentWorkbench.refreshStatus');
    await showsText(await remoteSide(folder, 'behavior.md'), 'You are Sam, after the pull.\n', 'the diff side');
    await showsText(docs.behavior, 'You are Sam, after the pull.\n', "the Agents view's behavior document");
  });

  test("Push: what was sent and the teammate's change not yet pulled show the same everywhere", async () => {
    const folder = await checkOut();
    const docs = await openAgentsViewDocuments();
    const before = await platformBehavior();
    await showsText(docs.behavior, `${before}\n`, 'the behavior document');
    await editAndSave(join(folder, 'behavior.md'), (t) => t.replace('Be brief and friendly.', 'Be brief and warm.'));
    await waitFor('behavior.md under Local Changes', () => shown(folder)?.groups.local.includes('behavior.md'));
    // A teammate changes another document meanwhile: the push sends the behavior and leaves the topic to a pull.
    await teammate({ upsertTopics: [{ topicId: 'kt_returns', name: 'Returns', content: 'Returns within 14 days.' }] });
    const report = await vscode.commands.executeCommand<PushReport>('agentWorkbench.push', vscode.Uri.file(folder));
    assert.deepEqual(
      report?.sent.map((a) => a.path),
      ['behavior.md'],
      ui.lastError(),
    );
    const pushed = before.replace('Be brief and friendly.', 'Be brief and warm.');
    assert.equal(await platformBehavior(), pushed);
    await showsText(docs.behavior, `${pushed}\n`, "the Agents view's behavior document");
    const listed = await waitFor('Source Control after the push', () => {
      const s = shown(folder);
      return s && s.groups.local.length === 0 ? s : undefined;
    });
    assert.deepEqual(listed.groups.remote, ['knowledge/returns.md']);
    const returnsSide = await remoteSide(folder, 'knowledge/returns.md');
    assert.equal((await platformTopic('kt_returns')).content, 'Returns within 14 days.');
    assert.match(returnsSide.getText(), /Returns within 14 days\./);
    await showsText(docs.returns, returnsSide.getText(), "the Agents view's Returns document");
  });
});
