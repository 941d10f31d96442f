import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../core/disposable';
import { iconText } from '../../core/shownText';
import { Emitter } from '../../core/event';
import type { FileStatus } from '../../workspace/status';
import type { MirrorClient } from '../../workspace/remote';
import type { PullReport, PushReport } from '../../workspace/mirror';
import { remoteUri } from '../remoteUri';
import { Command } from '../ids';
import { workspaceRuntime } from '../workspaceRuntime';
import type { AgentFolder, AgentFolders } from './agentFolders';
import { mirrorUri, type MirrorDocuments } from './mirrorDocuments';

/** The id of the provider (`scmProvider == agentWorkbench` in package.json). */
export const SCM_ID = 'agentWorkbench';

/** The resource groups of each agent folder (`scmResourceGroup == ...` in package.json). */
export const Group = { conflicts: 'conflicts', local: 'local', remote: 'remote' } as const;

/** A file status with the platform's side as last read (on Refresh or Pull). */
export type ShownStatus = FileStatus;

/** What a person sees of one folder's source control, for the tests. */
export interface SourceControlSnapshot {
  root: string;
  label: string;
  groups: Record<keyof typeof Group, string[]>;
  count: number;
  /** The platform's side of each Remote Changes diff, by file: the document its Open Changes shows. */
  remoteSides: Record<string, string>;
  /** What the view says when it lists nothing (undefined while it lists files). */
  nothingListed?: string;
}

/** Calls of the platform refused for a local status read, which never needs them. */
const OFFLINE: MirrorClient = new Proxy({} as MirrorClient, {
  get: () => () => Promise.reject(new Error('Reading local status needs no platform.')),
});

const DEBOUNCE_MS = 200;

