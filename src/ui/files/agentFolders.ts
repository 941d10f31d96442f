import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import {
  AGENT_MANIFEST,
  type AgentManifest,
  checkedOutBranches,
  parseAgentManifest,
} from '../../workspace/agentManifest';
import { ContextKey } from '../ids';

/** A checked-out agent folder of the workspace: where it is and what its agent.json says. */
export interface AgentFolder {
  /** Absolute path of the folder (the one holding agent.json). */
  readonly root: string;
  readonly uri: vscode.Uri;
  readonly manifest: AgentManifest;
}

/** Files of an agent folder whose changes matter: the mirrored files, agent.json and the base snapshot. */
function mattersInFolder(rel: string): boolean {
  return (
    rel === AGENT_MANIFEST ||
    rel === 'behavior.md' ||
    rel === '.workbench/base.json' ||
    /^knowledge\/[^/]+\.md$/.test(rel) ||
    /^realtime\/[^/]+\.json$/.test(rel)
  );
}

/** How often the folders' files are looked at while the window has focus, for changes the file watcher missed. */
const CHECK_MS = 5_000;

/**
 * What the mattering files of a folder (see mattersInFolder) are now: each one's path, size and time of change.
 * Cheap: two folder listings and a stat per file; a file that is not there is stamped as missing.
 */
async function filesStamp(root: string): Promise<string> {
  const list = (dir: string): Promise<string[]> =>
    readdir(path.join(root, dir)).then(
      (names) => names.map((n) => `${dir}/${n}`),
      () => [],
    );
  const files = [
    AGENT_MANIFEST,
    'behavior.md',
    '.workbench/base.json',
    ...(await list('knowledge')),
    ...(await list('realtime')),
  ]
    .filter(mattersInFolder)
    .sort();
  const stamps = await Promise.all(
    files.map(async (rel) => {
      const s = await stat(path.join(root, rel)).catch(() => undefined);
      return s ? `${rel}:${s.size}:${s.mtimeMs}` : `${rel}:-`;
    }),
  );
  return stamps.join('|');
}

/**
 * The one index of the workspace's checked-out agent folders, read from their `agent.json` files,
 * with the one file watcher that keeps it current. The Agents view marks checked-out branches from
 * it, and the Source Control provider keeps one source control per folder in it and re-reads a
 * folder's status when its files change (an edit saved, a pull, a branch switch). File watchers can miss
 * changes (a busy machine, a new folder watched late, a network drive, the system's watch limit), so while the
 * window has focus the folders' files are also looked at every few seconds, and when it gains focus.
 */
export class AgentFolders extends Disposable {
  private folders: AgentFolder[] = [];
  private readonly watcher = this.register(vscode.workspace.createFileSystemWatcher('**/*'));
  private readonly _onDidChangeFolders = this.register(new Emitter<void>());
  /** Folders came or went, or an agent.json changed (another branch checked out). */
  readonly onDidChangeFolders = this._onDidChangeFolders.event;
  private readonly _onDidChangeFiles = this.register(new Emitter<AgentFolder>());
  /** Files of a folder changed on disk. */
  readonly onDidChangeFiles = this._onDidChangeFiles.event;
  private scanning: Promise<void> | undefined;
  private dirty = false;
  private scanned = false;
  /** The last look at each folder's files (see filesStamp), by root. */
  private readonly stamps = new Map<string, string>();
  private checking = false;

