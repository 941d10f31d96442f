import { type AgentFileInput, type ParsedFile, parseAgentFile } from './agentFile';
import { type LintConfig, severityFor } from './config';
import type { Finding, Problem, Severity } from './problem';
import type { FileRule, FolderRule, LintContext } from './rule';
import { RULES } from './rules';
import { LineIndex } from './text';

interface FileMemo {
  text: string | undefined;
  unreadable: string | undefined;
  parsed: ParsedFile;
  /** Findings of the file rules, by rule id, before severities. */
  findings: Map<string, Finding[]>;
  lines?: LineIndex;
}

const FILE_RULES = RULES.filter((r): r is FileRule => r.scope === 'file');
const FOLDER_RULES = RULES.filter((r): r is FolderRule => r.scope === 'folder');
const DEFAULT_SEVERITY = new Map(RULES.map((r) => [r.id, r.severity]));

function folderChecks(): Map<string, FolderRule['check']> {
  return new Map(FOLDER_RULES.map((r) => [r.id, r.session?.() ?? ((files, context) => r.check(files, context))]));
}

/**
 * Checks the files of one agent folder with every rule. It keeps what it found per file while the file's text stays
 * the same, and the folder rules' findings while no topic changes, so checking again after a keystroke in one file
 * costs that file only. The editor keeps one per folder; the command line makes one per run.
 */
export class LintSession {
  private readonly files = new Map<string, FileMemo>();
  private folderMemo: { parsed: ParsedFile[]; findings: Map<string, Finding[]> } | undefined;
  private contextKey = '';
  private lastCredentials: string[] = [];
  /** Each folder rule's check, kept for the session where the rule learns from one check to the next. */
  private folderChecks = folderChecks();

  lint(inputs: readonly AgentFileInput[], config: LintConfig, credentials: readonly string[] = []): Problem[] {
    const context: LintContext = { credentials, options: config.options };
    // Another credential or option changes what every rule may find: start afresh.
    const key = JSON.stringify([config.options, credentials.length, credentials.map((c) => c.length)]);
    if (key !== this.contextKey || credentials.some((c, i) => c !== this.lastCredentials[i])) {
      this.files.clear();
      this.folderMemo = undefined;
      this.folderChecks = folderChecks();
      this.contextKey = key;
      this.lastCredentials = [...credentials];
    }

    const memos = inputs.map((input) => this.memoOf(input, context));
    // Every input has its memo now: with as many memos as inputs, none is of a file gone (the usual keystroke).
    if (this.files.size !== inputs.length) {
      const seen = new Set(inputs.map((i) => i.path));
      for (const path of this.files.keys()) if (!seen.has(path)) this.files.delete(path);
    }

    const topics = memos.map((m) => m.parsed).filter((p) => p.kind === 'topic');
    if (
      !this.folderMemo ||
      this.folderMemo.parsed.length !== topics.length ||
      this.folderMemo.parsed.some((p, i) => p !== topics[i])
    ) {
      const findings = new Map<string, Finding[]>();
      for (const [id, check] of this.folderChecks) findings.set(id, check(topics, context));
      this.folderMemo = { parsed: topics, findings };
    }

    const problems: Problem[] = [];
    const emit = (ruleId: string, severity: Severity, f: Finding): void => {
      const where = (path: string, start: number, end: number) => this.linesOf(path)?.range(start, end) ?? ZERO;
      problems.push({
        ruleId,
        severity,
        path: f.path,
        range: where(f.path, f.start, f.end),
        message: f.message,
        related: (f.related ?? []).map((r) => ({
          path: r.path,
          range: where(r.path, r.start, r.end),
          message: r.message,
        })),
        ...(f.fix
          ? {
              fix: {
                title: f.fix.title,
                edits: f.fix.edits.map((e) => ({
                  path: e.path,
                  range: where(e.path, e.start, e.end),
                  newText: e.newText,
                })),
              },
            }
          : {}),
        ...(f.jsonSyntax ? { jsonSyntax: true as const } : {}),
      });
    };
    // A rule's severity for a file: the lint file's overrides for that file, else the folder's.
    const severityOf = (id: string, path: string, fallback: Severity): Severity | undefined => {
      const set = config.overrides ? severityFor(config, id, path, fallback) : (config.rules[id] ?? fallback);
      return set === 'off' ? undefined : set;
    };
    // File by file, only those with findings: after a keystroke most files have none. The order they are emitted
    // in does not show: they are sorted by file, place and rule below.
    for (const m of memos) {
      if (m.findings.size === 0) continue;
      for (const [id, found] of m.findings) {
        const severity = severityOf(id, m.parsed.path, DEFAULT_SEVERITY.get(id) ?? 'warning');
        if (severity) for (const f of found) emit(id, severity, f);
      }
    }
    for (const rule of FOLDER_RULES)
      for (const f of this.folderMemo.findings.get(rule.id) ?? []) {
        const severity = severityOf(rule.id, f.path, rule.severity);
        if (severity) emit(rule.id, severity, f);
      }
    return problems.sort(
      (a, b) =>
        a.path.localeCompare(b.path) ||
        a.range.start.line - b.range.start.line ||
        a.range.start.character - b.range.start.character ||
        a.ruleId.localeCompare(b.ruleId),
    );
  }

  private memoOf(input: AgentFileInput, context: LintContext): FileMemo {
    const known = this.files.get(input.path);
    if (known && known.text === input.text && known.unreadable === input.unreadable) return known;
    const parsed = parseAgentFile(input);
    const findings = new Map<string, Finding[]>();
    for (const rule of FILE_RULES) {
      const found = rule.check(parsed, context);
      if (found.length > 0) findings.set(rule.id, found);
    }
    const memo: FileMemo = { text: input.text, unreadable: input.unreadable, parsed, findings };
    this.files.set(input.path, memo);
    return memo;
  }

  private linesOf(path: string): LineIndex | undefined {
    const memo = this.files.get(path);
    if (!memo) return undefined;
    memo.lines ??= new LineIndex(memo.parsed.text);
    return memo.lines;
  }
}

const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
