// What the branch commands say and show, without the editor: how a diverged item of a branch merge
// is named, how each side reads in a quick pick and in a diff, and the questions around switching.
// "Branch merge" is the platform's merge of a branch into main; "file merge" (the three-way merge of
// files on pull) is another thing and is not named here.
import { isMain } from '../model/agentsSource';
import type { Branch, MergeConflict, MergeResolution, MergeValue } from '../../contract/agents';
import type { L10n } from '../common/l10n';

const TOPIC_PATH = /^knowledge-base\/topics\/([^/]+)(?:\/(name|content))?$/;

/** What a conflict path is about: the behavior, a whole topic (added or deleted on one side), or one field of a topic. */
export type ConflictSubject =
  | { kind: 'behavior' }
  | { kind: 'topic'; topicId: string }
  | { kind: 'topicField'; topicId: string; field: 'name' | 'content' }
  | { kind: 'other' };

export function conflictSubject(path: string): ConflictSubject {
  if (path === 'behavior') return { kind: 'behavior' };
  const m = TOPIC_PATH.exec(path);
  if (!m) return { kind: 'other' };
  return m[2]
    ? { kind: 'topicField', topicId: m[1]!, field: m[2] as 'name' | 'content' }
    : { kind: 'topic', topicId: m[1]! };
}

/** A topic's name from the conflict itself where it carries one, else from `names` (main's topics), else its id. */
function topicName(conflict: MergeConflict, topicId: string, names: ReadonlyMap<string, string>): string {
  const subject = conflictSubject(conflict.path);
  for (const v of [conflict.base, conflict.ours, conflict.theirs]) {
    if (v !== null && typeof v === 'object') return v.name;
    if (subject.kind === 'topicField' && subject.field === 'name' && typeof v === 'string')
      return names.get(topicId) ?? v;
  }
  return names.get(topicId) ?? topicId;
}

/** The item a person reads: "Behavior", "Topic “Opening hours”", "Content of topic “Opening hours”". */
export function conflictLabel(l10n: L10n, conflict: MergeConflict, names: ReadonlyMap<string, string>): string {
  const s = conflictSubject(conflict.path);
  switch (s.kind) {
    case 'behavior':
      return l10n.t('Behavior');
    case 'topic':
      return l10n.t('Topic “{0}”', topicName(conflict, s.topicId, names));
    case 'topicField':
      return s.field === 'name'
        ? l10n.t('Name of topic “{0}”', topicName(conflict, s.topicId, names))
        : l10n.t('Content of topic “{0}”', topicName(conflict, s.topicId, names));
    case 'other':
      return conflict.path;
  }
}

/** How one side of a conflict changed the item since the branch was made, in a few words. */
export function sideSummary(l10n: L10n, base: MergeValue, value: MergeValue): string {
  if (value === null) return base === null ? l10n.t('absent') : l10n.t('deleted');
  if (base === null) return l10n.t('added: {0}', preview(value));
  return l10n.t('changed: {0}', preview(value));
}