/** One agent folder's source control: its groups, quick diff against the base, and the last status read. */
export class AgentSourceControl extends Disposable {
  readonly scm: vscode.SourceControl;
  private readonly groups: Record<keyof typeof Group, vscode.SourceControlResourceGroup>;
  private readonly inSync: vscode.SourceControlResourceGroup;
  /** The platform was read (Refresh, Pull, Push) since this folder's source control was made. */
  private platformRead = false;
  /** The last status shown, local and (from the last remote read) the platform's changes. */
  files: ShownStatus[] = [];
  /** The platform's changes as the last remote read found them, by document key. */
  private remoteRead = new Map<string, FileStatus>();
  private queue: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly folder: AgentFolder,
    private readonly documents: MirrorDocuments,
    private readonly changed: () => void,
  ) {
    super();
    this.scm = this.register(vscode.scm.createSourceControl(SCM_ID, this.title(), folder.uri));
    this.scm.quickDiffProvider = {
      provideOriginalResource: (uri) => {
        const rel = this.relative(uri);
        return rel && /^(behavior\.md|knowledge\/[^/]+\.md|realtime\/[^/]+\.json)$/.test(rel)
          ? mirrorUri('base', this.folder.root, rel)
          : undefined;
      },
    };
    this.scm.inputBox.visible = false;
    const group = (id: string, label: string): vscode.SourceControlResourceGroup => {
      const g = this.register(this.scm.createResourceGroup(id, label));
      g.hideWhenEmpty = true;
      return g;
    };
    this.groups = {
      conflicts: group(Group.conflicts, vscode.l10n.t('Conflicts')),
      local: group(Group.local, vscode.l10n.t('Local Changes')),
      remote: group(Group.remote, vscode.l10n.t('Remote Changes')),
    };
    // With nothing to list, the view says so instead of staying blank (after a push, a pull, a settled merge).
    this.inSync = group('inSync', vscode.l10n.t('No changes to push (Refresh Status reads the platform)'));
    this.register({ dispose: () => clearTimeout(this.timer) });
  }

  private title(): string {
    return `${this.folder.manifest.name} (${this.folder.manifest.branch.name})`;
  }

  relative(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== 'file') return undefined;
    const rel = path.relative(this.folder.root, uri.fsPath);
    return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join('/');
  }

  fileUri(rel: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder.uri, ...rel.split('/'));
  }

  /** Runs folder operations one after another (a pull never overlaps a push or a status read). */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  mirror(client: MirrorClient = OFFLINE): InstanceType<ReturnType<typeof workspaceRuntime>['AgentMirror']> {
    const { AgentMirror, NodeFileSystem } = workspaceRuntime();
    return new AgentMirror(new NodeFileSystem(this.folder.root), client);
  }

  /** Files changed on disk: the local status is read again shortly (edits saved in a burst read once). */
  scheduleRefresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh().catch(() => undefined), DEBOUNCE_MS);
  }

  /** Reads the status again: the files always, the platform too when a client is given. */
  refresh(client?: MirrorClient, signal?: AbortSignal): Promise<ShownStatus[]> {
    return this.serial(async () => {
      if (client) {
        const all = await this.mirror(client).status({ remote: true, ...(signal ? { signal } : {}) });
        this.remoteRead = new Map(
          all.filter((f) => f.remote !== undefined && f.remote !== 'none').map((f) => [f.key, f]),
        );
        this.platformRead = true;
        this.show(all);
      } else {
        this.show(this.withRemote(await this.mirror().status()));
      }
      return this.files;
    });
  }

  /** After a pull, the platform's side is the base (conflicts aside): no remote change is left to show. */
  pulled(): void {
    this.remoteRead.clear();
    this.platformRead = true;
  }

  /** After a push, what was sent is on the platform and in the base. */
  pushed(report: PushReport): void {
    for (const a of report.sent) this.remoteRead.delete(a.key);
  }

  /** After a conflict is settled, the base holds the platform's side: the file has no remote change left. */
  settled(file: string): void {
    for (const [key, r] of this.remoteRead) if (r.path === file) this.remoteRead.delete(key);
  }

  private withRemote(local: FileStatus[]): ShownStatus[] {
    const out: ShownStatus[] = local.map((f) => {
      const r = this.remoteRead.get(f.key);
      if (!r) return f;
      if (f.state === 'conflict') return { ...f, remote: r.remote };
      return { ...f, remote: r.remote, state: f.local === 'none' ? 'modifiedRemotely' : r.state };
    });
    const seen = new Set(local.map((f) => f.key));
    for (const r of this.remoteRead.values()) if (!seen.has(r.key)) out.push(r);
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  private show(files: ShownStatus[]): void {
    this.files = files;
    const conflicts = files.filter((f) => f.state === 'conflict');
    const local = files.filter((f) => f.state !== 'conflict' && f.local !== 'none');
    const remote = files.filter((f) => f.state !== 'conflict' && f.remote !== undefined && f.remote !== 'none');
    this.groups.conflicts.resourceStates = conflicts.map((f) => this.state(f, 'conflicts'));
    this.groups.local.resourceStates = local.map((f) => this.state(f, 'local'));
    this.groups.remote.resourceStates = remote.map((f) => this.state(f, 'remote'));
    this.scm.count = conflicts.length + local.length;
    this.inSync.hideWhenEmpty = conflicts.length + local.length + remote.length > 0;
    this.inSync.label = this.platformRead
      ? vscode.l10n.t('In sync with the platform as last read: nothing to push or pull')
      : vscode.l10n.t('No changes to push (Refresh Status reads the platform)');
    this.documents.refreshFolder(this.folder.root);
    this.changed();
  }

  private state(f: ShownStatus, group: keyof typeof Group): vscode.SourceControlResourceState {
    const uri = this.fileUri(f.path);
    const change = group === 'remote' ? f.remote : f.local;
    const base = mirrorUri('base', this.folder.root, f.path);
    const tooltip = f.problem ?? describe(f, group);
    switch (group) {
      case 'conflicts':
        return {
          resourceUri: uri,
          contextValue: 'conflict',
          decorations: { tooltip, iconPath: new vscode.ThemeIcon('warning') },
          command: {
            command: Command.openFileMerge,
            title: vscode.l10n.t('Open File Merge'),
            arguments: [uri],
          },
        };
      case 'local':
        return {
          resourceUri: uri,
          contextValue: 'local',
          decorations: { tooltip, strikeThrough: change === 'deleted', faded: change === 'deleted' },
          command: {
            command: 'vscode.diff',
            title: vscode.l10n.t('Open Changes'),
            arguments: [
              base,
              change === 'deleted' ? mirrorUri('local', this.folder.root, f.path) : uri,
              changesTitle(f.path, 'local'),
            ],
          },
        };
      case 'remote': {
        const ref = this.remoteRef(f);
        return {
          resourceUri: uri,
          contextValue: 'remote',
          decorations: {
            tooltip,
            strikeThrough: change === 'deleted',
            iconPath: new vscode.ThemeIcon('cloud-download'),
          },
          ...(ref && change !== 'deleted'
            ? {
                command: {
                  command: 'vscode.diff',
                  title: vscode.l10n.t('Open Changes'),
                  arguments: [
                    f.local === 'none' && f.remote !== 'added' ? uri : base,
                    ref,
                    changesTitle(f.path, 'remote'),
                  ],
                },
              }
            : {}),
        };
      }
    }
  }

  /** The read-only document of what the platform holds now for a file (the Agents view's documents). */
  private remoteRef(f: FileStatus): vscode.Uri | undefined {
    const { agentId, name, branch } = this.folder.manifest;
    const common = { agentId, agentName: name };
    if (f.key === 'behavior')
      return remoteUri({ kind: 'behavior', ...common, branchId: branch.branchId, branchName: branch.name });
    if (f.key.startsWith('topic:'))
      return remoteUri({
        kind: 'topic',
        ...common,
        branchId: branch.branchId,
        branchName: branch.name,
        topicId: f.key.slice('topic:'.length),
        topicName: path.posix.basename(f.path, '.md'),
      });
    if (f.key.startsWith('realtime:'))
      return remoteUri({ kind: 'realtimeConfig', ...common, config: f.key.slice('realtime:'.length) });
    return undefined;
  }

  /** What a person sees, for the tests. */
  snapshot(): SourceControlSnapshot {
    const labels = (g: vscode.SourceControlResourceGroup): string[] =>
      g.resourceStates.map((r) => this.relative(r.resourceUri) ?? r.resourceUri.toString());
    return {
      root: this.folder.root,
      label: this.scm.label,
      groups: {
        conflicts: labels(this.groups.conflicts),
        local: labels(this.groups.local),
        remote: labels(this.groups.remote),
      },
      count: this.scm.count ?? 0,
      ...(this.inSync.hideWhenEmpty ? {} : { nothingListed: this.inSync.label }),
      remoteSides: Object.fromEntries(
        this.groups.remote.resourceStates.flatMap((r) => {
          const side = r.command?.arguments?.[1] as unknown;
          const rel = this.relative(r.resourceUri);
          return side instanceof vscode.Uri && rel ? [[rel, side.toString()]] : [];
        }),
      ),
    };
  }

  counts(): { incoming: number; outgoing: number; conflicts: number } {
    return {
      incoming: this.groups.remote.resourceStates.length,
      outgoing: this.groups.local.resourceStates.length,
      conflicts: this.groups.conflicts.resourceStates.length,
    };
  }
}

