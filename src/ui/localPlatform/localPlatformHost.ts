import { type ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  announceLocalPlatform,
  isLocalConnectionReply,
  withdrawLocalPlatformSync,
} from '../../client/localPlatformDiscovery';
import type { LocalPlatformCredentials, LocalPlatformUrls } from '../../localPlatform/server';
import type { LocalProjectCredentials } from '../../localPlatform/seed/credentials';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import type { Log } from '../log';
import { ContextKey } from '../ids';
import { AnswerWatch } from './answerWatch';

/** A local platform the editor can use: one it runs itself, or one already running elsewhere on this machine. */
export interface LocalPlatformInfo {
  urls: LocalPlatformUrls;
  credentials: LocalPlatformCredentials;
  /** True when it runs outside the editor (for example started by `npm start`): stopping only lets go of it. */
  external: boolean;
  /** Which data it holds: another id after a reset or a restart without a data folder. */
  dataId?: string;
}

/** Reads a running local platform's addresses and demo credentials from its admin API. */
export async function probeExternal(origin: string, signal?: AbortSignal): Promise<LocalPlatformInfo> {
  const base = origin.replace(/\/+$/, '');
  const url = new URL(base);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
    throw new Error(vscode.l10n.t('{0} is not on this machine: a local platform listens on a loopback address.', base));
  const res = await fetch(`${base}/_local/connection`, { signal: signal ?? AbortSignal.timeout(3000) });
  if (!res.ok)
    throw new Error(vscode.l10n.t('{0} answered HTTP {1}: it does not look like a local platform.', base, res.status));
  const body: unknown = await res.json().catch(() => undefined);
  if (!isLocalConnectionReply(body))
    throw new Error(vscode.l10n.t('{0} answered, but not as a local platform does.', base));
  return {
    external: true,
    ...(typeof body.dataId === 'string' ? { dataId: body.dataId } : {}),
    urls: {
      origin: base,
      runtime: base + body.bases.runtime,
      build: base + body.bases.build,
      messaging: base + body.bases.messaging,
      admin: `${base}/_local`,
    },
    credentials: {
      accountId: body.accountId,
      projectId: body.projectId,
      keys: body.keys as LocalPlatformCredentials['keys'],
      connectors: body.connectors as LocalPlatformCredentials['connectors'],
      ...(Array.isArray(body.projects) ? { projects: body.projects as LocalProjectCredentials[] } : {}),
    },
  };
}

/**
 * Runs the local platform in a child process (the CLI bundle), so a busy local platform never slows
 * the extension host, or uses one already running on this machine.
 */
export class LocalPlatformHost extends Disposable {
  private running: { child: ChildProcess; info: LocalPlatformInfo } | undefined;
  private external: LocalPlatformInfo | undefined;
  private starting: Promise<LocalPlatformInfo> | undefined;
  /** Whether the platform used from outside the editor still answers; set while one is used or awaited back. */
  private watch: AnswerWatch<LocalPlatformInfo> | undefined;
  private readonly _onDidChange = this.register(new Emitter<LocalPlatformInfo | undefined>());
  readonly onDidChange = this._onDidChange.event;
  /**
   * The platform in use went away without Stop Local Platform: one used from outside the editor stopped answering,
   * or the one the editor ran ended (killed, or it failed). The editor no longer uses it.
   */
  private readonly _onDidLose = this.register(new Emitter<{ origin: string; external: boolean }>());
  readonly onDidLose = this._onDidLose.event;
  /** The platform lost before answers again at the same address, and is used again. */
  private readonly _onDidReturn = this.register(new Emitter<LocalPlatformInfo>());
  readonly onDidReturn = this._onDidReturn.event;

