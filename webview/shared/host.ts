import {
  type Guard,
  isNotification,
  isResponse,
  PROTOCOL_VERSION,
  type RequestMap,
  type RequestOf,
  type ResultGuards,
  type ResultOf,
} from '../../src/protocol/envelope';
import { PendingRequests } from '../../src/protocol/requests';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The webview's side of the protocol: posts commands and requests to the extension host, checks
 * every message that arrives with the panel's guards before using it, and says `ready` once
 * listening, so the host sends the whole state then.
 */
export class Host<C, M extends RequestMap, N> {
  private readonly api = acquireVsCodeApi();
  private readonly pending = new PendingRequests();
  /** Notifications come through the page's own socket (see src/ui/panels/directChannel.ts) while it is open. */
  private viaSocket = false;
  /** The page has said `ready`: a socket that closes makes it say so again. */
  private listening = false;
  /** When the newest message arrived (performance.now()): benchmarks tell how long the page took from there. */
  private arrived = 0;
  private socket: WebSocket | undefined;

  constructor(
    isNotificationOf: Guard<N>,
    private readonly onNotification: (n: N) => void,
    /** The guard of each request's answer (the panel's protocol module has them). */
    private readonly results: ResultGuards<M>,
  ) {
    const guard = isNotification(isNotificationOf);
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      this.arrived = performance.now();
      const data = event.data;
      // Once notifications come through the page's socket, posted ones are older: the socket's first says everything.
      if (guard(data)) {
        if (!this.viaSocket) this.onNotification(data.notification);
      } else if (isResponse(data)) this.pending.settle(data);
      // Anything else is not from our host: ignored.
    });
    const direct = document.querySelector<HTMLMetaElement>('meta[name="agent-workbench-direct"]')?.content;
    if (direct) this.connect(direct, guard);
  }

  private connect(url: string, guard: Guard<{ notification: N }>): void {
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch {
      return; // Posted messages carry everything.
    }
    this.socket = socket;
    socket.addEventListener('message', (event: MessageEvent<unknown>) => {
      this.arrived = performance.now();
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (!guard(data)) return;
      this.viaSocket = true;
      this.onNotification(data.notification);
    });
    socket.addEventListener('close', () => {
      if (!this.viaSocket) return;
      // Back to posted messages, from the whole state again (the host may not have seen the socket end).
      this.viaSocket = false;
      if (this.listening) this.ready(true);
    });
  }

  /** When the newest message reached the page, on the performance.now() clock. */
  get arrivedAt(): number {
    return this.arrived;
  }

  ready(socketClosed = false): void {
    this.listening = true;
    this.api.postMessage({ kind: 'ready', protocol: PROTOCOL_VERSION, ...(socketClosed ? { socketClosed } : {}) });
  }

  command(command: C): void {
    this.api.postMessage({ kind: 'command', command });
  }

  /**
   * A report sent many a second (a benchmark's paint times): through the page's socket while it is open, so it
   * does not load the workbench's thread this page shares; its order with other messages does not matter.
   */
  report(command: C): void {
    if (this.viaSocket && this.socket?.readyState === WebSocket.OPEN)
      this.socket.send(JSON.stringify({ kind: 'command', command }));
    else this.command(command);
  }

  /**
   * Asks the host; resolves with the answer of the request's name, checked with that request's guard. A missing
   * answer fails after a timeout.
   */
  async request<K extends keyof M & string>(
    request: RequestOf<M, K>,
    timeoutMs = REQUEST_TIMEOUT_MS,
  ): Promise<ResultOf<M, K>> {
    const type: K = request.type;
    const result = await this.pending.ask(
      type,
      (id) => this.api.postMessage({ kind: 'request', id, request }),
      timeoutMs,
    );
    if (!this.results[type](result)) throw new Error(`The answer to ${type} was not understood.`);
    return result;
  }

  /** What was kept for this panel when it was hidden or the window reloaded (check before use). */
  get state(): unknown {
    return this.api.getState();
  }

  set state(value: unknown) {
    this.api.setState(value);
  }
}

/**
 * Sends every failure of the page to the host as text (the host writes it to the extension's log):
 * uncaught errors and rejections from now on, and whatever the returned function is given.
 */
export function reportProblems(send: (message: string) => void): (what: unknown) => void {
  const report = (what: unknown) =>
    send(String(what instanceof Error ? `${what.message} ${what.stack ?? ''}` : what).slice(0, 4000));
  window.addEventListener('error', (e) => report(e.error ?? e.message));
  window.addEventListener('unhandledrejection', (e) => report(e.reason));
  return report;
}
