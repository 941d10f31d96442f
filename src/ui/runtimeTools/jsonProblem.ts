import type * as JsoncParser from 'jsonc-parser';
import * as vscode from 'vscode';
import { jsonSyntaxProblem } from '../../core/jsonSyntax';

/** jsonc-parser, required on the first check rather than at activation (dist/jsonc-parser.js). */
let jsonc: typeof JsoncParser | undefined;
function parser(): typeof JsoncParser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  jsonc ??= require('jsonc-parser') as typeof JsoncParser;
  return jsonc;
}

/**
 * Where JSON that failed to parse first goes wrong and what to fix there: "line 1, column 23: remove the comma
 * before }". Undefined when the text parses (or is empty, which the caller says in its own words).
 */
export function jsonProblem(text: string): string | undefined {
  const problem = jsonSyntaxProblem(parser(), vscode.l10n, text);
  return problem && vscode.l10n.t('line {0}, column {1}: {2}', problem.line, problem.column, problem.fix);
}
