import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MergeConflict, MergeValue } from '../../contract/agents';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import { runCommand, UserFacingError } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { Command } from '../ids';
import { Scheme } from '../uris';
import { workspaceRuntime } from '../workspaceRuntime';
import { sideDocument } from './branchWording';
import { mergeTabInput } from './mergeEditor';

/** How long the walk through a merge waits for the editor to show two sides compared. */
const SIDES_WAIT_MS = 10_000;
/** How long a used merge result waits for the merge editor's sides to agree with it before its tab is closed. */
const AGREE_WAIT_MS = 5_000;

/** A text item of a branch merge: the behavior, or a topic's name or content, a string on both sides. */
export function isTextConflict(conflict: MergeConflict): boolean {
  const text = (v: MergeValue) => typeof v === 'string';
  return text(conflict.ours) && text(conflict.theirs) && (conflict.base === null || text(conflict.base));
}

const safe = (name: string): string => name.replace(/[/\\?#%:*"<>|]/g, '-');

interface OpenMerge {
  readonly output: vscode.Uri;
  readonly sides: readonly vscode.Uri[];
  readonly dir: string;
  readonly done: (text: string | undefined) => void;
}

/**
 * The two sides of a diverged branch-merge item (main and the branch), read-only and kept in memory while the
 * editor runs: shown side by side, or in VS Code's merge editor with main and the branch as its inputs, so lines of
 * both can be kept. The merge editor's result is a file of its own in the temp folder; Use Merge Result for Main
 * takes it as the item's value.
 */
export class BranchMergeSides extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly _onDidChange = this.register(new Emitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;
  private readonly open = new Map<string, OpenMerge>();
  private next = 0;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(Scheme.branchMerge, this));
    // A merge editor closed without its result used: the item is asked again.
    this.register(
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          const result = mergeTabInput(tab.input)?.result;
          const merge = result && this.open.get(result.toString());
          if (merge) void this.finish(merge, undefined);
        }
      }),
    );
    this.register(
      vscode.commands.registerCommand(Command.useBranchMergeResult, (arg?: unknown) =>
        runCommand(() => this.useResult(arg)),
      ),
    );
    this.register({ dispose: () => [...this.open.values()].forEach((m) => void this.finish(m, undefined)) });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  private side(id: number, side: string, label: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: Scheme.branchMerge, path: `/${id}/${safe(side)}/${safe(label)}` });
    this.texts.set(uri.path, text);
    return uri;
  }

  /** Shows main and the branch side by side; the walk goes on once they are shown, or after a while. */
  async compare(conflict: MergeConflict, label: string, branchName: string): Promise<void> {
    const id = ++this.next;
    const opened = vscode.commands.executeCommand(
      'vscode.diff',
      this.side(id, 'main', label, sideDocument(conflict.ours)),
      this.side(id, branchName, label, sideDocument(conflict.theirs)),
      vscode.l10n.t('{0}: main ↔ {1}', label, branchName),
      { preview: true },
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      opened.then(undefined, () => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, SIDES_WAIT_MS))),
    ]).finally(() => clearTimeout(timer));
  }

  /**
   * Opens the merge editor on a text item: base, main (left) and the branch (right), the result starting with the
   * lines both changed counted as conflicts. Answers the text the person used for main, or undefined when they
   * closed the merge editor without using it.
   */
  async merge(conflict: MergeConflict, label: string, branchName: string): Promise<string | undefined> {
    const text = (v: MergeValue): string => (typeof v === 'string' ? v : '');
    const [base, main, branch] = [text(conflict.base), text(conflict.ours), text(conflict.theirs)];
    const { withConflictMarkers, mergeLines } = workspaceRuntime();
    const id = ++this.next;
    const dir = await mkdtemp(path.join(tmpdir(), 'agent-workbench-branch-merge-'));
    const output = vscode.Uri.file(path.join(dir, `${safe(label)}.md`));
    await writeFile(output.fsPath, withConflictMarkers(main, base, branch) ?? mergeLines(base, main, branch) ?? main);
    const sides = [
      this.side(id, 'base', label, base),
      this.side(id, 'main', label, main),
      this.side(id, branchName, label, branch),
    ] as const;
    const used = new Promise<string | undefined>((done) =>
      this.open.set(output.toString(), { output, sides, dir, done }),
    );
    await vscode.commands.executeCommand('_open.mergeEditor', {
      base: sides[0],
      input1: { uri: sides[1], title: 'main', description: label, detail: vscode.l10n.t('main now') },
      input2: { uri: sides[2], title: branchName, description: label, detail: vscode.l10n.t('the branch') },
      output,
    });
    const use = vscode.l10n.t('Use Merge Result for Main');
    void prompts
      .info(
        vscode.l10n.t(
          'Merge {0} in the merge editor: main on the left, {1} on the right; keep lines of either or both. Then Use Merge Result for Main (in the title bar). Closing the merge editor goes back to the choices.',
          label,
          branchName,
        ),
        use,
      )
      .then((choice) => {
        if (choice === use) void vscode.commands.executeCommand(Command.useBranchMergeResult, output);
      });
    // Values that end without a new line (as the platform keeps them) keep ending so.
    const endsBare = !main.endsWith('\n') && !branch.endsWith('\n');
    return used.then((t) => (t !== undefined && endsBare ? t.replace(/\n$/, '') : t));
  }

  /** Use Merge Result for Main: the result of the merge editor given or active is the item's value. */
  private async useResult(arg: unknown): Promise<boolean> {
    const result =
      arg instanceof vscode.Uri ? arg : mergeTabInput(vscode.window.tabGroups.activeTabGroup.activeTab?.input)?.result;
    const merge = result && this.open.get(result.toString());
    if (!merge) throw new UserFacingError(vscode.l10n.t('Open the merge editor of a branch merge item first.'));
    const doc = await vscode.workspace.openTextDocument(merge.output);
    if (doc.isDirty) await doc.save();
    const text = doc.getText();
    // The sides agree with the result before its tab closes, so VS Code finds no conflict left and asks nothing.
    for (const side of merge.sides) {
      this.texts.set(side.path, text);
      this._onDidChange.fire(side);
    }
    await this.whenShown(merge.sides, text);
    await this.finish(merge, text);
    return true;
  }

  private async whenShown(uris: readonly vscode.Uri[], text: string): Promise<void> {
    const deadline = Date.now() + AGREE_WAIT_MS;
    for (const uri of uris) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      while (doc && !doc.isClosed && doc.getText() !== text && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    }
  }

  private async finish(merge: OpenMerge, text: string | undefined): Promise<void> {
    if (!this.open.delete(merge.output.toString())) return;
    merge.done(text);
    await this.closeTabs((input) => mergeTabInput(input)?.result.toString() === merge.output.toString());
    for (const side of merge.sides) this.texts.delete(side.path);
    await rm(merge.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  /** Closes the compare tabs and merge editors of branch merges (once the merge is done). */
  async closeAll(): Promise<void> {
    await this.closeTabs(
      (input) =>
        (input instanceof vscode.TabInputTextDiff && input.original.scheme === Scheme.branchMerge) ||
        mergeTabInput(input)?.base.scheme === Scheme.branchMerge,
    );
  }

  private async closeTabs(which: (input: unknown) => boolean): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => which(t.input));
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true).then(undefined, () => undefined);
  }
}
