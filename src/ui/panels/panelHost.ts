import * as vscode from 'vscode';
import { Disposable, type IDisposable, toDisposable } from '../../core/disposable';
import {
  type Guard,
  isCommand,
  type NotificationMessage,
  PROTOCOL_VERSION,
  type RequestMap,
  type RequestOf,
  type ResponseMessage,
  type ResultOf,
} from '../../protocol/envelope';
import { DirectChannel } from './directChannel';
import { describeMessage, panelPage, readWebviewMessage } from './panelPage';

/** The folder of the built webview apps: the only place a panel may load anything from. */
export function webviewRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

/** Options for `createWebviewPanel` and for restoring a panel: scripts on, resources only from the built webview folder. */
export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [webviewRoot(extensionUri)],
    retainContextWhenHidden: false,
    enableFindWidget: true,
  };
}

/** Brings a panel back with the state its webview kept; resolves with what it made (undefined when the state is refused). */
export interface PanelSerializer {
  deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<unknown>;
}

const serializers = new Map<string, PanelSerializer>();

/** Registers how panels of a type come back after a reload, with the state their webview kept. */
export function registerPanelSerializer(viewType: string, serializer: PanelSerializer): IDisposable {
  const registration = vscode.window.registerWebviewPanelSerializer(viewType, {
    deserializeWebviewPanel: async (panel, state) => void (await serializer.deserializeWebviewPanel(panel, state)),
  });
  serializers.set(viewType, serializer);
  return toDisposable(() => {
    if (serializers.get(viewType) === serializer) serializers.delete(viewType);
    registration.dispose();
  });
}

/**
 * Restores a panel of the type as VS Code does after a reload: a new panel given to the type's serializer with
 * the state. For the extension's own tests (a reload would end them); resolves with what the serializer made.
 */
export async function restorePanel(extensionUri: vscode.Uri, viewType: string, state: unknown): Promise<unknown> {
  const serializer = serializers.get(viewType);
  if (!serializer) throw new Error(`No serializer for ${viewType}`);
  const panel = vscode.window.createWebviewPanel(
    viewType,
    viewType,
    vscode.ViewColumn.Active,
    panelOptions(extensionUri),
  );
  return serializer.deserializeWebviewPanel(panel, state);
}

/** The host's answer to each request of a panel, by name: a handler resolves with the answer of its request. */
export type RequestHandlers<M extends RequestMap> = {
  [K in keyof M & string]: (request: RequestOf<M, K>) => Promise<ResultOf<M, K>>;
};

/** Answers a request with the handler of its name. */
export function answerRequest<M extends RequestMap, K extends keyof M & string>(
  handlers: RequestHandlers<M>,
  request: RequestOf<M, K>,
): Promise<ResultOf<M, K>> {
  const type: K = request.type;
  return handlers[type](request);
}

export interface PanelHostOptions<C, M extends RequestMap> {
  /** The webview app: dist/webview/<app>.js. */
  app: string;
  isCommand: Guard<C>;
  isRequest: Guard<RequestOf<M>>;
  /** The webview (re)loaded and asked for its content: post the whole state. */
  onReady(): void;
  onCommand(command: C): void;
  /** One handler per request the panel's protocol names, each answering with that request's result. */
  requests: RequestHandlers<M>;
  /**
   * Something the host refused or repaired, for the caller's log: an incoming message that failed its guard (never
   * acted on), or a page written once more.
   */
  onRejected?(reason: string): void;
  /**
   * How long a shown page may take to say `ready` before the host writes it once more (8 s unless given). A webview
   * made while VS Code is still disposing another in the same place can stay blank; a second write loads it.
   */
  readyWithinMs?: number;
  /**
   * Notifications stream to the page through a loopback WebSocket of its own where one can be opened (see
   * DirectChannel), posted as messages otherwise. For panels whose notifications come many a second.
   */
  direct?: boolean;
  /** The commands the page may send on its socket (reports many a second); any other there is ignored. */
  isReport?(command: C): boolean;
}

/**
 * One webview panel's side of the protocol. Writes the page (a content security policy with a
 * nonce: the app's one module script and its styles only, no inline or eval script), waits for the
 * webview's `ready` before posting, checks every incoming message with the panel's guards, and
 * answers requests. A hidden panel's webview is discarded; when shown again it sends `ready`
 * anew and gets the whole state, so nothing posted meanwhile needs to be kept.
 */
