import * as vscode from 'vscode';
import type { Problem } from '../../lint/problem';

/** The source every diagnostic of the checks carries, so Push and the quick fixes find them among others. */
export const LINT_SOURCE = 'Agent Workbench';

const SEVERITY = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
} as const;

const range = (r: Problem['range']): vscode.Range =>
  new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);

/** Where each rule's page is: shipped with the extension (docs/rules), so the link opens offline. */
export function ruleDocUri(extensionUri: vscode.Uri, ruleId: string): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'docs', 'rules', `${ruleId}.md`);
}

/**
 * The link of a diagnostic's rule id: the rule's page rendered, in the editor's Markdown preview, rather than its
 * Markdown source. The Problems panel and the hover open a command link with its arguments.
 */
export function ruleLink(extensionUri: vscode.Uri, ruleId: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: 'command',
    path: 'markdown.showPreview',
    query: JSON.stringify([ruleDocUri(extensionUri, ruleId)]),
  });
}

/** A quick fix of a diagnostic. */
export interface LintFix {
  title: string;
  edit: vscode.WorkspaceEdit;
}

/** The diagnostic a quick fix belongs to: the editor hands copies to code actions, so they are matched by value. */
export function sameDiagnostic(a: vscode.Diagnostic, b: vscode.Diagnostic): boolean {
  const code = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);
  return a.range.isEqual(b.range) && a.message === b.message && code(a) === code(b) && a.source === b.source;
}

/** A problem of a folder as a diagnostic of the Problems panel, its rule id linking to the rule's page, with its fix. */
export function toDiagnostic(
  problem: Problem,
  folder: vscode.Uri,
  extensionUri: vscode.Uri,
): { diagnostic: vscode.Diagnostic; fix?: LintFix } {
  const fileOf = (path: string) => vscode.Uri.joinPath(folder, ...path.split('/'));
  const d = new vscode.Diagnostic(range(problem.range), problem.message, SEVERITY[problem.severity]);
  d.source = LINT_SOURCE;
  d.code = { value: problem.ruleId, target: ruleLink(extensionUri, problem.ruleId) };
  if (problem.related.length > 0)
    d.relatedInformation = problem.related.map(
      (r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(fileOf(r.path), range(r.range)), r.message),
    );
  if (!problem.fix) return { diagnostic: d };
  const edit = new vscode.WorkspaceEdit();
  for (const e of problem.fix.edits) edit.replace(fileOf(e.path), range(e.range), e.newText);
  return { diagnostic: d, fix: { title: problem.fix.title, edit } };
}
