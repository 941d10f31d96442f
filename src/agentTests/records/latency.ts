/**
 * `p95_latency_ms:` of a turn: the answer's latency (as `max_latency_ms:` measures it, from sending the message to
 * the reply) over every run of the case, as a distribution (p50, p95, max) checked against the budget.
 */
import type { TestCase } from '../format';
import type { CaseRun } from '../results';
import type { LatencyDistribution } from './types';

/** The distribution of each turn with a `p95_latency_ms:`, over the runs that answered it. */
export function latencyDistributions(testCase: TestCase, runs: readonly CaseRun[]): LatencyDistribution[] {
  const out: LatencyDistribution[] = [];
  for (const [turnIndex, turn] of testCase.turns.entries()) {
    const budgetMs = turn.p95LatencyMs;
    if (budgetMs === undefined) continue;
    const latencies = runs
      .flatMap((r) => r.turns.filter((t) => t.index === turnIndex).map((t) => t.answer?.latencyMs))
      .filter((l): l is number => l !== undefined)
      .sort((a, b) => a - b);
    if (latencies.length === 0) continue;
    const p95 = percentile(latencies, 0.95);
    out.push({
      turnIndex,
      range: turn.range,
      runs: latencies.length,
      p50: percentile(latencies, 0.5),
      p95,
      max: latencies[latencies.length - 1] ?? 0,
      budgetMs,
      passed: p95 <= budgetMs,
    });
  }
  return out;
}

/** The nearest-rank percentile of sorted values: the smallest value at or above the share `p` of them. */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] ?? 0;
}

/** `turn 2: p95 812 ms over 20 runs (p50 301, max 900 ms), budget 500 ms` */
export function distributionWords(d: LatencyDistribution): string {
  const ms = (n: number) => Math.round(n);
  return `turn ${d.turnIndex + 1} latency over ${d.runs} run${d.runs === 1 ? '' : 's'}: p50 ${ms(d.p50)} ms, p95 ${ms(d.p95)} ms, max ${ms(d.max)} ms (p95 budget ${d.budgetMs} ms)`;
}
