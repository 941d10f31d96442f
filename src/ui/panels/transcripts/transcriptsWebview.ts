import * as vscode from 'vscode';
import { Disposable } from '../../../core/disposable';
import { Emitter } from '../../../core/event';
import {
  isTranscriptsCommand,
  isTranscriptsRequest,
  type TranscriptsCommand,
  type TranscriptsNotification,
  type TranscriptsRequests,
  type TranscriptsSnapshot,
} from '../../../protocol/transcripts';
import type { Log } from '../../log';
import { PanelHost, type RequestHandlers } from '../panelHost';

export interface TranscriptsWebviewOptions {
  /** The webview reports when each change is in its page, and how many rows or turns it holds (benchmarks, tests). */
  ackPaint?: boolean;
}

export interface Painted {
  seq: number;
  /** Epoch ms the change was in the page. */
  at: number;
  elements: number;
}

/**
 * The webview side of a transcript panel (the list or a conversation): the page with its security policy
 * (PanelHost), the whole state after each `ready`, and numbered changes whose arrival in the page the
 * webview confirms when asked to.
 */
export class TranscriptsWebview extends Disposable {
  private readonly host: PanelHost<TranscriptsCommand, TranscriptsRequests, TranscriptsNotification>;
  private seq = 0;
  private readonly _onDidPaint = this.register(new Emitter<Painted>());
  private readonly _onDidNotify = this.register(new Emitter<TranscriptsNotification>());
  /** A change was in the webview's page (only with ackPaint). */
  readonly onDidPaint = this._onDidPaint.event;
  /** Every notification made for the webview, posted or not, with the epoch ms it was made. */
  readonly onDidNotify = this._onDidNotify.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    log: Log,
    handlers: {
      snapshot(): TranscriptsSnapshot;
      command(c: TranscriptsCommand): Promise<void>;
      requests: RequestHandlers<TranscriptsRequests>;
    },
    private readonly options: TranscriptsWebviewOptions = {},
  ) {
    super();
    this.host = this.register(
      new PanelHost(panel, extensionUri, {
        app: 'transcripts',
        isCommand: isTranscriptsCommand,
        isRequest: isTranscriptsRequest,
        onReady: () =>
          this.notify({
            type: 'snapshot',
            snapshot: handlers.snapshot(),
            seq: this.nextSeq(),
            ...(options.ackPaint ? { ackPaint: true } : {}),
          }),
        onCommand: (c) => {
          if (c.type === 'painted') {
            for (const { seq, at } of c.paints) this._onDidPaint.fire({ seq, at, elements: c.elements });
          } else if (c.type === 'problem') {
            log.warn(`Transcript panel page: ${c.message}`);
          } else {
            void handlers.command(c).catch((err: unknown) => log.error(err instanceof Error ? err : String(err)));
          }
        },
        requests: handlers.requests,
        onRejected: (reason) => log.warn(`Transcript panel: ${reason}`),
      }),
    );
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'agent-workbench.svg');
  }

  /** A new number for a change the webview may confirm. */
  nextSeq(): number {
    return ++this.seq;
  }

  notify(n: TranscriptsNotification): void {
    this._onDidNotify.fire(n);
    this.host.notify(n);
  }

  /** Sends the whole state again (the panel's view changed as a whole). */
  resend(snapshot: TranscriptsSnapshot): number {
    const seq = this.nextSeq();
    this.notify({ type: 'snapshot', snapshot, seq, ...(this.options.ackPaint ? { ackPaint: true } : {}) });
    return seq;
  }
}
