/** Exponential backoff with full jitter, bounded. */
export interface BackoffPolicy {
  /** Attempts after the first one. */
  retries: number;
  baseMs: number;
  maxMs: number;
}

export const defaultBackoff: BackoffPolicy = { retries: 3, baseMs: 250, maxMs: 4_000 };

/** Delay before retry number `attempt` (1-based): random in [0, min(max, base * 2^(attempt-1))]. */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/** Parses a Retry-After header (seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined | null, now: number = Date.now()): number | undefined {
  if (value === undefined || value === null || value.trim() === '') return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Waits, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = function (this: AbortSignal): void {
      clearTimeout(timer);
      reject(this.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
