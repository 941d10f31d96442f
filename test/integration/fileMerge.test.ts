import * as assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PullReport } from '../../src/workspace/mirror';
import type { ScriptedPrompts } from '../support/editor/prompts';
import type { LocalPlatformUrls, WorkbenchExports } from '../support/editor/extension';
import type { LocalAdmin } from '../support/localAdmin';
import { checkOutSupportMain, shownFolder, supportMainOnPlatform, waitForEditor } from '../support/editor/agentFolders';
import { editorSuite } from '../support/editor/suite';

interface MergeTab {
  base: vscode.Uri;
  input1: vscode.Uri;
  input2: vscode.Uri;
  result: vscode.Uri;
}

/** The merge editor tab whose result is the file, once it is open. */
function mergeTab(file: string): MergeTab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .map((t) => t.input as Partial<MergeTab> | undefined)
    .find((i): i is MergeTab => i?.result?.fsPath === file && !!i.base && !!i.input1 && !!i.input2);
}

const text = async (u: vscode.Uri) => (await vscode.workspace.openTextDocument(u)).getText();

/** Replaces a file's text in its editor and saves it (once more when a busy editor gave up on the first save). */
async function saveAs(file: string, content: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(file);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), content);
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok((await doc.save()) || (await doc.save()), `${file} saved`);
}

/**
 * The file merge of a conflict: opened the same way wherever the conflict was found (a pull or Refresh Status),
 * with "Yours" a fixed snapshot of the file, the result starting with the conflicting regions counted as conflicts,
 * and completing it asking nothing more of VS Code.
 */
