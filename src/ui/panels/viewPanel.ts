import * as vscode from 'vscode';
import type { Guard } from '../../protocol/envelope';
import type { Log } from '../log';
import { PanelHost } from './panelHost';

/** The commands every view panel's webview may send besides its own: a problem of the page, for the log. */
export type ProblemCommand = { type: 'problem'; message: string };

export interface ViewPanelOptions<C> {
  /** The webview app: dist/webview/<app>.js. */
  app: string;
  /** Its name in the log. */
  name: string;
  isCommand: Guard<C | ProblemCommand>;
}

/**
 * A panel whose webview shows one view model, sent whole: after `ready` and whenever it changes (at
 * most once per turn of the event loop). Fit for panels that redraw everything from a small model
 * (a chart, a comparison); a panel with a growing list, like the chat, sends pieces instead.
 */
export abstract class ViewPanel<V, C extends { type: string }> implements vscode.Disposable {
  private readonly host: PanelHost<C | ProblemCommand, { type: never }, { type: 'view'; view: V }>;
  private readonly _onDidChange = new vscode.EventEmitter<V>();
  private readonly _onDidDispose = new vscode.EventEmitter<void>();
  /** Every new view, posted or not (tests read what the panel shows through it). */
  readonly onDidChange = this._onDidChange.event;
  readonly onDidDispose = this._onDidDispose.event;
  private pending = false;
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    protected readonly log: Log,
    private current: V,
    options: ViewPanelOptions<C>,
  ) {
    this.host = new PanelHost(panel, extensionUri, {
      app: options.app,
      isCommand: options.isCommand,
      isRequest: (_v): _v is never => false,
      onReady: () => this.post(),
      onCommand: (c) => {
        if (c.type === 'problem') this.log.warn(`${options.name} page: ${(c as ProblemCommand).message}`);
        else
          void Promise.resolve(this.onCommand(c as C)).catch((err: unknown) =>
            this.log.error(err instanceof Error ? err : String(err)),
          );
      },
      onRequest: () => Promise.reject(new Error('not supported')),
      onRejected: (reason) => this.log.warn(`${options.name}: ${reason}`),
    });
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'agent-workbench.svg');
    panel.onDidDispose(() => this.dispose());
  }

  /** What the webview shows (or will show once ready). */
  get view(): V {
    return this.current;
  }

  protected abstract onCommand(command: C): void | Promise<void>;

  /** Replaces the view (or changes part of it) and posts it once this turn of the event loop is over. */
  protected update(change: Partial<V>): void {
    if (this.disposed) return;
    this.current = { ...this.current, ...change };
    this._onDidChange.fire(this.current);
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.post();
    });
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  private post(): void {
    if (!this.disposed) this.host.notify({ type: 'view', view: this.current });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.host.dispose();
    this._onDidDispose.fire();
    this._onDidDispose.dispose();
    this._onDidChange.dispose();
    this.panel.dispose();
  }
}