export class PanelHost<C, M extends RequestMap, N> extends Disposable {
  private ready = false;
  /** The page was written once more since it last said `ready`: it is not written again until it does. */
  private rewritten = false;
  private readyTimer: NodeJS.Timeout | undefined;
  private channel: DirectChannel | undefined;
  private readonly commandGuard: Guard<{ kind: 'command'; command: C }>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly options: PanelHostOptions<C, M>,
  ) {
    super();
    this.commandGuard = isCommand(options.isCommand);
    panel.webview.options = panelOptions(extensionUri);
    this.register(panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)));
    this.register(
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.ready = false;
        else if (!this.ready) this.expectReady();
      }),
    );
    this.register({ dispose: () => clearTimeout(this.readyTimer) });
    if (options.direct) void this.openChannel();
    else this.write();
  }

  /** Opens the page's channel before writing the page, which names it; without one, the page is written as it is. */
  private async openChannel(): Promise<void> {
    const channel = await DirectChannel.open();
    if (this.isDisposed) {
      channel?.dispose();
      return;
    }
    if (channel) {
      this.channel = this.register(channel);
      // Connected: the whole state goes through the socket, and what the page was posted before it is superseded.
      // Closed: the page says `ready` again (socketClosed) and gets the whole state posted.
      this.register(channel.onDidOpen(() => this.isReady && this.options.onReady()));
      // Reports the page sends on its socket: commands, checked as posted ones are.
      this.register(
        channel.onDidReceive((m) => {
          if (this.commandGuard(m) && this.options.isReport?.(m.command)) this.options.onCommand(m.command);
          else
            this.options.onRejected?.(`an unexpected message on the page's socket was ignored: ${describeMessage(m)}`);
        }),
      );
    }
    this.write();
  }

  /** Writes the page, which says `ready` once it has loaded. */
  private write(): void {
    this.panel.webview.html = this.html();
    this.expectReady();
  }

  /** A shown page that has not said `ready` within the bound is written once more, and that is logged. */
  private expectReady(): void {
    clearTimeout(this.readyTimer);
    const bound = this.options.readyWithinMs ?? 8_000;
    this.readyTimer = setTimeout(() => {
      if (this.isDisposed || this.ready || !this.panel.visible || this.rewritten) return;
      this.rewritten = true;
      this.options.onRejected?.(`the page did not say it was ready within ${bound / 1000} s; writing it once more`);
      this.panel.webview.html = this.html();
    }, bound);
  }

  /** The page's own socket, when the panel streams through one (see PanelHostOptions.direct). */
  get directChannel(): DirectChannel | undefined {
    return this.channel;
  }

  /** True once the webview has said it is ready, until it is hidden, reloaded or closed. */
  get isReady(): boolean {
    return this.ready && !this.isDisposed;
  }

  /** Posts a notification when the webview can take it; otherwise it is covered by the state sent on the next `ready`. */
  notify(notification: N): boolean {
    if (!this.isReady) return false;
    const message: NotificationMessage<N> = { kind: 'notification', notification };
    if (this.channel?.send(message)) return true;
    this.panel.webview.postMessage(message).then(
      (delivered) => {
        if (!delivered) this.options.onRejected?.('a notification could not be delivered to the webview');
      },
      (err: unknown) => this.options.onRejected?.(`a notification could not be posted: ${String(err)}`),
    );
    return true;
  }

  private receive(message: unknown): void {
    const read = readWebviewMessage(message, this.options);
    switch (read.kind) {
      case 'otherProtocol':
        // A webview restored from another build: load this build's page instead of trusting it.
        this.options.onRejected?.(
          `the webview speaks protocol ${read.protocol}, not ${PROTOCOL_VERSION}; reloading it`,
        );
        this.write();
        return;
      case 'ready':
        this.ready = true;
        this.rewritten = false;
        clearTimeout(this.readyTimer);
        // The page's socket ended where the host may not have noticed yet (a broken tunnel): post from now on.
        if (read.socketClosed) this.channel?.drop();
        this.options.onReady();
        return;
      case 'command':
        this.options.onCommand(read.command);
        return;
      case 'request':
        void this.answer(read.id, read.request);
        return;
      case 'refused':
        this.options.onRejected?.(read.reason);
    }
  }

  private async answer(id: number, request: RequestOf<M>): Promise<void> {
    let response: ResponseMessage;
    try {
      response = { kind: 'response', id, ok: true, result: await answerRequest(this.options.requests, request) };
    } catch (err) {
      response = { kind: 'response', id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    // A panel closed meanwhile has no page to answer.
    if (!this.isDisposed) void this.panel.webview.postMessage(response);
  }

  private html(): string {
    const webview = this.panel.webview;
    const script = webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot(this.extensionUri), `${this.options.app}.js`));
    return panelPage({
      script: script.toString(),
      cspSource: webview.cspSource,
      language: vscode.env.language,
      ...(this.channel ? { channel: { origin: this.channel.origin, url: this.channel.url } } : {}),
    });
  }
}
