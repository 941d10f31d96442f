import * as vscode from 'vscode';
import { jsonProblem } from './jsonProblem';

/** The button that copies what a message shows. */
export const copyAction = (): string => vscode.l10n.t('Copy');

/** Bytes as a person reads them: 940 B, 12.5 KB (1 KB = 1024 bytes, as the platform's limits count). */
export function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 2 : 1).replace(/\.?0+$/, '')} KB`;
}

/** A JSON object typed by a person, or why it is not one. */
export function parseJsonObject(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // The parser's own words name an offset ("at position 37"): say the line, column and fix instead.
    const problem = jsonProblem(text) ?? (text.trim() ? (err as Error).message : vscode.l10n.t('it is empty'));
    return { ok: false, message: vscode.l10n.t('This is not valid JSON: {0}', problem) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      message: vscode.l10n.t(
        'Write a JSON object, such as {"campaign": "spring"}: {0} is not one.',
        Array.isArray(value) ? vscode.l10n.t('a list') : JSON.stringify(value),
      ),
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
