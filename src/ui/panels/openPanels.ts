import type * as vscode from 'vscode';
import { Disposable, DisposableStore, type IDisposable } from '../../core/disposable';
import type { Event } from '../../core/event';

/** A panel as its commands keep it: its webview panel, and the event of its closing. */
export interface OpenPanel extends IDisposable {
  readonly panel: vscode.WebviewPanel;
  readonly onDidDispose: Event<void>;
}

/**
 * The open panels of one kind, oldest first, and the one the person looked at last. A panel leaves when it
 * closes, with the subscriptions kept for it; disposing this closes every panel still open.
 */
export class OpenPanels<P extends OpenPanel> extends Disposable {
  private readonly open = new Map<P, DisposableStore>();
  private last: P | undefined;

  constructor() {
    super();
    this.register({ dispose: () => [...this.open.keys()].forEach((p) => p.dispose()) });
  }

  /** Keeps a panel just opened (it is the last looked at) until it closes. */
  add(p: P): P {
    const subs = new DisposableStore();
    this.open.set(p, subs);
    this.last = p;
    subs.add(
      p.panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.active) this.last = p;
      }),
    );
    subs.add(
      p.onDidDispose(() => {
        this.open.delete(p);
        subs.dispose();
        if (this.last === p) this.last = [...this.open.keys()].at(-1);
      }),
    );
    return p;
  }

  get all(): P[] {
    return [...this.open.keys()];
  }

  get size(): number {
    return this.open.size;
  }

  /** The panel the person looked at last (the active one, if any is). */
  get lastActive(): P | undefined {
    return this.last;
  }

  /** The active panel, else the one looked at last. */
  get active(): P | undefined {
    return this.all.find((p) => p.panel.active) ?? this.last;
  }
}
