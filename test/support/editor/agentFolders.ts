import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { call } from '../http';
import { until } from '../until';
import type { LocalPlatformUrls, WorkbenchExports } from './extension';
import type { ScriptedPrompts } from './prompts';

export interface Topic {
  topicId: string;
  name: string;
  content: string;
}

/** The support agent's main branch, the one the folder suites check out. */
export const SUPPORT_MAIN = '/v1/agents/ag_support/branches/br_support_main';

/** The support agent's main branch as the platform holds it now, read through the Agents API. */
export function supportMainOnPlatform(urls: () => LocalPlatformUrls) {
  const agents = <T>(method: string, path: string, body?: unknown) =>
    call<T>(method, `${urls().build}${path}`, { headers: { 'x-api-key': LOCAL_KEYS.agents }, body });
  return {
    agents,
    behavior: async (): Promise<string> =>
      (await agents<{ behavior: string }>('GET', `${SUPPORT_MAIN}/behavior`)).body.behavior,
    topics: async (): Promise<Topic[]> => {
      const body = (await agents<{ topics?: Topic[] } | Topic[]>('GET', `${SUPPORT_MAIN}/knowledge-base/topics`)).body;
      return Array.isArray(body) ? body : (body.topics ?? []);
    },
  };
}

/** What Source Control shows of one checked-out folder. */
export function shownFolder(api: WorkbenchExports, folder: string) {
  return api.testing!.sourceControl().folders.find((f) => f.root === folder);
}

/**
 * Waits for a condition the editor reaches by itself (file watcher, debounce, a document read again), with a
 * generous limit for a busy machine; a failure shows what Source Control showed.
 */
export function waitForEditor<T>(
  api: WorkbenchExports,
  what: string,
  read: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  return until(what, read, {
    timeoutMs,
    intervalMs: 100,
    detail: () => `shown: ${JSON.stringify(api.testing!.sourceControl())}`,
  });
}

/**
 * Checks the support agent's main branch out into a new folder of the workspace (its name starts with `prefix`)
 * and waits for its source control; the folder is added to `folders`, for the suite to remove.
 */
export async function checkOutSupportMain(
  api: WorkbenchExports,
  ui: ScriptedPrompts,
  folders: string[],
  prefix: string,
): Promise<string> {
  const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const folder = join(root, `${prefix}-${randomBytes(4).toString('hex')}`);
  folders.push(folder);
  const done = await vscode.commands.executeCommand<string>('agentWorkbench.checkOut', {
    agentId: 'ag_support',
    branchId: 'br_support_main',
    folder,
  });
  assert.equal(done, folder, ui.lastError());
  await waitForEditor(api, 'the source control of the new folder', () => shownFolder(api, folder));
  return folder;
}

/** Edits a file as a person does: in its editor, then saved. */
export async function editAndSave(file: string, change: (text: string) => string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(file);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), change(doc.getText()));
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok(await doc.save());
}
