/**
 * The statistics of a comparison of two targets, pure: how sure a pass rate is (Wilson score interval), and whether
 * paired runs differ by more than chance (exact McNemar test: a two-sided binomial test on the discordant pairs).
 * Exact rather than the chi-squared approximation, since a suite's repeats are few (5 or 10 a case).
 */

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a probability between 0 and 1 is needed, got ${p}`);
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ] as const;
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572] as const;
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ] as const;
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416] as const;
  const tail = (q: number) =>
    (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

/**
 * The Wilson score interval of a pass rate of `passed` out of `runs` at `confidence` (0.95 by default): unlike
 * the plain normal interval it stays within 0 to 1 and is honest at 0 or all passed, which small repeats often are.
 */
export function wilsonInterval(passed: number, runs: number, confidence = 0.95): Interval {
  if (runs === 0) return { low: 0, high: 1 };
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const p = passed / runs;
  const z2 = z * z;
  const denominator = 1 + z2 / runs;
  const centre = (p + z2 / (2 * runs)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / runs + z2 / (4 * runs * runs));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** log of n choose k, by summing logs: exact enough for the few hundred pairs of a suite. */
function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}

/**
 * The exact two-sided sign test: the chance, with no real difference (each discordant pair as likely one way as the
 * other), of a split at least as uneven as `plus` against `minus`. 1 when there is nothing to split.
 */
export function signTest(plus: number, minus: number): number {
  const n = plus + minus;
  if (n === 0) return 1;
  const k = Math.min(plus, minus);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

/**
 * The exact McNemar test of paired runs: `b` pairs passed on the base and failed on the candidate, `c` the other
 * way. The pairs that agree say nothing about a difference, so only b and c count (a sign test on them).
 */
export function mcNemarExact(b: number, c: number): number {
  return signTest(b, c);
}

/**
 * The fewest discordant pairs that can reach significance at `alpha` at all (all of them one way): 6 at 0.05,
 * since 5 one way gives p = 2 / 2^5 = 0.0625. Below it, "not enough runs to tell" is the only honest verdict.
 */
export function minimumDiscordant(alpha = 0.05): number {
  let n = 1;
  while (signTest(n, 0) >= alpha) n++;
  return n;
}
