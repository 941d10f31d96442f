import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import type { AgentFileInput, LintConfig, LintSession, Problem } from '../../lint/runtime';
import { AGENT_MANIFEST } from '../../workspace/agentManifest';
import { lintRuntime } from '../lintRuntime';
import type { LintFix } from './problemDiagnostics';
import { toDiagnostic } from './problemDiagnostics';

/**
 * The longest wait after a keystroke before a folder is checked again. A folder whose checks are quick is checked
 * again as soon as the editor is free (a check asked for during one runs once, after it, with the newest text), so
 * diagnostics follow typing closely; a slower folder waits as long as its checks take, so it is not checked on
 * every keystroke.
 */
const TYPING_DELAY_MS = 150;
/** Checks at most this long (typically, see `typicalMs`) follow a keystroke without waiting. */
const QUICK_CHECK_MS = 15;
/** How many of the last checks' durations say how long a check of the folder typically takes. */
const DURATIONS_KEPT = 5;
/** How far up from a file an agent folder's agent.json is looked for. */
const MAX_DEPTH = 6;

/** Diagnostics handed to VS Code (`performance.now()` times). */
export interface HandOver {
  uris: readonly vscode.Uri[];
  at: number;
  /** When the extension host told of the first keystroke this check answers; undefined for other checks. */
  typedAt?: number;
}

interface FolderState {
  root: string;
  /** Made on the first check, so the checks' bundle loads only when a folder is checked. */
  session?: LintSession;
  /** The folder's files as last read from disk; undefined when they must be read again. */
  disk?: AgentFileInput[];
  config?: LintConfig;
  timer?: ReturnType<typeof setTimeout>;
  /** A check is asked for right after a keystroke and has not started yet. */
  queued?: boolean;
  /** When the extension host told of the first keystroke not checked yet (`performance.now()`). */
  typedAt?: number;
  /** How long the last few checks after a keystroke took, in ms, the newest last. */
  durations: number[];
  /**
   * How long the last check of files just read from disk took: what a keystroke's check is expected to take until
   * one has been measured (it checks every file, so it takes longer than a keystroke's check).
   */
  wholeMs?: number;
  running?: Promise<Problem[]>;
  /** What each file with diagnostics was last given (see `signature`), to clear it or leave it as it is. */
  shown: Map<string, string>;
}

/**
 * The lower median of the last checks' durations: one check slowed by a busy machine (or by code running for the
 * first time) does not delay the next ones.
 */