function changesTitle(file: string, side: 'local' | 'remote'): string {
  return side === 'local'
    ? vscode.l10n.t('{0} (Last Pull ↔ Yours)', file)
    : vscode.l10n.t('{0} (Yours ↔ Platform)', file);
}

function describe(f: FileStatus, group: keyof typeof Group): string {
  if (group === 'conflicts')
    return vscode.l10n.t(
      'Changed here and on the platform: open the file merge, save the result, then Complete File Merge.',
    );
  const change = group === 'remote' ? f.remote : f.local;
  const where = group === 'remote' ? vscode.l10n.t('on the platform') : vscode.l10n.t('here');
  switch (change) {
    case 'added':
      return vscode.l10n.t('Added {0}', where);
    case 'deleted':
      return vscode.l10n.t('Deleted {0}', where);
    default:
      return vscode.l10n.t('Modified {0}', where);
  }
}

const DECORATION: Partial<Record<string, { badge: string; color: string; label: () => string }>> = {
  modified: { badge: 'M', color: 'gitDecoration.modifiedResourceForeground', label: () => vscode.l10n.t('Modified') },
  added: { badge: 'A', color: 'gitDecoration.addedResourceForeground', label: () => vscode.l10n.t('Added') },
  deleted: { badge: 'D', color: 'gitDecoration.deletedResourceForeground', label: () => vscode.l10n.t('Deleted') },
  conflict: {
    badge: '!',
    color: 'gitDecoration.conflictingResourceForeground',
    label: () => vscode.l10n.t('Conflict'),
  },
  incoming: {
    badge: '↓',
    color: 'gitDecoration.submoduleResourceForeground',
    label: () => vscode.l10n.t('Changed on the platform'),
  },
};

/**
 * The "Agent Workbench" source control: one per checked-out agent folder of the index, with file
 * decorations and a status bar item for the folder of the active editor.
 */
export class SourceControls extends Disposable implements vscode.FileDecorationProvider {
  private readonly controls = new Map<string, AgentSourceControl>();
  private readonly _onDidChangeFileDecorations = this.register(new Emitter<vscode.Uri[]>());
  readonly onDidChangeFileDecorations = this._onDidChangeFileDecorations.event;
  private readonly statusBar = this.register(
    vscode.window.createStatusBarItem('agentWorkbench.sync', vscode.StatusBarAlignment.Left, 40),
  );
  private decorated = new Map<string, vscode.Uri>();

  constructor(
    readonly folders: AgentFolders,
    private readonly documents: MirrorDocuments,
  ) {
    super();
    this.statusBar.name = vscode.l10n.t('Agent Workbench Sync');
    this.register(folders.onDidChangeFolders(() => this.reconcile()));
    this.register(folders.onDidChangeFiles((f) => this.controls.get(f.root)?.scheduleRefresh()));
    this.register(vscode.window.onDidChangeActiveTextEditor(() => this.updateStatusBar()));
    this.register(vscode.window.registerFileDecorationProvider(this));
    this.register({ dispose: () => this.controls.forEach((c) => c.dispose()) });
    // The workspace is read once the editor is idle, not during activation.
    const timer = setTimeout(() => void folders.scan(), 0);
    this.register({ dispose: () => clearTimeout(timer) });
  }