/** The start of a value on one line, for quick picks. */
export function preview(value: MergeValue, max = 60): string {
  if (value === null) return '';
  const text = typeof value === 'string' ? value : `${value.name}: ${value.content}`;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * A side as a document for the diff of the two: the text itself, a topic as its name and content
 * (the way its file starts), nothing for a side where the item does not exist.
 */
export function sideDocument(value: MergeValue): string {
  if (value === null) return '';
  if (typeof value === 'string') return value.endsWith('\n') ? value : `${value}\n`;
  return `# ${value.name}\n\n${value.content}\n`;
}

/**
 * The choices of one conflict; `compare` opens the two sides side by side and asks again; `mergeEditor` (text items)
 * opens the merge editor with both sides, so lines of each can be kept.
 */
export type ConflictChoice = 'branch' | 'main' | 'mergeEditor' | 'compare';

export interface ChoiceItem {
  label: string;
  description: string;
  choice: ConflictChoice;
}

export function conflictChoices(l10n: L10n, conflict: MergeConflict, branchName: string, text = false): ChoiceItem[] {
  return [
    {
      label: l10n.t('Keep the branch’s version'),
      description: l10n.t('{0}: {1}', branchName, sideSummary(l10n, conflict.base, conflict.theirs)),
      choice: 'branch',
    },
    {
      label: l10n.t('Keep main’s version'),
      description: l10n.t('main: {0}', sideSummary(l10n, conflict.base, conflict.ours)),
      choice: 'main',
    },
    ...(text
      ? [
          {
            label: l10n.t('Merge in the merge editor…'),
            description: l10n.t('keep lines of main and of {0}', branchName),
            choice: 'mergeEditor' as const,
          },
        ]
      : []),
    { label: l10n.t('Compare main and the branch…'), description: '', choice: 'compare' },
  ];
}

/** The resolution the platform is sent for a choice: `theirs` is the branch, `ours` is main. */
export function resolutionFor(conflict: MergeConflict, choice: 'branch' | 'main'): MergeResolution {
  return { path: conflict.path, strategy: choice === 'branch' ? 'theirs' : 'ours' };
}

/** The question shown when a branch merge is refused because main and the branch changed the same items. */
export function divergedQuestion(
  l10n: L10n,
  branchName: string,
  conflicts: readonly MergeConflict[],
  names: ReadonlyMap<string, string>,
): { question: string; detail: string; go: string } {
  const items = conflicts.map((c) => `• ${conflictLabel(l10n, c, names)}`).join('\n');
  return {
    question:
      conflicts.length === 1
        ? l10n.t('Main and {0} both changed one item since the branch was made.', branchName)
        : l10n.t('Main and {0} both changed {1} items since the branch was made.', branchName, conflicts.length),
    detail: l10n.t(
      '{0}\n\nNothing has been merged yet. Choose, item by item, which version main keeps (a text can also be merged in the merge editor, keeping lines of both); the branch merge then completes with your choices.',
      items,
    ),
    go: l10n.t('Choose…'),
  };
}

/** The question before switching a folder whose files have edits not pushed. */
export function unpushedQuestion(
  l10n: L10n,
  branchName: string,
  paths: readonly string[],
): { question: string; detail: string; push: string; discard: string } {
  const shown = paths.slice(0, 5).join('\n');
  const more = paths.length > 5 ? `\n${l10n.t('and {0} more', paths.length - 5)}` : '';
  return {
    question:
      paths.length === 1
        ? l10n.t('1 file has edits not pushed. Push or discard them before switching to {0}.', branchName)
        : l10n.t(
            '{0} files have edits not pushed. Push or discard them before switching to {1}.',
            paths.length,
            branchName,
          ),
    detail: `${shown}${more}`,
    push: l10n.t('Push'),
    discard: l10n.t('Discard…'),
  };
}

/** The confirmation of a discard: nothing else asks before edits are thrown away. */
export function discardQuestion(
  l10n: L10n,
  paths: readonly string[],
): { question: string; detail: string; go: string } {
  return {
    question:
      paths.length === 1
        ? l10n.t('Discard the edits of 1 file? They cannot be brought back.')
        : l10n.t('Discard the edits of {0} files? They cannot be brought back.', paths.length),
    detail: paths.slice(0, 10).join('\n') + (paths.length > 10 ? `\n${l10n.t('and {0} more', paths.length - 10)}` : ''),
    go: l10n.t('Discard Edits'),
  };
}

/** What the person is told when the branch merge went through. */
export function mergedMessage(l10n: L10n, branchName: string, changes: number | undefined, resolved: number): string {
  const what =
    changes === undefined
      ? l10n.t('Branch {0} is merged into main.', branchName)
      : changes === 0
        ? l10n.t('Branch {0} is merged into main: main already had everything.', branchName)
        : changes === 1
          ? l10n.t('Branch {0} is merged into main: 1 change.', branchName)
          : l10n.t('Branch {0} is merged into main: {1} changes.', branchName, changes);
  return resolved > 0
    ? `${what} ${resolved === 1 ? l10n.t('1 item as you chose.') : l10n.t('{0} items as you chose.', resolved)}`
    : what;
}

/**
 * What a branch picker says beside a branch's name: main is the branch that gets published; another, who made it
 * and when, where the platform says. Never the internal id, which means nothing to a person choosing.
 */
export function branchPickDescription(
  l10n: L10n,
  b: Pick<Branch, 'name' | 'isDefault' | 'createdAt' | 'createdBy'>,
): string {
  if (isMain(b)) return l10n.t('the branch that gets published');
  const day = b.createdAt?.slice(0, 10);
  if (b.createdBy && day) return l10n.t('made by {0} on {1}', b.createdBy, day);
  if (b.createdBy) return l10n.t('made by {0}', b.createdBy);
  return day ? l10n.t('made on {0}', day) : '';
}
