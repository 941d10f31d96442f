export interface UntilOptions {
  /** How long to wait before failing (a guard against a hang, not a timing assertion). */
  timeoutMs?: number;
  /** How long to sleep between two checks. */
  intervalMs?: number;
  /** What to add to the failure, read when it fails (what the screen showed, the last error). */
  detail?: () => string;
}

/**
 * Waits until `check` (sync or async) gives a truthy value and returns that value; fails with `what` (and
 * the detail) after the time limit (`options` may be just that limit, in ms). A check that waits for a count
 * says so: `() => xs.length === 2`.
 */
export async function until<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: UntilOptions | number = {},
): Promise<T> {
  const {
    timeoutMs = 20_000,
    intervalMs = 10,
    detail,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${detail ? `; ${detail()}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * `promise`, or a failure naming `what` when it has not settled within `timeoutMs`: a step of a test that could
 * hang (a command, a document opened) says which step it was instead of leaving mocha's timeout to say nothing.
 */
export async function settled<T>(what: string, promise: Thenable<T>, timeoutMs = 20_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve(promise), late]);
  } finally {
    clearTimeout(timer);
  }
}