function typicalMs(durations: readonly number[]): number | undefined {
  if (durations.length === 0) return undefined;
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** A file's problems as one string: equal when its diagnostics would be the same. */
function signature(problems: readonly Problem[]): string {
  return JSON.stringify(problems);
}

/**
 * Diagnostics of checked-out agent folders as they are typed: the open documents' text (not the disk) with the
 * folder's other files, checked by the same rules as `node dist/cli.js lint`, in the Problems panel.
 */
export class AgentLint extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection('agentWorkbench.lint'));
  private readonly folders = new Map<string, FolderState>();
  /** The agent folder of each directory looked at (null: none). */
  private readonly rootOf = new Map<string, string | null>();
  private readonly fixes = new Map<string, Array<{ diagnostic: vscode.Diagnostic; fix: LintFix }>>();
  /** Read on the first check, and again after a profile or a secret changed. */
  private credentials: Promise<string[]> | undefined;
  private readonly _onDidHandOver = this.register(new Emitter<HandOver>());
  /**
   * Fires right after diagnostics are handed to VS Code: the files whose diagnostics changed, when, and when the
   * first keystroke they answer reached the extension host.
   */
  readonly onDidHandOver = this._onDidHandOver.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly readCredentials: () => Promise<string[]>,
  ) {
    super();
    this.register(vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d.uri, 0)));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document.uri, 'typing')));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.schedule(d.uri, 0, true)));
    const watcher = this.register(vscode.workspace.createFileSystemWatcher('**/*'));
    for (const on of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete])
      this.register(on((uri) => this.diskChanged(uri)));
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('agentWorkbench.lint')) this.recheckAll();
      }),
    );
    for (const d of vscode.workspace.textDocuments) this.schedule(d.uri, 0);
  }

  /** Reads the workspace's credentials again (a profile or a secret changed) and checks every folder with them. */
  credentialsChanged(): void {
    this.credentials = undefined;
    this.recheckAll();
  }

  /** The quick fixes of a file's diagnostics. */
  fixesOf(uri: vscode.Uri): ReadonlyArray<{ diagnostic: vscode.Diagnostic; fix: LintFix }> {
    return this.fixes.get(uri.toString()) ?? [];
  }

  /** The agent folder a file is in, or undefined (found by its agent.json, a few folders up at most). */
  agentFolderOf(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== 'file') return undefined;
    let dir = path.dirname(uri.fsPath);
    const seen: string[] = [];
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      const known = this.rootOf.get(dir);
      if (known !== undefined) return this.remember(seen, known);
      seen.push(dir);
      if (existsSync(path.join(dir, AGENT_MANIFEST))) return this.remember(seen, dir);
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
    return this.remember(seen, null);
  }

  private remember(dirs: string[], root: string | null): string | undefined {
    for (const d of dirs) this.rootOf.set(d, root);
    return root ?? undefined;
  }

  /** Checks a folder now (reading its files from disk again) and resolves with its problems. */
  async check(root: string): Promise<Problem[]> {
    const state = this.stateOf(root);
    state.disk = undefined;
    state.config = undefined;
    if (state.timer) clearTimeout(state.timer);
    return this.run(state);
  }

  private stateOf(root: string): FolderState {
    let state = this.folders.get(root);
    if (!state) {
      state = { root, shown: new Map(), durations: [] };
      this.folders.set(root, state);
    }
    return state;
  }

  private schedule(uri: vscode.Uri, when: number | 'typing', closed = false): void {
    const root = this.agentFolderOf(uri);
    if (!root || this.isDisposed) return;
    const state = this.stateOf(root);
    if (when === 'typing') state.typedAt ??= performance.now();
    const typical = typicalMs(state.durations) ?? state.wholeMs ?? TYPING_DELAY_MS;
    const delay = when !== 'typing' ? when : typical <= QUICK_CHECK_MS ? 0 : Math.min(TYPING_DELAY_MS, typical);
    // A closed document's unsaved text is gone: the file on disk is what counts again.
    if (closed) state.disk = undefined;
    if (state.timer) clearTimeout(state.timer);
    state.timer = undefined;
    if (delay === 0) {
      // Right after the event (a keystroke, a file opened) rather than on a timer, which on a busy editor waits
      // behind other work (an opened file sets other extensions to work too); the events that come before it
      // starts are checked together, with the newest text.
      if (state.queued) return;
      state.queued = true;
      queueMicrotask(() => {
        state.queued = false;
        void this.run(state).catch(() => undefined);
      });
      return;
    }
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void this.run(state).catch(() => undefined);
    }, delay);
  }

  private diskChanged(uri: vscode.Uri): void {
    if (uri.fsPath.endsWith(path.join('.agent-workbench', 'lint.json'))) {
      this.recheckAll();
      return;
    }
    for (const state of this.folders.values())
      if (uri.fsPath === state.root || uri.fsPath.startsWith(state.root + path.sep)) {
        state.disk = undefined;
        this.schedule(vscode.Uri.file(path.join(state.root, AGENT_MANIFEST)), 300);
      }
    // A new agent.json makes a new agent folder: forget what was found above.
    if (path.basename(uri.fsPath) === AGENT_MANIFEST) this.rootOf.clear();
  }

  private recheckAll(): void {
    for (const state of this.folders.values()) {
      state.disk = undefined;
      state.config = undefined;
      this.schedule(vscode.Uri.file(path.join(state.root, AGENT_MANIFEST)), 0);
    }
  }

  /** One check of a folder at a time; a check asked for meanwhile runs after it, with the newest text. */
  private run(state: FolderState): Promise<Problem[]> {
    const next = (state.running ?? Promise.resolve([])).catch(() => []).then(() => this.checkNow(state));
    state.running = next;
    return next;
  }

  private async checkNow(state: FolderState): Promise<Problem[]> {
    const runtime = lintRuntime();
    // The folder, the lint file and the stored credentials are read at once: none waits for another.
    this.credentials ??= this.readCredentials().catch(() => []);
    const whole = !state.disk || !state.config || !state.session;
    if (!state.disk || !state.config) {
      const [disk, config] = await Promise.all([
        state.disk ?? runtime.readAgentFolder(state.root),
        state.config ?? this.configOf(state.root),
      ]);
      state.disk ??= disk;
      state.config ??= config;
    }
    if (this.isDisposed) return [];
    const open = new Map<string, string>();
    for (const d of vscode.workspace.textDocuments) {
      if (d.uri.scheme !== 'file' || !d.uri.fsPath.startsWith(state.root + path.sep)) continue;
      open.set(path.relative(state.root, d.uri.fsPath).split(path.sep).join('/'), d.getText());
    }
    const files = state.disk.map((f) => (open.has(f.path) ? { path: f.path, text: open.get(f.path) } : f));
    // A document not yet saved to disk is checked too.
    for (const [p, text] of open) if (!state.disk.some((f) => f.path === p)) files.push({ path: p, text });
    const credentials = await this.credentials;
    // The keystrokes typed until now are the ones this check answers.
    const typedAt = state.typedAt;
    state.typedAt = undefined;
    state.session ??= new runtime.LintSession();
    const started = performance.now();
    const problems = state.session.lint(files, state.config, credentials);
    const took = performance.now() - started;
    if (whole) state.wholeMs = took;
    else state.durations = [...state.durations, took].slice(-DURATIONS_KEPT);
    this.publish(state, problems, typedAt);
    return problems;
  }

  private async configOf(root: string): Promise<LintConfig> {
    const runtime = lintRuntime();
    const { config } = await runtime.readLintConfig(root);
    const setting = vscode.workspace.getConfiguration('agentWorkbench.lint').get<unknown>('rules', {});
    return runtime.withSeverities(config, runtime.readSeverities(setting, 'agentWorkbench.lint.rules', []));
  }

  private publish(state: FolderState, problems: readonly Problem[], typedAt: number | undefined): void {
    const folder = vscode.Uri.file(state.root);
    const byFile = new Map<string, Problem[]>();
    // JSON that does not parse, in a document open in the editor, is marked by the editor's JSON support in its
    // own words at the same place: one message says it, not two.
    const openJson = new Set(
      vscode.workspace.textDocuments
        .filter((d) => d.uri.scheme === 'file' && (d.languageId === 'json' || d.languageId === 'jsonc'))
        .map((d) => d.uri.fsPath),
    );
    for (const p of problems) {
      if (p.jsonSyntax && openJson.has(path.join(state.root, ...p.path.split('/')))) continue;
      const list = byFile.get(p.path);
      if (list) list.push(p);
      else byFile.set(p.path, [p]);
    }
    for (const shown of state.shown.keys())
      if (!byFile.has(shown)) {
        const uri = vscode.Uri.joinPath(folder, ...shown.split('/'));
        this.collection.delete(uri);
        this.fixes.delete(uri.toString());
      }
    const before = state.shown;
    state.shown = new Map();
    // One message to the Problems panel for every file that changed, not one per file.
    const changed: Array<[vscode.Uri, vscode.Diagnostic[]]> = [];
    for (const [file, list] of byFile) {
      const key = signature(list);
      state.shown.set(file, key);
      // A keystroke in one file leaves the others' diagnostics as they are: nothing is sent to the Problems panel
      // for them.
      if (before.get(file) === key) continue;
      const uri = vscode.Uri.joinPath(folder, ...file.split('/'));
      const converted = list.map((p) => toDiagnostic(p, folder, this.extensionUri));
      changed.push([uri, converted.map((c) => c.diagnostic)]);
      this.fixes.set(
        uri.toString(),
        converted.filter((c): c is { diagnostic: vscode.Diagnostic; fix: LintFix } => c.fix !== undefined),
      );
    }
    if (changed.length === 1) this.collection.set(changed[0]![0], changed[0]![1]);
    else if (changed.length > 1) this.collection.set(changed);
    if (changed.length > 0)
      this._onDidHandOver.fire({
        uris: changed.map(([uri]) => uri),
        at: performance.now(),
        ...(typedAt ? { typedAt } : {}),
      });
  }

  override dispose(): void {
    for (const state of this.folders.values()) if (state.timer) clearTimeout(state.timer);
    super.dispose();
  }
}
