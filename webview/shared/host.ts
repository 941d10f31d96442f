import { type Guard, isNotification, isResponse, PROTOCOL_VERSION } from '../../src/protocol/envelope';
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
export class Host<C, R extends { type: string }, N> {
  private readonly api = acquireVsCodeApi();
  private readonly pending = new PendingRequests();

  constructor(
    isNotificationOf: Guard<N>,
    private readonly onNotification: (n: N) => void,
  ) {
    const guard = isNotification(isNotificationOf);
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      const data = event.data;
      if (guard(data)) this.onNotification(data.notification);
      else if (isResponse(data)) this.pending.settle(data);
      // Anything else is not from our host: ignored.
    });
  }

  ready(): void {
    this.api.postMessage({ kind: 'ready', protocol: PROTOCOL_VERSION });
  }

  command(command: C): void {
    this.api.postMessage({ kind: 'command', command });
  }

  /** Asks the host; the answer is checked with `isResult`, and a missing answer fails after a timeout. */
  async request<T>(request: R, isResult: Guard<T>, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
    const result = await this.pending.ask(
      request.type,
      (id) => this.api.postMessage({ kind: 'request', id, request }),
      timeoutMs,
    );
    if (!isResult(result)) throw new Error(`The answer to ${request.type} was not understood.`);
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
