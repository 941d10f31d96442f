import { ALERT_WINDOW_MS, type AlertMetric, type AlertOperator, type AlertWindowDuration } from '../../contract/alerts';
import type { StoredConversation } from '../state';

/** What a rule looks at: one project, or every project of the account (project null). */
export interface MetricScope {
  accountId: string;
  projectId: string | null;
}

/**
 * The value of a metric over the window that ends at `nowMs`, or null when the window has
 * no data. A conversation belongs to the window where it started (errors and crashes carry
 * no time of their own); a turn belongs to the window where the agent answered.
 */
export function measureMetric(
  conversations: readonly StoredConversation[],
  scope: MetricScope,
  metric: AlertMetric,
  window: AlertWindowDuration,
  nowMs: number,
): number | null {
  const fromMs = nowMs - ALERT_WINDOW_MS[window];
  const inScope = conversations.filter(
    (c) => c.account_id === scope.accountId && (scope.projectId === null || c.project_id === scope.projectId),
  );
  if (metric === 'turn_latency_p50' || metric === 'turn_latency_p95') {
    const latencies = turnLatencies(inScope, fromMs, nowMs);
    if (latencies.length === 0) return null;
    return percentile(latencies, metric === 'turn_latency_p50' ? 0.5 : 0.95);
  }
  const started = inScope.filter((c) => within(Date.parse(c.started_at), fromMs, nowMs));
  if (started.length === 0) return null;
  switch (metric) {
    case 'call_volume':
      return started.length;
    case 'api_errors':
      return started.reduce((n, c) => n + c.api_errors, 0);
    case 'function_errors':
      return started.reduce((n, c) => n + c.function_errors, 0);
    case 'call_crashes':
      return started.filter((c) => c.crashed).length;
  }
}

/** The window is (from, now]: a conversation exactly `window` old has left it. */
function within(t: number, fromMs: number, nowMs: number): boolean {
  return t > fromMs && t <= nowMs;
}

/**
 * Latencies (ms) of the turns where the agent answered the user inside the window. A turn
 * without user input (the greeting) has no latency to speak of and is left out.
 */
function turnLatencies(conversations: readonly StoredConversation[], fromMs: number, nowMs: number): number[] {
  const out: number[] = [];
  for (const c of conversations) {
    if (Date.parse(c.started_at) > nowMs) continue;
    if (c.ended_at !== null && Date.parse(c.ended_at) <= fromMs) continue;
    for (const t of c.turns) {
      if (t.agent_response === null || t.agent_response_datetime === null || t.user_input === null) continue;
      if (!Number.isFinite(t.latency)) continue;
      if (within(Date.parse(t.agent_response_datetime), fromMs, nowMs)) out.push(t.latency);
    }
  }
  return out;
}

/** Nearest-rank percentile, rounded to whole milliseconds. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return Math.round(sorted[rank - 1]!);
}

/** True when `value operator threshold` holds, that is the rule is breached. */
export function breaches(value: number, operator: AlertOperator, threshold: number): boolean {
  switch (operator) {
    case '>':
      return value > threshold;
    case '<':
      return value < threshold;
    case '>=':
      return value >= threshold;
    case '<=':
      return value <= threshold;
  }
}
