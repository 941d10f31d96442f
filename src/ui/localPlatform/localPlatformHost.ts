import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LocalPlatform, LocalPlatformCredentials, LocalPlatformOptions, LocalPlatformUrls } from '../../localPlatform/server';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import type { Log } from '../log';
import { ContextKey } from '../ids';

type ServerModule = { startLocalPlatform(options: LocalPlatformOptions): Promise<LocalPlatform> };

/** A local platform the editor can use: one it runs itself, or one already running elsewhere on this machine. */
export interface LocalPlatformInfo {
  urls: LocalPlatformUrls;
  credentials: LocalPlatformCredentials;
  /** True when it runs outside the editor (for example started by `npm start`): stopping only lets go of it. */
  external: boolean;
}

/** Reads a running local platform's addresses and demo credentials from its admin API. */
export async function probeExternal(origin: string, signal?: AbortSignal): Promise<LocalPlatformInfo> {
  const base = origin.replace(/\/+$/, '');
  const url = new URL(base);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error(vscode.l10n.t('{0} is not on this machine: a local platform listens on a loopback address.', base));
  const res = await fetch(`${base}/_local/connection`, { signal: signal ?? AbortSignal.timeout(3000) });
  if (!res.ok) throw new Error(vscode.l10n.t('{0} answered HTTP {1}: it does not look like a local platform.', base, res.status));
  const body = (await res.json().catch(() => undefined)) as ({ bases?: Record<'runtime' | 'build' | 'messaging', string> } & Partial<LocalPlatformCredentials>) | undefined;
  if (!body?.bases?.runtime || !body.bases.build || !body.bases.messaging || !body.keys || !body.connectors || !body.accountId || !body.projectId) {
    throw new Error(vscode.l10n.t('{0} answered, but not as a local platform does.', base));
  }
  return {
    external: true,
    urls: { origin: base, runtime: base + body.bases.runtime, build: base + body.bases.build, messaging: base + body.bases.messaging, admin: `${base}/_local` },
    credentials: { accountId: body.accountId, projectId: body.projectId, keys: body.keys, connectors: body.connectors },
  };
}

/**
 * Runs the local platform inside the extension host, loaded from its own bundle only when
 * first started so activation stays light.
 */
export class LocalPlatformHost extends Disposable {
  private running: LocalPlatform | undefined;
  private external: LocalPlatformInfo | undefined;
  private starting: Promise<LocalPlatformInfo> | undefined;
  private readonly _onDidChange = this.register(new Emitter<LocalPlatformInfo | undefined>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly extensionPath: string, readonly log: Log) {
    super();
  }

  get current(): LocalPlatformInfo | undefined {
    return this.external ?? (this.running ? { urls: this.running.urls, credentials: this.running.credentials, external: false } : undefined);
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
    this.starting ??= (this.configuredUrl && !opts.inEditor ? this.attach(this.configuredUrl) : this.doStart()).finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async attach(origin: string): Promise<LocalPlatformInfo> {
    const info = await probeExternal(origin);
    this.external = info;
    this.log.info(`Using the local platform already running at ${info.urls.origin}`);
    await vscode.commands.executeCommand('setContext', ContextKey.localPlatformRunning, true);
    this._onDidChange.fire(info);
    return info;
  }

  private async doStart(): Promise<LocalPlatformInfo> {
    const config = vscode.workspace.getConfiguration('agentWorkbench.localPlatform');
    const modulePath = path.join(this.extensionPath, 'dist', 'localPlatformServer.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(modulePath) as ServerModule;
    const lp = await mod.startLocalPlatform({
      port: config.get<number>('port', 0),
      seed: config.get<'demo' | 'base' | 'empty'>('seed', 'demo'),
      demoAnchor: 'now',
    });
    this.running = lp;
    this.external = undefined;
    this.log.info(`Local platform started on ${lp.urls.origin}`);
    await vscode.commands.executeCommand('setContext', ContextKey.localPlatformRunning, true);
    const info: LocalPlatformInfo = { urls: lp.urls, credentials: lp.credentials, external: false };
    this._onDidChange.fire(info);
    return info;
  }

  /** Stops the platform the editor runs, or lets go of one running elsewhere. */
  async stop(): Promise<void> {
    const lp = this.running;
    const wasExternal = this.external;
    if (!lp && !wasExternal) return;
    this.running = undefined;
    this.external = undefined;
    if (lp) {
      await lp.close();
      this.log.info('Local platform stopped');
    } else {
      this.log.info(`No longer using the local platform at ${wasExternal!.urls.origin} (it keeps running)`);
    }
    await vscode.commands.executeCommand('setContext', ContextKey.localPlatformRunning, false);
    this._onDidChange.fire(undefined);
  }

  override dispose(): void {
    void this.stop();
    super.dispose();
  }
}
