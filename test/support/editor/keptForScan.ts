import { cpSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type * as vscode from 'vscode';

/**
 * Copies a folder a suite wrote in the workspace (test files, cassettes, reports) to where the run keeps what the
 * secrets scan reads (AGENT_WORKBENCH_KEEP_DIR, set by test/host/runIntegration.mjs), before the suite deletes it.
 */
export function keepForSecretsScan(folder: vscode.Uri): void {
  const dir = process.env.AGENT_WORKBENCH_KEEP_DIR;
  if (!dir || !existsSync(folder.fsPath)) return;
  cpSync(folder.fsPath, join(dir, basename(folder.fsPath)), { recursive: true, force: true });
}
