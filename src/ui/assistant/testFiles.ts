import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestFile } from '../../agentTests/format';
import { folderAgentOf } from '../../workspace/testFolderAgent';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { UserFacingError } from '../common/commandSupport';
import { testFilesInclude } from '../testSettings';

/** The most test files one tool call reads. */
const MAX_FILES = 200;

/**
 * The conversation test files at or below each path (absolute, or relative to the first workspace folder), or of the
 * whole workspace when none is named: the files the Testing view lists (setting `agentWorkbench.tests.include`), and a
 * file named as it is. Open documents are read as they are in the editor, as the Testing view reads them. A case
 * naming no agent reaches the agent of its folder.
 */
export async function readTestFiles(paths: readonly string[], signal?: AbortSignal): Promise<TestFile[]> {
  const [first, ...others] = vscode.workspace.workspaceFolders ?? [];
  if (!first) throw new UserFacingError(vscode.l10n.t('Open a folder first: the workspace has none.'));
  const uris = new Map<string, vscode.Uri>();
  const scopes = paths.map((p) => vscode.Uri.file(path.isAbsolute(p) ? p : path.join(first.uri.fsPath, p)));
  const folders: vscode.Uri[] = paths.length > 0 ? [] : [first.uri, ...others.map((f) => f.uri)];
  for (const scope of scopes) {
    signal?.throwIfAborted();
    const stat = await vscode.workspace.fs.stat(scope).then(
      (s) => s,
      () => undefined,
    );
    if (!stat) throw new UserFacingError(vscode.l10n.t('No such file or folder: {0}', scope.fsPath));
    if (stat.type & vscode.FileType.Directory) folders.push(scope);
    else uris.set(scope.toString(), scope);
  }
  if (folders.length > 0) {
    const listed = await vscode.workspace.findFiles(testFilesInclude(), '**/node_modules/**');
    for (const folder of folders) {
      const inside = listed.filter((uri) => isInside(uri.fsPath, folder.fsPath)).slice(0, MAX_FILES);
      for (const uri of inside) uris.set(uri.toString(), uri);
    }
  }
  const runtime = agentTestsRuntime();
  const files: TestFile[] = [];
  for (const uri of [...uris.values()].sort((a, b) => a.fsPath.localeCompare(b.fsPath))) {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const file = runtime.parseTestFile(vscode.workspace.asRelativePath(uri, others.length > 0), text);
    files.push(runtime.withAgent(file, folderAgentOf(uri.fsPath)));
  }
  return files;
}

function isInside(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
