/**
 * A clock of milliseconds since the epoch, in sub-millisecond steps, that two processes on one machine read
 * alike: performance.now() anchored where the system clock (Date.now()) turns over to its next millisecond.
 * `performance.timeOrigin + performance.now()` is not that: each process fixes its time origin when it starts,
 * and the system clock may have been adjusted since, so two of them can disagree by many milliseconds.
 * The anchoring spins for up to a few milliseconds; make the clock once, before timing anything.
 */
export function epochClock(samples = 3): () => number {
  let offset = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < samples; i++) {
    const start = Date.now();
    let now = start;
    while (now === start) now = Date.now();
    // Read just after the system clock turned to `now`: the true offset is at most a few microseconds larger.
    offset = Math.max(offset, now - performance.now());
  }
  return () => performance.now() + offset;
}
