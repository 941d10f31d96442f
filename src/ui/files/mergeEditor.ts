import * as vscode from 'vscode';

/** The three sides of a file merge and the file that takes its result. */
export interface FileMergeSides {
  base: vscode.Uri;
  /** The file as it was in the folder when the merge began. */
  local: vscode.Uri;
  /** The platform's side. */
  remote: vscode.Uri;
  /** The file itself: what the person saves here is what the next push sends. */
  output: vscode.Uri;
  /** The file's path in the agent folder, for titles. */
  name: string;
}

/** How a file merge was shown. */
export type FileMergeView = 'mergeEditor' | 'diff';

/** VS Code's internal command that opens its merge editor (the one the Git extension uses). */
const OPEN_MERGE_EDITOR = '_open.mergeEditor';

/**
 * The one place that opens VS Code's merge editor, with base, local and remote, the file as its
 * result. The command is internal to VS Code: where it is missing or refuses the arguments, a plain
 * diff of the platform's side against the file is shown instead, so the person can still settle it.
 */
export async function openFileMerge(sides: FileMergeSides): Promise<FileMergeView> {
  try {
    await vscode.commands.executeCommand(OPEN_MERGE_EDITOR, {
      base: sides.base,
      input1: {
        uri: sides.local,
        title: vscode.l10n.t('Yours'),
        description: sides.name,
        detail: vscode.l10n.t('in the folder'),
      },
      input2: {
        uri: sides.remote,
        title: vscode.l10n.t('Platform'),
        description: sides.name,
        detail: vscode.l10n.t('changed since your last pull'),
      },
      output: sides.output,
    });
    return 'mergeEditor';
  } catch {
    await vscode.commands.executeCommand(
      'vscode.diff',
      sides.remote,
      sides.output,
      vscode.l10n.t('{0} (Platform ↔ Yours): edit your side, save, then Complete File Merge', sides.name),
    );
    return 'diff';
  }
}

/** A merge editor tab's sides (VS Code's TabInputTextMerge, which its typings of this version do not declare). */
export interface MergeTabInput {
  base: vscode.Uri;
  input1: vscode.Uri;
  input2: vscode.Uri;
  result: vscode.Uri;
}

export function mergeTabInput(input: unknown): MergeTabInput | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const i = input as Partial<Record<keyof MergeTabInput, unknown>>;
  return [i.base, i.input1, i.input2, i.result].every((u) => u instanceof vscode.Uri)
    ? (input as MergeTabInput)
    : undefined;
}

/** The result file of the merge editor in the active tab, if one is open there. */
export function activeMergeResult(): vscode.Uri | undefined {
  return mergeTabInput(vscode.window.tabGroups.activeTabGroup.activeTab?.input)?.result;
}

/** Closes the merge editors and diffs whose result is the file (after its merge is settled). */
export async function closeFileMerge(output: vscode.Uri): Promise<void> {
  const same = (u: vscode.Uri | undefined): boolean => u?.toString() === output.toString();
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter(
      (t) =>
        same(mergeTabInput(t.input)?.result) ||
        (t.input instanceof vscode.TabInputTextDiff && same(t.input.modified) && t.input.original.scheme !== 'file'),
    );
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}
