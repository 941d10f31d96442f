/** How much a problem matters; `off` turns a rule off. */
export type Severity = 'error' | 'warning' | 'info';
export type SeveritySetting = Severity | 'off';

export const SEVERITY_SETTINGS: readonly SeveritySetting[] = ['error', 'warning', 'info', 'off'];

/** A place in a file of the agent folder, by character offsets into its text. */
export interface Span {
  /** Relative to the agent folder, with forward slashes (`knowledge/faq.md`). */
  path: string;
  start: number;
  end: number;
}

/** A text edit a quick fix makes. */
export interface Edit extends Span {
  newText: string;
}

/** A fix safe enough to offer with one click. */
export interface Fix {
  title: string;
  edits: Edit[];
}

/** What a rule reports, before its severity is settled. */
export interface Finding extends Span {
  message: string;
  /** Other places the problem involves (the other topic of a duplicate). */
  related?: Array<Span & { message: string }>;
  fix?: Fix;
  /** JSON that does not parse: an editor's own JSON support marks the same place, so an editor may leave it out. */
  jsonSyntax?: true;
}

/** Zero-based line and character, as editors count them. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** A finding placed in lines and characters, with the severity that applies to it. */
export interface Problem {
  ruleId: string;
  severity: Severity;
  path: string;
  range: Range;
  message: string;
  related: Array<{ path: string; range: Range; message: string }>;
  fix?: { title: string; edits: Array<{ path: string; range: Range; newText: string }> };
  jsonSyntax?: true;
}
