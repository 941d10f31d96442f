import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';
import { type ScriptedPrompts, type Shown, scriptedPrompts } from '../support/editor/prompts';
import { call } from '../support/http';
import { activateExtension, type LocalPlatformUrls } from '../support/editor/extension';
import { LocalAdmin } from '../support/localAdmin';
import type { BranchEditRequest } from '../../src/localPlatform/adminApi';
import { settled, until } from '../support/until';

const AGENT = 'ag_support';

/** A merge editor tab's sides (VS Code's TabInputTextMerge, which its typings of this version do not declare). */
interface MergeTab {
  base: vscode.Uri;
  input1: vscode.Uri;
  input2: vscode.Uri;
  result: vscode.Uri;
}

/** The open compare tabs and merge editors of branch merges. */
function branchMergeTabs(): Array<vscode.TabInputTextDiff | MergeTab> {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .map((t) => t.input)
    .filter(
      (i): i is vscode.TabInputTextDiff | MergeTab =>
        (i instanceof vscode.TabInputTextDiff && i.original.scheme === 'agent-workbench-branch-merge') ||
        (i as Partial<MergeTab> | undefined)?.base?.scheme === 'agent-workbench-branch-merge',
    );
}
const MAIN = 'br_support_main';

/** Create, switch and merge branches of a checked-out agent folder, against the local platform. */
suite('Branches of a checked-out agent folder', () => {
  let urls: LocalPlatformUrls;
  let admin: LocalAdmin;
  let ui: ScriptedPrompts;
  const dirs: string[] = [];
  const key = { 'x-api-key': LOCAL_KEYS.agents };

  const build = <T>(method: string, path: string, body?: unknown) =>
    call<T>(method, `${urls.build}/v1/agents/${AGENT}${path}`, { headers: key, body });
  const behaviorOf = async (branchId: string) =>
    (await build<{ behavior: string }>('GET', `/branches/${branchId}/behavior`)).body.behavior;
  const topicsOf = async (branchId: string) =>
    (
      await build<{ topics: Array<{ topicId: string; name: string; content: string }> }>(
        'GET',
        `/branches/${branchId}/knowledge-base/topics`,
      )
    ).body.topics;
  const branchNamed = async (name: string) => {
    const { body } = await build<{ branches: Array<{ branchId: string; name: string }> }>('GET', '/branches');
    const found = body.branches.find((b) => b.name === name);
    assert.ok(found, `no branch ${name} among ${body.branches.map((b) => b.name).join(', ')}`);
    return found.branchId;
  };
  /** Someone else's edit, as a teammate in the studio would make it (the local platform's admin API). */
  const teammateEdits = (branchId: string, edit: BranchEditRequest) => admin.editBranch(AGENT, branchId, edit);
  const manifestOf = async (folder: string) =>
    JSON.parse(await readFile(join(folder, 'agent.json'), 'utf8')) as { branch: { branchId: string; name: string } };
  const eventually = <T>(what: string, check: () => Promise<T | undefined | false>): Promise<T> =>
    until(what, check, { timeoutMs: 20_000, intervalMs: 50, detail: () => `last error: ${ui.lastError()}` });
  const checkOut = async (branchId: string): Promise<string> => {
    // As a person would after making a branch in the studio: the Agents view is refreshed first.
    await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
    // Inside the workspace, where agent folders live: Push and the Source Control view know only those.
    const dir = await mkdtemp(join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'branches-'));
    dirs.push(dir);
    const folder = join(dir, 'support-desk');
    const done = await vscode.commands.executeCommand<string>('agentWorkbench.checkOut', {
      agentId: AGENT,
      branchId,
      folder,
    });
    assert.equal(done, folder, ui.lastError());
    return folder;
  };

  suiteSetup(async () => {
    const api = await activateExtension();
    urls = await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform');
    admin = new LocalAdmin(urls.admin);
    await admin.reset();
    await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
    ui = scriptedPrompts(api);
  });

  suiteTeardown(async () => {
    ui.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  setup(() => {
    ui.shown.length = 0;
    ui.setAnswer(() => undefined);
  });

  test('a branch created from the folder starts as its branch, and the folder switches to it when asked', async () => {
    const folder = await checkOut(MAIN);
    ui.setAnswer((s) =>
      s.kind === 'input' ? 'holiday-hours' : s.items.find((i) => i === 'Switch Folder to holiday-hours'),
    );
    const branchId = await vscode.commands.executeCommand<string>('agentWorkbench.createBranchFrom', folder);
    assert.ok(branchId, ui.lastError());
    assert.equal(branchId, await branchNamed('holiday-hours'));
    assert.equal(await behaviorOf(branchId), await behaviorOf(MAIN));
    await eventually('the folder to hold holiday-hours', () =>
      Promise.resolve(ui.shown.some((s) => /now holds branch holiday-hours/.test(s.message))),
    );
    assert.equal((await manifestOf(folder)).branch.branchId, branchId);
    // A name already taken is refused in the box, before anything is sent.
    ui.setAnswer((s) => (s.kind === 'input' ? 'holiday-hours' : undefined));
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.createBranchFrom', folder), undefined);
    assert.match(
      ui.shown.filter((s) => s.kind === 'input').at(-1)?.refused ?? '',
      /already has a branch named holiday-hours/,
    );
  });

  test('a branch created from a branch other than main carries that branch’s content', async () => {
    const source = (await build<{ branchId?: string }>('POST', '/branches', { name: 'autumn' })).body.branchId;
    const autumn = source ?? (await branchNamed('autumn'));
    await teammateEdits(autumn, { behavior: 'Autumn behavior: mention the harvest sale.' });
    const folder = await checkOut(autumn);
    ui.setAnswer((s) => (s.kind === 'input' ? 'autumn-late' : undefined));
    const created = await vscode.commands.executeCommand<string>('agentWorkbench.createBranchFrom', folder);
    assert.ok(created, ui.lastError());
    assert.equal(await behaviorOf(created), 'Autumn behavior: mention the harvest sale.');
    assert.deepEqual(
      (await topicsOf(created)).map((t) => [t.name, t.content]).sort(),
      (await topicsOf(autumn)).map((t) => [t.name, t.content]).sort(),
    );
    // Not asked to switch: the folder stays where it was.
    assert.equal((await manifestOf(folder)).branch.branchId, autumn);
  });

  test('switching with edits not pushed is refused; dismissing or cancelling the discard keeps every edit', async () => {
    const folder = await checkOut(await branchNamed('holiday-hours'));
    const edited = `${await readFile(join(folder, 'behavior.md'), 'utf8')}Closed on public holidays.\n`;
    await writeFile(join(folder, 'behavior.md'), edited);
    const switchToMain = (answer: (s: Shown) => string | undefined) => {
      ui.setAnswer((s) => (s.kind === 'pick' ? 'main' : answer(s)));
      return vscode.commands.executeCommand<string>('agentWorkbench.switchBranch', folder);
    };
    // Dismissed: nothing happens.
    assert.equal(await switchToMain(() => undefined), undefined);
    const refusal = ui.shown.find((s) => s.modal);
    assert.match(refusal?.message ?? '', /1 file has edits not pushed/);
    assert.equal(refusal?.detail, 'behavior.md');
    assert.deepEqual(refusal?.items, ['Push', 'Discard…']);
    // Discard chosen, then its confirmation dismissed: nothing happens either.
    assert.equal(await switchToMain((s) => (s.items.includes('Discard…') ? 'Discard…' : undefined)), undefined);
    assert.match(ui.shown.at(-1)?.message ?? '', /Discard the edits of 1 file\?/);
    assert.equal(await readFile(join(folder, 'behavior.md'), 'utf8'), edited);
    assert.equal((await manifestOf(folder)).branch.name, 'holiday-hours');
  });

  test('Push then switch sends the edits first; Discard then switch puts main’s files in place', async () => {
    const holiday = await branchNamed('holiday-hours');
    const folder = await checkOut(holiday);
    const edited = `${await readFile(join(folder, 'behavior.md'), 'utf8')}Open late on Fridays.\n`;
    await writeFile(join(folder, 'behavior.md'), edited);
    const canPush = (await vscode.commands.getCommands(true)).includes('agentWorkbench.push');
    ui.setAnswer((s) => (s.kind === 'pick' ? 'main' : s.items.includes('Push') ? 'Push' : undefined));
    const pushed = await vscode.commands.executeCommand<string>('agentWorkbench.switchBranch', folder);
    if (canPush) {
      assert.equal(pushed, MAIN, ui.lastError());
      assert.equal(`${await behaviorOf(holiday)}\n`, edited);
    } else {
      // Without the file mirror's Push in this editor, the switch stops and says so; the edit stays.
      assert.equal(pushed, undefined);
      assert.match(ui.lastError(), /Push is not available/);
      assert.equal(await readFile(join(folder, 'behavior.md'), 'utf8'), edited);
      ui.setAnswer((s) =>
        s.kind === 'pick' ? 'main' : (['Discard…', 'Discard Edits'] as const).find((i) => s.items.includes(i)),
      );
      assert.equal(await vscode.commands.executeCommand<string>('agentWorkbench.switchBranch', folder), MAIN);
    }
    assert.equal((await manifestOf(folder)).branch.branchId, MAIN);
    assert.equal(await readFile(join(folder, 'behavior.md'), 'utf8'), `${await behaviorOf(MAIN)}\n`);
  });

  test('a branch merge without divergence puts the branch’s changes on main', async () => {
    const holiday = await branchNamed('holiday-hours');
    const folder = await checkOut(holiday);
    const behavior = `${await behaviorOf(MAIN)}\nOn public holidays, say the shop is closed and offer a callback.`;
    await teammateEdits(holiday, { behavior });
    ui.setAnswer((s) => (s.items.includes('Merge') ? 'Merge' : undefined));
    const result = await vscode.commands.executeCommand<object>('agentWorkbench.mergeBranch', folder);
    assert.ok(result, ui.lastError());
    assert.equal(await behaviorOf(MAIN), behavior);
    assert.match(ui.shown.at(-1)?.message ?? '', /Branch holiday-hours is merged into main/);
  });

  test('a branch merge refused with 409 is walked item by item and completes with the choices', async () => {
    const created = (await build<{ branchId?: string }>('POST', '/branches', { name: 'spring-menu' })).body.branchId;
    const spring = created ?? (await branchNamed('spring-menu'));
    const topic = (await topicsOf(MAIN)).find((t) => t.name === 'Opening hours');
    assert.ok(topic);
    // Main and the branch change the same things differently.
    await teammateEdits(MAIN, {
      behavior: 'Main: greet in English and Spanish.',
      upsertTopics: [{ topicId: topic.topicId, name: topic.name, content: 'Main: open 9 to 17.' }],
    });
    await teammateEdits(spring, {
      behavior: 'Branch: recommend the spring menu.',
      upsertTopics: [{ topicId: topic.topicId, name: topic.name, content: 'Branch: open 8 to 20.' }],
    });
    const folder = await checkOut(spring);
    let compared = false;
    let comparedTab: vscode.TabInputTextDiff | undefined;
    ui.setAnswer((s) => {
      if (s.items.includes('Merge')) return 'Merge';
      if (s.items.includes('Choose…')) return 'Choose…';
      if (s.kind !== 'pick') return undefined;
      if (/^Behavior:/.test(s.message)) {
        if (compared) {
          // Asked again once the two sides are shown side by side.
          comparedTab = branchMergeTabs().find((i) => i instanceof vscode.TabInputTextDiff);
          return 'Keep the branch’s version';
        }
        compared = true;
        return 'Compare main and the branch…';
      }
      return /^Content of topic “Opening hours”/.test(s.message) ? 'Keep main’s version' : undefined;
    });
    const result = await vscode.commands.executeCommand<object>('agentWorkbench.mergeBranch', folder);
    assert.ok(result, ui.lastError());
    // What diverged was shown before anything was chosen.
    const diverged = ui.shown.find((s) => s.items.includes('Choose…'));
    assert.match(diverged?.message ?? '', /Main and spring-menu both changed 2 items/);
    assert.match(diverged?.detail ?? '', /Behavior/);
    assert.match(diverged?.detail ?? '', /Content of topic “Opening hours”/);
    // Compare opened the two sides of the behavior side by side while the walk went on.
    assert.ok(comparedTab, 'the two sides were shown side by side');
    const [left, right] = await Promise.all(
      [comparedTab.original, comparedTab.modified].map((u) => vscode.workspace.openTextDocument(u)),
    );
    assert.equal(left!.getText(), 'Main: greet in English and Spanish.\n');
    assert.equal(right!.getText(), 'Branch: recommend the spring menu.\n');
    // The merge done, its compare tab is closed.
    await eventually('the compare tab closed', async () => branchMergeTabs().length === 0);
    // Main took the branch's behavior and kept its own opening hours.
    assert.equal(await behaviorOf(MAIN), 'Branch: recommend the spring menu.');
    assert.equal((await topicsOf(MAIN)).find((t) => t.topicId === topic.topicId)?.content, 'Main: open 9 to 17.');
    assert.match(ui.shown.at(-1)?.message ?? '', /merged into main.*2 items as you chose/);
  });

  test('a behavior both changed is merged in the merge editor, main on one side and the branch on the other, keeping lines of both', async function () {
    // Each step is bounded by itself (20 s) and names itself when it hangs; the test as a whole by mocha.
    this.timeout(90_000);
    const created = (await build<{ branchId?: string }>('POST', '/branches', { name: 'summer-menu' })).body.branchId;
    const summer = created ?? (await branchNamed('summer-menu'));
    const base = await behaviorOf(MAIN);
    const mainLine = 'Main: greet in English and Spanish.';
    const branchLine = 'Branch: recommend the summer menu.';
    await teammateEdits(MAIN, { behavior: `${base}\n${mainLine}` });
    await teammateEdits(summer, { behavior: `${base}\n${branchLine}` });
    const folder = await settled('checking out summer-menu', checkOut(summer));
    // The merge editor's commands act on the active editor: what suites before left open (a chat panel beside) goes.
    await settled('closing all editors', vscode.commands.executeCommand('workbench.action.closeAllEditors'));
    await settled('closing the panel', vscode.commands.executeCommand('workbench.action.closePanel'));
    ui.setAnswer((s) => {
      if (s.items.includes('Merge')) return 'Merge';
      if (s.items.includes('Choose…')) return 'Choose…';
      return s.kind === 'pick' && /^Behavior:/.test(s.message) ? 'Merge in the merge editor…' : undefined;
    });
    const merging = vscode.commands.executeCommand<object>('agentWorkbench.mergeBranch', folder);
    const tab = await eventually('the merge editor of the behavior', async () =>
      branchMergeTabs().find((i): i is MergeTab => !(i instanceof vscode.TabInputTextDiff)),
    );
    const text = async (u: vscode.Uri) =>
      (await settled(`opening ${u.toString()}`, vscode.workspace.openTextDocument(u))).getText();
    assert.equal(await text(tab.base), base);
    assert.equal(await text(tab.input1), `${base}\n${mainLine}`, 'main on one side');
    assert.equal(await text(tab.input2), `${base}\n${branchLine}`, 'the branch on the other');
    // The lines both added are a conflict to settle, not already taken from either side.
    const result = await settled('opening the result', vscode.workspace.openTextDocument(tab.result));
    await eventually('the result with the conflict open', async () => !result.getText().includes('<<<<<<<'));
    assert.ok(!result.getText().includes(mainLine) && !result.getText().includes(branchLine), result.getText());
    await settled('accepting both sides', vscode.commands.executeCommand('mergeEditor.acceptAllCombination'));
    await eventually(
      'both lines in the result',
      async () => result.getText().includes(mainLine) && result.getText().includes(branchLine),
    );
    assert.equal(
      await settled('Use Merge Result', vscode.commands.executeCommand('agentWorkbench.useBranchMergeResult')),
      true,
      ui.lastError(),
    );
    assert.ok(await settled('the merge after its result', merging), ui.lastError());
    const merged = await behaviorOf(MAIN);
    assert.ok(merged.startsWith(base) && merged.includes(mainLine) && merged.includes(branchLine), merged);
    assert.ok(!merged.endsWith('\n'), 'the behavior ends as both sides did');
    assert.match(ui.shown.at(-1)?.message ?? '', /merged into main.*1 item as you chose/);
    await eventually('the merge editor closed', async () => branchMergeTabs().length === 0);
  });

  test('stopping the walk through a 409 merges nothing', async () => {
    const created = (await build<{ branchId?: string }>('POST', '/branches', { name: 'winter' })).body.branchId;
    const winter = created ?? (await branchNamed('winter'));
    await teammateEdits(MAIN, { behavior: 'Main: winter is coming.' });
    await teammateEdits(winter, { behavior: 'Branch: winter sale.' });
    const folder = await checkOut(winter);
    ui.setAnswer((s) => (s.items.includes('Merge') ? 'Merge' : s.items.includes('Choose…') ? 'Choose…' : undefined));
    assert.equal(await vscode.commands.executeCommand('agentWorkbench.mergeBranch', folder), undefined);
    assert.equal(await behaviorOf(MAIN), 'Main: winter is coming.');
    assert.match(ui.shown.at(-1)?.message ?? '', /stopped: nothing was merged/);
  });
});
