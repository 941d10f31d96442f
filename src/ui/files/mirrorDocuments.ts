import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import { type MirrorSide, mirrorDocumentUri, parseMirrorDocumentUri, Scheme } from '../uris';
import { workspaceRuntime } from '../workspaceRuntime';
import type { AgentFolders } from './agentFolders';

/** The read-only address of one side of a checked-out file (built only through src/ui/uris.ts). */
export function mirrorUri(side: MirrorSide, folder: string, relPath: string): vscode.Uri {
  return vscode.Uri.from(mirrorDocumentUri({ side, folder, path: relPath }));
}

/**
 * Read-only sides of a checked-out file: the base snapshot (what the platform held at the last pull
 * or push; quick diff and the merge editor's base), the platform's side of a conflict, and the file
 * as it was when its merge began (the merge editor's fixed "Yours"; the file itself otherwise). Only folders of the index are read, and only the files the mirror owns.
 */
export class MirrorDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly _onDidChange = this.register(new Emitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly folders: AgentFolders) {
    super();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseMirrorDocumentUri(uri);
    if (!ref)
      throw new Error(
        vscode.l10n.t('This address does not name a document of Agent Workbench: {0}', uri.toString(true)),
      );
    if (!this.folders.list().some((f) => f.root === ref.folder)) await this.folders.scan();
    if (!this.folders.list().some((f) => f.root === ref.folder))
      throw new Error(vscode.l10n.t('{0} is not a checked-out agent folder of this workspace.', ref.folder));
    const { readBase, NodeFileSystem } = workspaceRuntime();
    const base = await readBase(new NodeFileSystem(ref.folder));
    const key = base && Object.keys(base.docs).find((k) => base.docs[k]!.path === ref.path);
    // The conflict of the file: by the base's path, or for a real-time config added on both sides, by its name.
    const conflictKey =
      base && key && base.conflicts[key]
        ? key
        : base && Object.keys(base.conflicts).find((k) => !base.docs[k] && k === `realtime:${ref.path.slice(9, -5)}`);
    const conflict = conflictKey ? base?.conflicts[conflictKey] : undefined;
    if (ref.side === 'local') {
      // Yours: the file as it was when its merge began (the file itself takes the result), else the file.
      if (conflict?.local !== undefined) return conflict.local;
      try {
        return await readFile(path.join(ref.folder, ...ref.path.split('/')), 'utf8');
      } catch {
        return '';
      }
    }
    if (!base) return '';
    const baseText = key ? base.docs[key]!.text : '';
    if (ref.side === 'base') return baseText;
    // The platform's side of a conflict, as the pull or status read that found it read it; once settled, the base.
    return conflict ? (conflict.remote ?? '') : baseText;
  }

  /** The open sides of a folder's files are read again (after a pull, a push, a settled conflict). */
  refreshFolder(root: string): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (parseMirrorDocumentUri(doc.uri)?.folder === root) this._onDidChange.fire(doc.uri);
    }
  }

  /**
   * Resolves once every open side of a file shows what it holds now (after refreshFolder), or after a few seconds:
   * a merge editor on the file then compares the sides as they are.
   */
  async whenRead(root: string, relPath: string, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const doc of vscode.workspace.textDocuments) {
      const ref = parseMirrorDocumentUri(doc.uri);
      if (ref?.folder !== root || ref.path !== relPath) continue;
      const text = await this.provideTextDocumentContent(doc.uri);
      while (doc.getText() !== text && !doc.isClosed && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** One document is read again now (the file's side when a merge begins). */
  refresh(uri: vscode.Uri): void {
    this._onDidChange.fire(uri);
  }
}

export function registerMirrorDocuments(documents: MirrorDocuments): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(Scheme.mirror, documents);
}
