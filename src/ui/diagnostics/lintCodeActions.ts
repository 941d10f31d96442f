import * as vscode from 'vscode';
import { LINT_SOURCE, type LintFix, sameDiagnostic } from './problemDiagnostics';

/** The fixes of the diagnostics now shown for a file. */
export type FixesOf = (uri: vscode.Uri) => ReadonlyArray<{ diagnostic: vscode.Diagnostic; fix: LintFix }>;

/** The quick fixes of the checks: only those a rule marks safe (rename a duplicate topic, replace a secret ...). */
export class LintCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly fixesOf: FixesOf) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const known = this.fixesOf(document.uri);
    const out: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== LINT_SOURCE) continue;
      const found = known.find((k) => sameDiagnostic(k.diagnostic, d));
      if (!found) continue;
      const action = new vscode.CodeAction(found.fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = found.fix.edit;
      action.diagnostics = [d];
      action.isPreferred = true;
      out.push(action);
    }
    return out;
  }
}
