import type { ResponseMessage } from './envelope';

/** A request that was not answered in time: the other side is gone, busy or was reloaded. */
export class RequestTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
  ) {
    super(`${what} was not answered within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The asking side of requests: numbers each one, settles it when its response arrives, and fails it
 * after its timeout, so a lost answer never leaves a caller waiting. The answer's shape is checked by
 * the caller's guard.
 */
export class PendingRequests {
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  /** Sends with a fresh id through `post` and waits for the matching response. */
  ask(what: string, post: (id: number) => void, timeoutMs: number): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RequestTimeoutError(what, timeoutMs));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      try {
        post(id);
      } catch (err) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  /** Settles the request a response answers; false when none waits for it (late or unknown). */
  settle(response: ResponseMessage): boolean {
    const p = this.pending.get(response.id);
    if (!p) return false;
    this.pending.delete(response.id);
    clearTimeout(p.timer);
    if (response.ok) p.resolve(response.result);
    else p.reject(new Error(response.error));
    return true;
  }

  /** Fails every waiting request (the panel closed). */
  cancelAll(reason: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error(reason));
      this.pending.delete(id);
    }
  }
}
