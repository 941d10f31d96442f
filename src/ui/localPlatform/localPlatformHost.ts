import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LocalPlatform, LocalPlatformOptions } from '../../localPlatform/server';
import type { Log } from '../log';

type ServerModule = { startLocalPlatform(options: LocalPlatformOptions): Promise<LocalPlatform> };

/**
 * Runs the local platform inside the extension host, loaded from its own bundle only when
 * first started so activation stays light.
 */
export class LocalPlatformHost implements vscode.Disposable {
  private running: LocalPlatform | undefined;
  private starting: Promise<LocalPlatform> | undefined;
  private readonly _onDidChange = new vscode.EventEmitter<LocalPlatform | undefined>();
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly extensionPath: string, private readonly log: Log) {}

  get current(): LocalPlatform | undefined {
    return this.running;
  }

  async start(): Promise<LocalPlatform> {
    if (this.running) return this.running;
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async doStart(): Promise<LocalPlatform> {
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
    this.log.info(`Local platform started on ${lp.urls.origin}`);
    await vscode.commands.executeCommand('setContext', 'agentWorkbench.localPlatformRunning', true);
    this._onDidChange.fire(lp);
    return lp;
  }

  async stop(): Promise<void> {
    const lp = this.running;
    if (!lp) return;
    this.running = undefined;
    await lp.close();
    this.log.info('Local platform stopped');
    await vscode.commands.executeCommand('setContext', 'agentWorkbench.localPlatformRunning', false);
    this._onDidChange.fire(undefined);
  }

  dispose(): void {
    void this.stop();
    this._onDidChange.dispose();
  }
}
