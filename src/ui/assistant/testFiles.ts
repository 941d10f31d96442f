import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestFile } from '../../agentTests/format';
import type { AgentManifest } from '../../workspace/agentManifest';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { UserFacingError } from '../common/commandSupport';

/** The most test files one tool call reads. */
const MAX_FILES = 200;

/** The checked-out agent folder a file is in, from the editor's index (src/ui/files/agentFolders.ts). */
export type FolderOf = (uri: vscode.Uri) => { readonly manifest: AgentManifest } | undefined;

/**
 * The conversation test files (tests/*.yaml) at or below each path (absolute, or relative to the first workspace
 * folder), or of the whole workspace when none is named; open documents are read as they are in the editor, as the
 * Testing view reads them. A case naming no agent reaches the agent of its folder.
 */
export async function readTestFiles(
  paths: readonly string[],
  folderOf: FolderOf,
  signal?: AbortSignal,
): Promise<TestFile[]> {
  const roots = vscode.workspace.workspaceFolders ?? [];
  if (roots.length === 0) throw new UserFacingError(vscode.l10n.t('Open a folder first: the workspace has none.'));
  const uris = new Map<string, vscode.Uri>();
  const scopes = paths.length > 0 ? paths.map((p) => absolute(p, roots[0]!.uri.fsPath)) : undefined;
  for (const scope of scopes ?? roots.map((r) => r.uri)) {
    signal?.throwIfAborted();
    const stat = await vscode.workspace.fs.stat(scope).then(
      (s) => s,
      () => undefined,
    );
    if (!stat) throw new UserFacingError(vscode.l10n.t('No such file or folder: {0}', scope.fsPath));
    if (stat.type & vscode.FileType.Directory) {
      const found = await vscode.workspace.findFiles(
        new vscode.RelativePattern(scope, '**/tests/*.{yaml,yml}'),
        '**/node_modules/**',
        MAX_FILES,
      );
      for (const uri of found) uris.set(uri.toString(), uri);
    } else uris.set(scope.toString(), scope);
  }
  const runtime = agentTestsRuntime();
  const files: TestFile[] = [];
  for (const uri of [...uris.values()].sort((a, b) => a.fsPath.localeCompare(b.fsPath))) {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const file = runtime.parseTestFile(vscode.workspace.asRelativePath(uri, roots.length > 1), text);
    const agent = path.basename(path.dirname(uri.fsPath)) === 'tests' ? folderOf(uri)?.manifest.agentId : undefined;
    files.push(agent ? { ...file, cases: file.cases.map((c) => (c.agent === undefined ? { ...c, agent } : c)) } : file);
  }
  return files;
}

function absolute(p: string, root: string): vscode.Uri {
  return vscode.Uri.file(path.isAbsolute(p) ? p : path.join(root, p));
}