  /** The announcement of the platform in use for programs on this machine (the MCP server): one write at a time. */
  private announcing: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    private readonly extensionPath: string,
    readonly log: Log,
  ) {
    super();
    // The MCP server (`mcp --local`) finds the local platform this window uses, so its tools read the same data.
    this.register(this.onDidChange(() => this.announce()));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.current && this.announce()));
  }

  private announce(): void {
    this.announcing = this.announcing.then(async () => {
      if (this.disposed) return;
      const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
      await announceLocalPlatform(
        this.current?.urls.origin,
        folders.map((f) => f.uri.fsPath),
      ).catch((err: unknown) =>
        this.log.warn(`Could not say which local platform this window uses to the assistant tools: ${String(err)}`),
      );
    });
  }

  get current(): LocalPlatformInfo | undefined {
    return this.external ?? this.running?.info;
  }

  /** The address of a local platform to use instead of running one (setting `agentWorkbench.localPlatform.url`). */
  get configuredUrl(): string {
    return vscode.workspace.getConfiguration('agentWorkbench.localPlatform').get<string>('url', '').trim();
  }

  /**
   * Makes a local platform available: the one at the configured address when there is one,
   * otherwise one started inside the editor.
   */
  async start(opts: { inEditor?: boolean } = {}): Promise<LocalPlatformInfo> {
    const current = this.current;
    if (current && (!opts.inEditor || !current.external)) return current;
    this.starting ??= (this.configuredUrl && !opts.inEditor ? this.attach(this.configuredUrl) : this.doStart()).finally(
      () => {
        this.starting = undefined;
      },
    );
    return this.starting;
  }

  private async attach(origin: string): Promise<LocalPlatformInfo> {
    const info = await probeExternal(origin);
    this.use(info);
    this.log.info(`Using the local platform already running at ${info.urls.origin}`);
    await vscode.commands.executeCommand('setContext', ContextKey.localPlatformRunning, true);
    this._onDidChange.fire(info);
    return info;
  }

  /** Uses a platform running outside the editor, and watches that it keeps answering. */
  private use(info: LocalPlatformInfo): void {
    this.external = info;
    this.watch?.dispose();
    const origin = info.urls.origin;
    this.watch = new AnswerWatch(() => probeExternal(origin), {
      lost: () => {
        if (this.external?.urls.origin !== origin) return;
        this.log.warn(`The local platform at ${origin} no longer answers`);
        this.external = undefined;
        void vscode.commands.executeCommand('setContext', ContextKey.localPlatformRunning, false);
        this._onDidChange.fire(undefined);
        this._onDidLose.fire({ origin, external: true });
      },
      back: (again) => {
        if (this.current || this.starting) return;
        this.log.info(`The local platform at ${origin} answers again`);
        this.external = again;
        void vscode.commands.executeCommand('setContext', ContextKey.localPlatformRunning, true);
        this._onDidChange.fire(again);
        this._onDidReturn.fire(again);
      },
    });
  }

  /**
   * A request found nothing answering at `origin`: when that is the platform used from outside the editor, it is
   * asked at once whether it is still there, rather than at the next turn of the watch.
   */
  notReached(origin: string): void {
    if (this.external?.urls.origin === origin) this.watch?.askNow();
  }

  private async doStart(): Promise<LocalPlatformInfo> {
    const config = vscode.workspace.getConfiguration('agentWorkbench.localPlatform');
    const args = [
      'serve',
      '--port',
      String(config.get<number>('port', 0)),
      '--seed',
      config.get<'demo' | 'base' | 'empty'>('seed', 'demo'),
      '--responses',
      config.get<'full' | 'minimal' | 'spec-only'>('responses', 'full'),
      '--json',
    ];
    // The editor's own runtime runs the CLI bundle as plain Node; the IPC channel ends the child when the editor goes.
    const child = fork(path.join(this.extensionPath, 'dist', 'cli.js'), args, {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      execArgv: [],
    });
    child.stderr?.setEncoding('utf8').on('data', (text: string) => this.log.warn(`Local platform: ${text.trim()}`));
    let info: LocalPlatformInfo;
    try {
      const origin = await announcedOrigin(child);
      info = { ...(await probeExternal(origin)), external: false };
    } catch (err) {
      child.kill();
      throw err;
    }
    this.running = { child, info };
    this.external = undefined;
    this.watch?.dispose();
    this.watch = undefined;
    child.once('exit', (code, signal) => {
      if (this.running?.child !== child) return;
      // It ended on its own: the editor no longer has a local platform.
      this.log.warn(`The local platform stopped (${signal ?? `exit code ${code}`})`);
      this.running = undefined;
      void vscode.commands.executeCommand('setContext', ContextKey.localPlatformRunning, false);
      this._onDidChange.fire(undefined);
      this._onDidLose.fire({ origin: info.urls.origin, external: false });
    });
    this.log.info(`Local platform started on ${info.urls.origin} (process ${child.pid})`);
    await vscode.commands.executeCommand('setContext', ContextKey.localPlatformRunning, true);
    this._onDidChange.fire(info);
    return info;
  }

  /**
   * Stops the platform the editor runs, or lets go of one running elsewhere: says which it did, with the
   * address, or undefined when there was none.
   */
  async stop(): Promise<{ outcome: 'stopped' | 'released'; origin: string } | undefined> {
    const lp = this.running;
    const wasExternal = this.external;
    // Let go of a platform that stopped answering too: the editor no longer waits for it.
    this.watch?.dispose();
    this.watch = undefined;
    if (!lp && !wasExternal) return undefined;
    this.running = undefined;
    this.external = undefined;
    if (lp) {
      await stopProcess(lp.child);
      this.log.info('Local platform stopped');
    } else {
      this.log.info(`No longer using the local platform at ${wasExternal!.urls.origin} (it keeps running)`);
    }
    await vscode.commands.executeCommand('setContext', ContextKey.localPlatformRunning, false);
    this._onDidChange.fire(undefined);
    return lp
      ? { outcome: 'stopped', origin: lp.info.urls.origin }
      : { outcome: 'released', origin: wasExternal!.urls.origin };
  }

  override dispose(): void {
    this.disposed = true;
    try {
      withdrawLocalPlatformSync();
    } catch {
      // Gone already, or the folder cannot be written: a reader leaves out files of windows that no longer run.
    }
    void this.stop();
    super.dispose();
  }
}

/** The origin the CLI prints as its first line (JSON) once it listens; its stderr when it ends before. */
function announcedOrigin(child: ChildProcess, timeoutMs = 30_000): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => finish(new Error(vscode.l10n.t('The local platform did not start within {0} seconds.', timeoutMs / 1000))),
      timeoutMs,
    );
    const finish = (result: Error | string): void => {
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      child.removeListener('exit', onExit);
      if (typeof result === 'string') resolve(result);
      else reject(result);
    };
    const onExit = (): void =>
      finish(new Error(err.trim() || vscode.l10n.t('The local platform ended before it listened.')));
    child.stderr?.on('data', (text: string) => (err += text));
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const line = out.split('\n', 1)[0]!;
      if (line.length === out.length) return;
      try {
        const origin = (JSON.parse(line) as { urls?: { origin?: unknown } }).urls?.origin;
        finish(
          typeof origin === 'string'
            ? origin
            : new Error(vscode.l10n.t('The local platform did not say where it listens.')),
        );
      } catch {
        finish(new Error(vscode.l10n.t('The local platform did not say where it listens.')));
      }
    });
    child.once('exit', onExit);
  });
}

/** Asks the process to stop (it closes its server and saves its state), and ends it if it has not within 5 seconds. */
function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
