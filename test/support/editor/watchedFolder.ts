import * as vscode from 'vscode';

/**
 * Makes a folder of the workspace and its missing parents one level at a time, each seen by the workspace's file
 * watcher before the next is made. The watcher (VS Code's, on inotify) watches a new folder only once it has seen
 * it: what is made inside it before that (`mkdir -p a/b/c` and a file at once) is never reported, not even its later
 * changes. A suite that checks what the editor does when a file changes on disk makes its folders this way.
 */
export async function makeWatchedFolder(folder: vscode.Uri, timeoutMs = 20_000): Promise<void> {
  const workspace = vscode.workspace.getWorkspaceFolder(folder);
  if (!workspace) throw new Error(`${folder.fsPath} is not in the workspace`);
  const levels = folder.path.slice(workspace.uri.path.length).split('/').filter(Boolean);
  let parent = workspace.uri;
  for (const name of levels) {
    const current = vscode.Uri.joinPath(parent, name);
    const exists = await vscode.workspace.fs.stat(current).then(
      () => true,
      () => false,
    );
    if (!exists) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(parent, name));
      try {
        const seen = new Promise<void>((resolve) => watcher.onDidCreate(() => resolve()));
        await vscode.workspace.fs.createDirectory(current);
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          seen,
          new Promise<void>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`the file watcher did not report ${current.fsPath} within ${timeoutMs} ms`)),
              timeoutMs,
            );
          }),
        ]).finally(() => clearTimeout(timer));
      } finally {
        watcher.dispose();
      }
    }
    parent = current;
  }
}