  constructor() {
    super();
    const changed = (uri: vscode.Uri): void => this.fileChanged(uri);
    this.register(this.watcher.onDidCreate(changed));
    this.register(this.watcher.onDidChange(changed));
    this.register(this.watcher.onDidDelete(changed));
    // A save in the editor is told at once, even when the file watcher is slow to report it (a busy machine).
    this.register(vscode.workspace.onDidSaveTextDocument((doc) => changed(doc.uri)));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.scan()));
    const timer = setInterval(() => {
      if (vscode.window.state.focused) void this.checkFiles();
    }, CHECK_MS);
    this.register({ dispose: () => clearInterval(timer) });
    this.register(
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) void this.checkFiles();
      }),
    );
  }

  /** Tells of the folders whose files changed since the last look, whether or not the watcher told it. */
  async checkFiles(): Promise<void> {
    if (this.checking || !this.scanned) return;
    this.checking = true;
    try {
      const folders = this.folders;
      for (const root of this.stamps.keys()) if (!folders.some((f) => f.root === root)) this.stamps.delete(root);
      for (const folder of folders) {
        const stamp = await filesStamp(folder.root);
        const before = this.stamps.get(folder.root);
        this.stamps.set(folder.root, stamp);
        // A folder is first looked at when a scan finds it, before its source control reads it.
        if (before !== undefined && before !== stamp && this.folders.includes(folder))
          this._onDidChangeFiles.fire(folder);
      }
    } finally {
      this.checking = false;
    }
  }

  private fileChanged(uri: vscode.Uri): void {
    if (uri.scheme !== 'file') return;
    const file = uri.fsPath;
    if (path.basename(file) === AGENT_MANIFEST || this.folders.some((f) => f.root === file)) void this.scan();
    const folder = this.folderOf(uri);
    if (folder && mattersInFolder(path.relative(folder.root, file).split(path.sep).join('/')))
      this._onDidChangeFiles.fire(folder);
  }

  /** Reads every agent.json of the workspace (at most 500, outside node_modules); tells listeners only of changes. */
  scan(): Promise<void> {
    this.scanned = true;
    if (this.scanning) {
      // A change during a scan may have been read too early: read once more when this scan ends.
      this.dirty = true;
      return this.scanning;
    }
    this.scanning = (async () => {
      const uris = await vscode.workspace.findFiles(`**/${AGENT_MANIFEST}`, '**/node_modules/**', 500);
      const found = await Promise.all(
        uris.map(async (uri): Promise<AgentFolder | undefined> => {
          try {
            const manifest = parseAgentManifest(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
            const dir = vscode.Uri.joinPath(uri, '..');
            return manifest && { root: dir.fsPath, uri: dir, manifest };
          } catch {
            return undefined;
          }
        }),
      );
      const folders = found
        .filter((f): f is AgentFolder => f !== undefined)
        .sort((a, b) => a.root.localeCompare(b.root));
      // A new folder's files are looked at before its source control reads them, so a change right after is seen.
      await Promise.all(
        folders
          .filter((f) => !this.stamps.has(f.root))
          .map(async (f) => this.stamps.set(f.root, await filesStamp(f.root))),
      );
      const changed =
        JSON.stringify(folders.map((f) => [f.root, f.manifest])) !==
        JSON.stringify(this.folders.map((f) => [f.root, f.manifest]));
      this.folders = folders;
      void vscode.commands.executeCommand('setContext', ContextKey.hasAgentFolders, folders.length > 0);
      if (changed) this._onDidChangeFolders.fire();
    })().finally(() => {
      this.scanning = undefined;
      if (this.dirty) {
        this.dirty = false;
        void this.scan();
      }
    });
    return this.scanning;
  }

  /** The folders found by the last scan (the first question starts the first scan). */
  list(): readonly AgentFolder[] {
    if (!this.scanned) void this.scan();
    return this.folders;
  }

  /** The agent folder a file or folder is in (the innermost one), if any. */
  folderOf(uri: vscode.Uri): AgentFolder | undefined {
    if (uri.scheme !== 'file') return undefined;
    const file = uri.fsPath;
    let best: AgentFolder | undefined;
    for (const f of this.folders) {
      if ((file === f.root || file.startsWith(f.root + path.sep)) && (!best || f.root.length > best.root.length))
        best = f;
    }
    return best;
  }

  /** The checked-out branch of an agent for a profile, if a folder of the workspace mirrors it. */
  branchOf(profileId: string | undefined, agentId: string): string | undefined {
    // The first question starts the first read of the workspace (not activation).
    if (!this.scanned) void this.scan();
    return profileId
      ? checkedOutBranches(
          this.folders.map((f) => f.manifest),
          profileId,
        ).get(agentId)
      : undefined;
  }
}
