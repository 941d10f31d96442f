import type * as Diff from 'diff';

/** One piece of a word diff: in both texts, only in the second (added) or only in the first (removed). */
export interface WordDiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** diff, required on the first comparison rather than at load (dist/diff.js). */
let diffLibrary: typeof Diff | undefined;

/**
 * Two answers word by word; whitespace alone is no difference. Spaces are compared as words of their own, so each
 * side reads exactly as its answer (plain word diffs may move a space across a change). Replay and the comparison
 * of two targets mark differing words with it alike.
 */
export function wordDiff(before: string, after: string): { diff: WordDiffPart[]; same: boolean } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  diffLibrary ??= require('diff') as typeof Diff;
  const diff: WordDiffPart[] = diffLibrary.diffWordsWithSpace(before, after).map((c) => ({
    kind: c.added ? 'added' : c.removed ? 'removed' : 'same',
    text: c.value,
  }));
  return { diff, same: diff.every((p) => p.kind === 'same' || !p.text.trim()) };
}

/**
 * The word diff, or, when the two texts share less than a third of their words' characters, the first removed
 * whole and the second added whole: two different answers read better side by side than as interleaved words.
 */
export function readableDiff(before: string, after: string): { diff: WordDiffPart[]; same: boolean } {
  const words = wordDiff(before, after);
  if (words.same) return words;
  const length = (kinds: readonly WordDiffPart['kind'][]) =>
    words.diff.filter((p) => kinds.includes(p.kind)).reduce((n, p) => n + p.text.replace(/\s+/g, '').length, 0);
  const shared = length(['same']);
  if (shared * 3 >= length(['same', 'removed']) || shared * 3 >= length(['same', 'added'])) return words;
  return {
    diff: [
      ...(before ? [{ kind: 'removed' as const, text: before }] : []),
      ...(after ? [{ kind: 'added' as const, text: after }] : []),
    ],
    same: false,
  };
}
