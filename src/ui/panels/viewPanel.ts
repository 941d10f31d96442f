import * as vscode from 'vscode';
import { Emitter } from '../../core/event';
import { ObservableDisposable } from '../../core/observableDisposable';
import type { Guard, NoRequests } from '../../protocol/envelope';
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
 * Closing the panel disposes it, and disposing it closes the panel.
 */
export abstract class ViewPanel<V, C extends { type: string }> extends ObservableDisposable {
  private readonly host: PanelHost<C | ProblemCommand, NoRequests, { type: 'view'; view: V }>;
  private readonly _onDidChange = this.register(new Emitter<V>());
  /** Every new view, posted or not (tests read what the panel shows through it). */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidLoad = this.register(new Emitter<void>());
  /** The page (re)loaded and asked for its view: opened, shown again, moved to another group or restored. */
  readonly onDidLoad = this._onDidLoad.event;
  private pending = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    protected readonly log: Log,
    private current: V,
    options: ViewPanelOptions<C>,
  ) {
    super();
    this.host = this.register(
      new PanelHost(panel, extensionUri, {
        app: options.app,
        isCommand: options.isCommand,
        isRequest: (_v): _v is never => false,
        onReady: () => {
          this.post();
          this._onDidLoad.fire();
        },
        onCommand: (c) => {
          if (c.type === 'problem') this.log.warn(`${options.name} page: ${(c as ProblemCommand).message}`);
          else
            void Promise.resolve(this.onCommand(c as C)).catch((err: unknown) =>
              this.log.error(err instanceof Error ? err : String(err)),
            );
        },
        requests: {},
        onRejected: (reason) => this.log.warn(`${options.name}: ${reason}`),
      }),
    );
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'agent-workbench.svg');
    this.register(panel.onDidDispose(() => this.dispose()));
    this.register(panel);
  }

  /** What the webview shows (or will show once ready). */
  get view(): V {
    return this.current;
  }

  protected abstract onCommand(command: C): void | Promise<void>;

  /** Replaces the view (or changes part of it) and posts it once this turn of the event loop is over. */
  protected update(change: Partial<V>): void {
    if (this.isDisposed) return;
    this.current = { ...this.current, ...change };
    this._onDidChange.fire(this.current);
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.post();
    });
  }

  private post(): void {
    if (!this.isDisposed) this.host.notify({ type: 'view', view: this.current });
  }
}
