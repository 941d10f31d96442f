import * as assert from 'node:assert/strict';
import { readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PullReport, PushReport } from '../../src/workspace/mirror';
import type { ScriptedPrompts } from '../support/editor/prompts';
import { type LocalPlatformUrls, type WorkbenchExports, otherPlatformProfile } from '../support/editor/extension';
import type { LocalAdmin } from '../support/localAdmin';
import {
  checkOutSupportMain,
  editAndSave,
  shownFolder,
  supportMainOnPlatform,
  waitForEditor,
} from '../support/editor/agentFolders';
import type { BranchEditRequest } from '../../src/localPlatform/adminApi';
import { editorSuite } from '../support/editor/suite';

/**
 * The Source Control provider of checked-out agent folders, against the local platform: edits listed
 * and pushed, a teammate's edits (the admin API) read on Refresh and pulled, conflicts settled in the
 * merge editor, and topic files added, renamed and deleted.
 */
suite('Source control of agent folders', function () {
  // Check out, file watcher and platform round trips on a busy machine: the conditions wait up to a minute each.
  this.timeout(180_000);
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  const folders: string[] = [];
  const { behavior: platformBehavior, topics: platformTopics } = supportMainOnPlatform(() => urls);
  /** A teammate's edit in the studio. */
  const teammate = (edit: BranchEditRequest) => admin.editBranch('ag_support', 'br_support_main', edit);

  const waitFor = <T>(what: string, read: () => T | undefined | false | Promise<T | undefined | false>) =>
    waitForEditor(api, what, read);
  const shown = (folder: string) => shownFolder(api, folder);
  const statusBar = () => api.testing!.sourceControl().statusBar ?? '';

  const checkOut = () => checkOutSupportMain(api, ui, folders, 'desk');

  // The platform is reset below, once the editors of the last test are closed and its folders gone.
  const editor = editorSuite({ reset: 'never' });
  suiteSetup(() => ({ api, urls, admin, ui } = editor));

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const dir of folders) await rm(dir, { recursive: true, force: true });
  });

  setup(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
    await admin.reset();
  });

  test('an edit is listed under Local Changes and counted in the status bar; Push sends it, and only it', async () => {
    const folder = await checkOut();
    const before = await platformBehavior();
    await waitFor('the status bar of the folder', () => /Support Desk \(main\)/.test(statusBar()));
    await editAndSave(join(folder, 'behavior.md'), (t) => t.replace('Be brief and friendly.', 'Be brief and warm.'));
    await waitFor('behavior.md under Local Changes', () => shown(folder)?.groups.local.includes('behavior.md'));
    assert.match(statusBar(), /↑1/);
    // The gutter's quick diff compares with the base: what the platform held at checkout.
    const base = await vscode.workspace.openTextDocument(
      vscode.Uri.from({
        scheme: 'agent-workbench-mirror',
        path: '/behavior.md',
        query: new URLSearchParams({ side: 'base', folder, path: 'behavior.md' }).toString(),
      }),
    );
    assert.equal(base.getText(), `${before}\n`);

    const report = await vscode.commands.executeCommand<PushReport>('agentWorkbench.push', vscode.Uri.file(folder));
    assert.ok(report, ui.lastError());
    assert.deepEqual(
      report.sent.map((a) => [a.kind, a.path]),
      [['behavior', 'behavior.md']],
    );
    assert.equal(await platformBehavior(), before.replace('Be brief and friendly.', 'Be brief and warm.'));
    await waitFor('an empty Local Changes group', () => shown(folder)?.groups.local.length === 0);
    assert.doesNotMatch(statusBar(), /↑/);
  });

  test("a teammate's edits show under Remote Changes on Refresh; Push refuses to overwrite them, Pull writes them", async () => {
    const folder = await checkOut();
    await editAndSave(join(folder, 'knowledge', 'returns.md'), (t) => t.replace('30 days', '45 days'));
    await teammate({
      behavior: 'You are Sam, now brief.',
      upsertTopics: [{ topicId: 'kt_returns', name: 'Returns', content: 'Returns within 60 days.' }],
    });
    await vscode.commands.executeCommand('agentWorkbench.refreshStatus');
    const remote = shown(folder)!.groups.remote;
    assert.ok(remote.includes('behavior.md'), remote.join(', '));
    assert.match(statusBar(), /↓/);

    // Push re-reads the platform and sends nothing over the teammate's change: the person is told to pull.
    const refused = await vscode.commands.executeCommand<PushReport>('agentWorkbench.push', vscode.Uri.file(folder));
    assert.ok(refused, ui.lastError());
    assert.equal(refused.sent.length, 0);
    const warning = ui.shown.findLast((s) => s.kind === 'warning');
    assert.match(warning?.message ?? '', /returns\.md was changed on the platform since your last pull: pull first/);
    assert.deepEqual(warning?.items, ['Pull']);
    assert.equal((await platformTopics()).find((t) => t.topicId === 'kt_returns')?.content, 'Returns within 60 days.');

    const pulled = await vscode.commands.executeCommand<PullReport>('agentWorkbench.pull', vscode.Uri.file(folder));
    assert.ok(pulled, ui.lastError());
    assert.equal(await readFile(join(folder, 'behavior.md'), 'utf8'), 'You are Sam, now brief.\n');
    // Both changed the one line of returns.md: a conflict, the file kept as the person left it, without markers.
    assert.deepEqual(
      pulled.conflicts.map((c) => c.path),
      ['knowledge/returns.md'],
    );
    const returns = await readFile(join(folder, 'knowledge', 'returns.md'), 'utf8');
    assert.match(returns, /45 days/);
    assert.doesNotMatch(returns, /<<<<<<<|>>>>>>>/);
    await waitFor('returns.md under Conflicts only', () => {
      const s = shown(folder);
      return s?.groups.conflicts.includes('knowledge/returns.md') && s.groups.remote.length === 0;
    });
    assert.match(statusBar(), /\$\(warning\) 1/);
  });

  test('a conflict opens the merge editor with base, yours and the platform; its saved result is what Push sends', async () => {
    const folder = await checkOut();
    const file = join(folder, 'behavior.md');
    const original = await readFile(file, 'utf8');
    await editAndSave(file, (t) => t.replace('Be brief and friendly.', 'Be brief, friendly and precise.'));
    const mine = await readFile(file, 'utf8');
    const theirs = original.replace('Be brief and friendly.', 'Be brief and cheerful.');
    await teammate({ behavior: theirs.slice(0, -1) });
    const pulled = await vscode.commands.executeCommand<PullReport>('agentWorkbench.pull', vscode.Uri.file(folder));
    assert.deepEqual(
      pulled?.conflicts.map((c) => c.path),
      ['behavior.md'],
      ui.lastError(),
    );
    assert.match(ui.shown.findLast((s) => s.kind === 'warning')?.message ?? '', /cannot be combined/);
    assert.equal(await readFile(file, 'utf8'), mine, 'the file keeps the local text, no markers');

    const view = await vscode.commands.executeCommand<string>('agentWorkbench.openFileMerge', vscode.Uri.file(file));
    assert.equal(view, 'mergeEditor', ui.lastError());
    const tab = await waitFor('the merge editor tab', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .map((t) => t.input as { base?: vscode.Uri; input1?: vscode.Uri; input2?: vscode.Uri; result?: vscode.Uri })
        .find((i) => i?.result?.fsPath === file && i.base && i.input1 && i.input2),
    );
    const side = (u: vscode.Uri) => new URLSearchParams(u.query).get('side');
    assert.deepEqual([side(tab.base!), side(tab.input1!), side(tab.input2!)], ['base', 'local', 'remote']);
    const text = async (u: vscode.Uri) => (await vscode.workspace.openTextDocument(u)).getText();
    assert.equal(await text(tab.base!), original);
    assert.equal(await text(tab.input1!), mine);
    assert.equal(await text(tab.input2!), theirs);

    // The person combines both in the result and saves it; Complete File Merge takes it.
    const merged = original.replace('Be brief and friendly.', 'Be brief, cheerful and precise.');
    await editAndSave(file, () => merged);
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.completeFileMerge', vscode.Uri.file(file)), true);
    await waitFor('no conflict left, behavior.md to push', () => {
      const s = shown(folder);
      return s?.groups.conflicts.length === 0 && s.groups.local.includes('behavior.md');
    });
    const report = await vscode.commands.executeCommand<PushReport>('agentWorkbench.push', vscode.Uri.file(folder));
    assert.deepEqual(
      report?.sent.map((a) => a.path),
      ['behavior.md'],
      ui.lastError(),
    );
    assert.equal(`${await platformBehavior()}\n`, merged);
  });

  test('a new topic file creates a topic, a renamed one keeps its topic, a deleted one deletes it once confirmed', async () => {
    const folder = await checkOut();
    await writeFile(
      join(folder, 'knowledge', 'gift-cards.md'),
      '---\nname: Gift cards\n---\n\nGift cards never expire.\n',
    );
    await rename(join(folder, 'knowledge', 'delivery.md'), join(folder, 'knowledge', 'shipping.md'));
    await unlink(join(folder, 'knowledge', 'returns.md'));
    await waitFor('the added and the deleted file under Local Changes', () => {
      const local = shown(folder)?.groups.local ?? [];
      return local.includes('knowledge/gift-cards.md') && local.includes('knowledge/returns.md') ? local : undefined;
    });
    assert.ok(!shown(folder)!.groups.local.includes('knowledge/shipping.md'), 'a rename alone changes no topic');

    // Declining the deletion sends nothing.
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.push', vscode.Uri.file(folder)), undefined);
    const asked = ui.shown.findLast((s) => s.modal);
    assert.match(asked?.message ?? '', /Delete 1 topic from the platform\?/);
    assert.match(asked?.detail ?? '', /knowledge\/returns\.md/);
    assert.ok((await platformTopics()).some((t) => t.topicId === 'kt_returns'));

    ui.setAnswer((s) => (s.modal ? 'Delete and Push' : undefined));
    const report = await vscode.commands.executeCommand<PushReport>('agentWorkbench.push', vscode.Uri.file(folder));
    assert.ok(report, ui.lastError());
    assert.deepEqual(report.sent.map((a) => a.kind).sort(), ['createTopic', 'deleteTopic']);
    const topics = await platformTopics();
    assert.ok(!topics.some((t) => t.topicId === 'kt_returns'), 'Returns is deleted');
    assert.equal(
      topics.find((t) => t.topicId === 'kt_delivery')?.name,
      'Delivery',
      'the renamed file is still Delivery',
    );
    const created = topics.find((t) => t.name === 'Gift cards');
    assert.equal(created?.content, 'Gift cards never expire.');
    assert.match(
      await readFile(join(folder, 'knowledge', 'gift-cards.md'), 'utf8'),
      new RegExp(`id: ${created!.topicId}`),
    );
    await waitFor('an empty Local Changes group', () => shown(folder)?.groups.local.length === 0);
  });

  test('a change the file watcher does not report is listed within seconds while the window has focus', async function () {
    this.timeout(90_000);
    const folder = await checkOut();
    // The workspace's watcher is told to leave the folder out, as a watcher that misses changes would.
    const files = vscode.workspace.getConfiguration('files');
    const before = files.inspect('watcherExclude')?.workspaceValue;
    const excluded = `**/${folder.split(/[\\/]/).pop()}/**`;
    await files.update('watcherExclude', { [excluded]: true }, vscode.ConfigurationTarget.Workspace);
    const heard: string[] = [];
    const probe = vscode.workspace.createFileSystemWatcher('**/*.md');
    probe.onDidCreate((u) => heard.push(u.fsPath));
    try {
      assert.ok(vscode.window.state.focused, 'the window has focus');
      await writeFile(join(folder, 'knowledge', 'loyalty.md'), '---\nname: Loyalty\n---\n\nPoints never expire.\n');
      await waitFor('the new file under Local Changes', () =>
        shown(folder)?.groups.local.includes('knowledge/loyalty.md'),
      );
      assert.deepEqual(
        heard.filter((f) => f.startsWith(folder)),
        [],
        'the watcher told nothing, so the listing came from looking at the files',
      );
    } finally {
      probe.dispose();
      await files.update('watcherExclude', before, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('a push the platform fails half way leaves the files as they were, says why, and the next push finishes it', async () => {
    const folder = await checkOut();
    await editAndSave(join(folder, 'knowledge', 'returns.md'), (t) => t.replace('30 days', '45 days'));
    await editAndSave(join(folder, 'knowledge', 'delivery.md'), (t) => t.replace('3 to 5', '2 to 4'));
    await waitFor('both files under Local Changes', () => shown(folder)?.groups.local.length === 2);
    await admin.addFault({ family: 'build', path: '/kt_delivery$/', method: 'PATCH', status: 503, times: 20 });
    try {
      assert.equal(await vscode.commands.executeCommand('agentWorkbench.push', vscode.Uri.file(folder)), undefined);
      assert.notEqual(ui.lastError(), '', 'the failure is told');
    } finally {
      await admin.clearFaults();
    }
    assert.match(
      await readFile(join(folder, 'knowledge', 'delivery.md'), 'utf8'),
      /2 to 4/,
      'the edit stays in the file',
    );
    await waitFor('delivery.md still to push', () => shown(folder)?.groups.local.includes('knowledge/delivery.md'));
    const returnsWentThrough = /45 days/.test(
      (await platformTopics()).find((t) => t.topicId === 'kt_returns')?.content ?? '',
    );
    assert.equal(
      shown(folder)!.groups.local.includes('knowledge/returns.md'),
      !returnsWentThrough,
      'a file is listed to push exactly when its edit did not reach the platform',
    );

    const report = await vscode.commands.executeCommand<PushReport>('agentWorkbench.push', vscode.Uri.file(folder));
    assert.ok(report, ui.lastError());
    assert.deepEqual(
      report.sent.map((a) => a.path).sort(),
      returnsWentThrough ? ['knowledge/delivery.md'] : ['knowledge/delivery.md', 'knowledge/returns.md'],
      'what went through the first time is not sent again',
    );
    const topics = await platformTopics();
    assert.match(topics.find((t) => t.topicId === 'kt_returns')!.content, /45 days/);
    assert.match(topics.find((t) => t.topicId === 'kt_delivery')!.content, /2 to 4/);
    await waitFor('an empty Local Changes group', () => shown(folder)?.groups.local.length === 0);
  });

  test('Complete File Merge asks before keeping conflict markers, and a file deleted on the platform is kept or deleted by choice', async () => {
    const folder = await checkOut();
    const file = join(folder, 'behavior.md');
    await editAndSave(file, (t) => t.replace('Be brief and friendly.', 'Be brief.'));
    await editAndSave(join(folder, 'knowledge', 'returns.md'), (t) => t.replace('30 days', '45 days'));
    const behavior = await platformBehavior();
    await teammate({ behavior: behavior.replace('Be brief and friendly.', 'Be friendly.') });
    await admin.editBranch('ag_support', 'br_support_main', { deleteTopics: ['kt_returns'] });
    const pulled = await vscode.commands.executeCommand<PullReport>('agentWorkbench.pull', vscode.Uri.file(folder));
    assert.deepEqual(
      pulled?.conflicts.map((c) => c.path).sort(),
      ['behavior.md', 'knowledge/returns.md'],
      ui.lastError(),
    );

    // A result saved with markers is taken only when the person says so.
    await editAndSave(file, (t) => `<<<<<<< yours\n${t}=======\nBe friendly.\n>>>>>>> platform\n`);
    assert.equal(
      await vscode.commands.executeCommand('agentWorkbench.completeFileMerge', vscode.Uri.file(file)),
      false,
    );
    assert.match(ui.shown.findLast((s) => s.modal)?.message ?? '', /still has conflict markers/);
    assert.ok(shown(folder)?.groups.conflicts.includes('behavior.md'), 'still in conflict');

    // Changed here, deleted there: a question, not a merge editor; keeping it makes the next push create it again.
    ui.setAnswer((s) => (s.modal ? 'Keep My Version' : undefined));
    await vscode.commands.executeCommand(
      'agentWorkbench.openFileMerge',
      vscode.Uri.file(join(folder, 'knowledge', 'returns.md')),
    );
    assert.match(ui.shown.findLast((s) => s.modal)?.message ?? '', /deleted on the platform/);
    await waitFor('returns.md out of Conflicts and to push', () => {
      const g = shown(folder)?.groups;
      return g && !g.conflicts.includes('knowledge/returns.md') && g.local.includes('knowledge/returns.md');
    });
  });

  test('Refresh Status under another profile says that a folder shows its files only, naming the profile it was checked out with', async () => {
    const folder = await checkOut();
    const { connection } = api.testing!.conversationTests();
    const id = 'other-desk-status';
    await connection.profiles.save(otherPlatformProfile(urls, id, 'Other desk', 'support-desk'));
    try {
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', id);
      ui.shown.length = 0;
      await vscode.commands.executeCommand('agentWorkbench.refreshStatus');
      const said = ui.shown.find((s) => s.kind === 'warning');
      assert.ok(said, `Refresh Status said something; shown: ${JSON.stringify(ui.shown.map((s) => s.message))}`);
      assert.equal(
        said.message,
        'The status of Support Desk shows its files only: it was checked out with the connection profile "Local platform", not "Other desk". Switch to "Local platform" to compare it with the platform.',
      );
      assert.ok(shown(folder), 'the folder is still shown');
    } finally {
      await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
      await connection.profiles.remove(id);
    }
  });
  test('after the local platform starts afresh, Pull is refused with no file changed, and Keep My Files and Compare lists what the files hold under Local Changes, to push', async () => {
    const folder = await checkOut();
    const file = join(folder, 'behavior.md');
    await editAndSave(file, (t) => t.replace('Be brief and friendly.', 'Be brief and warm.'));
    await waitFor('behavior.md under Local Changes', () => shown(folder)?.groups.local.includes('behavior.md'));
    const pushed = await vscode.commands.executeCommand<PushReport>('agentWorkbench.push', vscode.Uri.file(folder));
    assert.equal(pushed?.sent.length, 1, ui.lastError());
    // The platform starts afresh: the seed again, without the push.
    await admin.reset();
    const mine = await readFile(file, 'utf8');
    const keep = 'Keep My Files and Compare';
    ui.shown.length = 0;
    ui.setAnswer((s) => (s.kind === 'warning' && s.message.includes(keep) ? keep : undefined));
    const pulled = await vscode.commands.executeCommand<PullReport | undefined>(
      'agentWorkbench.pull',
      vscode.Uri.file(folder),
    );
    assert.equal(pulled, undefined, 'nothing was pulled');
    assert.match(ui.shown[0]?.message ?? '', /another local platform \(or from this one before it started afresh/);
    assert.equal(await readFile(file, 'utf8'), mine, 'the file is kept as it was');
    await waitFor('behavior.md under Local Changes again', () => shown(folder)?.groups.local.includes('behavior.md'));
    assert.ok(
      ui.shown.some((s) => /now compares with this platform: 1 file holds what it does not/.test(s.message)),
      JSON.stringify(ui.shown.map((s) => s.message)),
    );
    const report = await vscode.commands.executeCommand<PushReport>('agentWorkbench.push', vscode.Uri.file(folder));
    assert.deepEqual(
      report?.sent.map((a) => a.path),
      ['behavior.md'],
      ui.lastError(),
    );
    assert.match(await platformBehavior(), /Be brief and warm\./);
  });
});