suite('File merge of a conflict', function () {
  this.timeout(180_000);
  let api: WorkbenchExports;
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  const folders: string[] = [];
  const { behavior: platformBehavior } = supportMainOnPlatform(() => urls);
  const waitFor = <T>(what: string, read: () => T | undefined | false | Promise<T | undefined | false>) =>
    waitForEditor(api, what, read);
  const shown = (folder: string) => shownFolder(api, folder);

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

  /** A folder whose behavior's line was changed here one way and on the platform another (each a replacement). */
  async function conflictingBehavior(mine: [string, string], theirs: [string, string]) {
    const folder = await checkOutSupportMain(api, ui, folders, 'merge');
    const file = join(folder, 'behavior.md');
    const original = await readFile(file, 'utf8');
    assert.ok(original.includes(mine[0]) && original.includes(theirs[0]));
    await saveAs(file, original.replace(...mine));
    const platform = original.replace(...theirs);
    await admin.editBranch('ag_support', 'br_support_main', { behavior: platform.slice(0, -1) });
    return { folder, file, original, yours: await readFile(file, 'utf8'), platform };
  }

  test('a conflict found by Refresh Status opens the merge editor with the three sides, never a deletion question', async () => {
    const { folder, file, original, yours, platform } = await conflictingBehavior(
      ['Be brief and friendly.', 'Be brief, friendly and precise.'],
      ['Be brief and friendly.', 'Be brief and cheerful.'],
    );
    await vscode.commands.executeCommand('agentWorkbench.refreshStatus');
    await waitFor('behavior.md under Conflicts', () => shown(folder)?.groups.conflicts.includes('behavior.md'));

    const view = await vscode.commands.executeCommand<string>('agentWorkbench.openFileMerge', vscode.Uri.file(file));
    assert.equal(view, 'mergeEditor', ui.lastError());
    assert.ok(!ui.shown.some((s) => /deleted/.test(s.message)), 'a behavior is never described as deleted');
    const tab = await waitFor('the merge editor tab', () => mergeTab(file));
    assert.equal(await text(tab.base), original);
    assert.equal(await text(tab.input1), yours);
    assert.equal(await text(tab.input2), platform);

    // Taking the platform's side settles it like a pulled conflict.
    const result = await vscode.workspace.openTextDocument(tab.result);
    await waitFor('the merge editor ready', () => !result.getText().includes('<<<<<<<'));
    await vscode.commands.executeCommand('merge.acceptAllInput2');
    await waitFor('the platform side in the result', () => result.getText() === platform);
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.completeFileMerge', result.uri), true);
    await waitFor('the merge editor closed', () => !mergeTab(file));
    await waitFor('nothing left to push or settle', () => {
      const g = shown(folder)?.groups;
      return g && g.conflicts.length === 0 && g.local.length === 0;
    });
  });

  test('a topic changed here and deleted on the platform, found by Refresh Status, is kept by Keep My Version', async () => {
    const folder = await checkOutSupportMain(api, ui, folders, 'merge');
    const topic = join(folder, 'knowledge', 'returns.md');
    await saveAs(topic, (await readFile(topic, 'utf8')).replace('30 days', '45 days'));
    await admin.editBranch('ag_support', 'br_support_main', { deleteTopics: ['kt_returns'] });
    await vscode.commands.executeCommand('agentWorkbench.refreshStatus');
    await waitFor('returns.md under Conflicts', () => shown(folder)?.groups.conflicts.includes('knowledge/returns.md'));

    ui.setAnswer((s) => (s.modal ? 'Keep My Version' : undefined));
    await vscode.commands.executeCommand('agentWorkbench.openFileMerge', vscode.Uri.file(topic));
    assert.match(ui.shown.findLast((s) => s.modal)?.message ?? '', /deleted on the platform/);
    assert.ok(!ui.lastError(), ui.lastError());
    await waitFor('returns.md out of Conflicts and to push', () => {
      const g = shown(folder)?.groups;
      return g && !g.conflicts.includes('knowledge/returns.md') && g.local.includes('knowledge/returns.md');
    });
    assert.match(await readFile(topic, 'utf8'), /45 days/);
  });

  test('Yours stays the file as pulled after Accept and typing; the result starts with the conflict open; Accept Combination keeps both sides; completing asks nothing', async () => {
    // The same line changed in two places: a line conflict whose two changes VS Code can combine.
    const mine = 'Always greet the customer by name.';
    const theirs = 'delivery, gift cards and opening hours';
    const { folder, file, original, yours } = await conflictingBehavior(
      ['Be brief and friendly.', `Be brief and friendly. ${mine}`],
      ['delivery and opening hours', theirs],
    );
    const pulled = await vscode.commands.executeCommand<PullReport>('agentWorkbench.pull', vscode.Uri.file(folder));
    assert.deepEqual(
      pulled?.conflicts.map((c) => c.path),
      ['behavior.md'],
      ui.lastError(),
    );

    await vscode.commands.executeCommand('agentWorkbench.openFileMerge', vscode.Uri.file(file));
    const tab = await waitFor('the merge editor tab', () => mergeTab(file));
    assert.equal(await text(tab.input1), yours);
    // The result starts from the base in the region both changed: the conflict is open, not already "yours".
    const result = await vscode.workspace.openTextDocument(tab.result);
    await waitFor(
      'the result with the conflicting region as the base had it',
      () => result.getText().includes('Be brief and friendly.') && !result.getText().includes('<<<<<<<'),
    );
    assert.ok(!result.getText().includes(mine), 'your change is not taken before you choose');

    // The command acts on the active merge editor: on a busy machine the editor may not have taken it yet, so it is
    // given again every 2 s until the result holds both sides.
    let polls = 0;
    await waitFor('both sides in the result', async () => {
      if (result.getText().includes(mine) && result.getText().includes(theirs)) return true;
      if (polls++ % 20 === 0) await vscode.commands.executeCommand('mergeEditor.acceptAllCombination');
      return false;
    });
    assert.equal(await text(tab.input1), yours, 'Yours is unchanged after Accept Combination');
    assert.ok(
      result.getText().includes(`returns, ${theirs}. Be brief and friendly. ${mine}`),
      `every sentence of both sides: ${result.getText()}`,
    );

    const edit = new vscode.WorkspaceEdit();
    edit.insert(result.uri, new vscode.Position(0, 0), 'Typed in the result.\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.equal(await text(tab.input1), yours, 'Yours is unchanged after typing in the result');
    assert.equal(await text(tab.base), original);

    // Completing closes the merge editor without VS Code asking about unhandled conflicts (which would hold it open).
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.completeFileMerge', result.uri), true);
    await waitFor('the merge editor closed', () => !mergeTab(file));
    const merged = await readFile(file, 'utf8');
    assert.ok(merged.includes(mine) && merged.includes(theirs) && merged.startsWith('Typed in the result.'));
    await waitFor('no conflict left, behavior.md to push', () => {
      const s = shown(folder);
      return s?.groups.conflicts.length === 0 && s.groups.local.includes('behavior.md');
    });
    await vscode.commands.executeCommand('agentWorkbench.push', vscode.Uri.file(folder));
    assert.equal(`${await platformBehavior()}\n`, merged);
    // After the push, Source Control says the folder is in sync rather than showing nothing.
    await waitFor('Source Control saying it is in sync', () =>
      /^In sync with the platform/.test(shown(folder)?.nothingListed ?? ''),
    );
  });
});