  private reconcile(): void {
    const present = new Map(this.folders.list().map((f) => [f.root, f]));
    for (const [root, control] of this.controls) {
      if (!present.has(root)) {
        control.dispose();
        this.controls.delete(root);
      }
    }
    for (const folder of present.values()) {
      const existing = this.controls.get(folder.root);
      if (existing && JSON.stringify(existing.folder.manifest) === JSON.stringify(folder.manifest)) continue;
      // Another branch (or agent) in the folder: a source control of its own, read from scratch.
      existing?.dispose();
      const control = new AgentSourceControl(folder, this.documents, () => this.changed());
      this.controls.set(folder.root, control);
      void control.refresh().catch(() => undefined);
    }
    this.changed();
  }

  list(): AgentSourceControl[] {
    return [...this.controls.values()];
  }

  /** The source control of a folder, after reading the workspace again when the folder is new to the index. */
  async of(root: string): Promise<AgentSourceControl | undefined> {
    if (!this.controls.has(root)) {
      await this.folders.scan();
      this.reconcile();
    }
    return this.controls.get(root);
  }

  /** The source control a file or folder belongs to. */
  async forUri(uri: vscode.Uri): Promise<AgentSourceControl | undefined> {
    let folder = this.folders.folderOf(uri);
    if (!folder) {
      await this.folders.scan();
      folder = this.folders.folderOf(uri);
    }
    return folder && this.of(folder.root);
  }

  /** The folder of the active editor, else the only one. */
  current(): AgentSourceControl | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder = active && this.folders.folderOf(active);
    if (folder) return this.controls.get(folder.root);
    return this.controls.size === 1 ? [...this.controls.values()][0] : undefined;
  }

  private changed(): void {
    const next = new Map<string, vscode.Uri>();
    for (const c of this.controls.values())
      for (const f of c.files) next.set(c.fileUri(f.path).toString(), c.fileUri(f.path));
    const touched = new Map([...this.decorated, ...next]);
    this.decorated = next;
    this._onDidChangeFileDecorations.fire([...touched.values()]);
    this.updateStatusBar();
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const folder = this.folders.folderOf(uri);
    const control = folder && this.controls.get(folder.root);
    const rel = control?.relative(uri);
    const f = rel === undefined ? undefined : control!.files.find((s) => s.path === rel);
    if (!f) return undefined;
    const kind =
      f.state === 'conflict'
        ? 'conflict'
        : f.local === 'added'
          ? 'added'
          : f.local === 'deleted'
            ? 'deleted'
            : f.local === 'modified'
              ? 'modified'
              : f.remote !== undefined && f.remote !== 'none'
                ? 'incoming'
                : undefined;
    const d = kind && DECORATION[kind];
    return d && new vscode.FileDecoration(d.badge, d.label(), new vscode.ThemeColor(d.color));
  }

  /** "Support Desk (main) ↓2 ↑1": runs Pull when the platform has changes, else Push when the folder has. */
  private updateStatusBar(): void {
    const c = this.current() ?? this.list()[0];
    if (!c) {
      this.statusBar.hide();
      return;
    }
    const { incoming, outgoing, conflicts } = c.counts();
    const { name, branch } = c.folder.manifest;
    const sync = [
      incoming ? `↓${incoming}` : '',
      outgoing ? `↑${outgoing}` : '',
      conflicts ? `$(warning) ${conflicts}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    this.statusBar.text = `$(cloud) ${iconText(name)} (${iconText(branch.name)})${sync ? ` ${sync}` : ''}`;
    const arg = [c.folder.uri];
    this.statusBar.command =
      conflicts || incoming
        ? { command: Command.pull, title: vscode.l10n.t('Pull'), arguments: arg }
        : outgoing
          ? { command: Command.push, title: vscode.l10n.t('Push'), arguments: arg }
          : { command: Command.refreshStatus, title: vscode.l10n.t('Refresh Status'), arguments: [] };
    const what = [
      incoming ? vscode.l10n.t('{0} changed on the platform', incoming) : '',
      outgoing ? vscode.l10n.t('{0} to push', outgoing) : '',
      conflicts ? vscode.l10n.t('{0} in conflict', conflicts) : '',
    ].filter(Boolean);
    this.statusBar.tooltip = `${name} (${branch.name}): ${what.length ? what.join(', ') : vscode.l10n.t('in step with the platform as last read')}\n${c.folder.root}`;
    this.statusBar.show();
  }

  /** The status bar's text, for the tests. */
  statusBarText(): string | undefined {
    return this.list().length ? this.statusBar.text : undefined;
  }

  /** Applies a pull's result to what is shown. */
  afterPull(c: AgentSourceControl, _report: PullReport): void {
    c.pulled();
  }
}
