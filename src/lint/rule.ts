import type { ParsedFile } from './agentFile';
import type { Finding, Severity } from './problem';

/** Numbers a builder may tune in the lint file's `options`. */
export interface LintOptions {
  /** The behavior's budget, in characters, before `behavior-length-budget` speaks. */
  behaviorBudget: number;
  /** The share of word shingles two topics have in common from which they count as near-duplicates. */
  nearDuplicateSimilarity: number;
}

export const DEFAULT_OPTIONS: LintOptions = { behaviorBudget: 20_000, nearDuplicateSimilarity: 0.8 };

/** What every check may know beyond the files. */
export interface LintContext {
  /** Values of this workspace's own credentials: found anywhere, reported without the value. */
  credentials: readonly string[];
  options: LintOptions;
}

interface RuleInfo {
  /** Also the name of its page, docs/rules/<id>.md. */
  id: string;
  severity: Severity;
  /** One line: what the rule catches. */
  summary: string;
}

/** A rule that looks at one file at a time (its findings are kept while the file's text stays the same). */
export interface FileRule extends RuleInfo {
  scope: 'file';
  check(file: ParsedFile, context: LintContext): Finding[];
}

/** A rule that compares files with each other (the topics of a folder). */
export interface FolderRule extends RuleInfo {
  scope: 'folder';
  check(files: readonly ParsedFile[], context: LintContext): Finding[];
  /**
   * A check that keeps what it learnt from one call to the next, made once per check session: the same findings as
   * `check`, quicker after a change to a few files.
   */
  session?(): FolderRule['check'];
}

export type Rule = FileRule | FolderRule;

/** A finding that covers a whole line of a file, from an offset inside it. */
export function wholeLine(file: ParsedFile, offset: number): { start: number; end: number } {
  const start = file.text.lastIndexOf('\n', offset - 1) + 1;
  const next = file.text.indexOf('\n', offset);
  return { start, end: next === -1 ? file.text.length : next };
}
