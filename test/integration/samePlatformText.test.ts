import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { BranchEditRequest } from '../../src/localPlatform/adminApi';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import type { PullReport, PushReport } from '../../src/workspace/mirror';
import { call } from '../support/http';
import { LocalAdmin } from '../support/localAdmin';
import { activateExtension, child, type LocalPlatformUrls, type WorkbenchExports } from '../support/editor/extension';
import { type ScriptedPrompts, scriptedPrompts } from '../support/editor/prompts';

interface Topic {
  topicId: string;
  name: string;
  content: string;
}

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
  const BRANCH = '/v1/agents/ag_support/branches/br_support_main';
  const agents = <T>(method: string, path: string) =>
    call<T>(method, `${urls.build}${path}`, { headers: { 'x-api-key': LOCAL_KEYS.agents } });
  const platformBehavior = async () => (await agents<{ behavior: string }>('GET', `${BRANCH}/behavior`)).body.behavior;
  const platformTopic = async (topicId: string) => {
    const body = (await agents<{ topics?: Topic[] } | Topic[]>('GET', `${BRANCH}/knowledge-base/topics`)).body;
    const topics = Array.isArray(body) ? body : (body.topics ?? []);
    return topics.find((t) => t.topicId === topicId)!;
  };
  const teammate = (edit: BranchEditRequest) =>
    new LocalAdmin(urls.admin).editBranch('ag_support', 'br_support_main', edit);
  const shown = (folder: string) => api.testing!.sourceControl().folders.find((f) => f.root === folder);

  /** Waits for what the editor reaches by itself (a document read again, the file watcher). */
  async function waitFor<T>(what: string, read: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (value) return value;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

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

  async function checkOut(): Promise<string> {
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const folder = join(root, `same-${randomBytes(4).toString('hex')}`);
    folders.push(folder);
    const done = await vscode.commands.executeCommand<string>('agentWorkbench.checkOut', {
      agentId: 'ag_support',
      branchId: 'br_support_main',
      folder,
    });
    assert.equal(done, folder, ui.lastError());
    await waitFor('the source control of the new folder', () => shown(folder), 60_000);
    return folder;
  }

  async function editAndSave(file: string, change: (text: string) => string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), change(doc.getText()));
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
  }

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
