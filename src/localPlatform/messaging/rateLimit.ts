/**
 * Fixed-window counting per key on the platform clock, so tests move the clock rather than
 * wait. The limit is read on each hit because the admin API can change it at run time.
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: () => number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request; when over the limit, says how many seconds until the window reopens. */
  hit(key: string): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const now = this.now();
    const start = now - (now % this.windowMs);
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      if (this.windows.size > 10_000) this.windows.clear();
      w = { start, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    if (w.count <= this.limit()) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((start + this.windowMs - now) / 1000)) };
  }

  clear(): void {
    this.windows.clear();
  }
}
