import type { ConcurrencyInterval } from '../../contract/concurrency';
import { pageOf } from '../output';
import { defineTool } from '../tool';
import { ENVIRONMENT_PROPERTY, lines, limitProperty, OFFSET_PROPERTY } from './common';

const WEEK_MS = 7 * 24 * 3_600_000;

interface ConcurrencyInput {
  environment?: string;
  from?: string;
  to?: string;
  lastHours?: number;
  variantId?: string;
  variantName?: string;
  byVariant?: boolean;
  busyOnly?: boolean;
  offset?: number;
  limit?: number;
}

function peakOf(intervals: readonly ConcurrencyInterval[]): ConcurrencyInterval | undefined {
  return intervals.reduce<ConcurrencyInterval | undefined>(
    (best, i) => (best === undefined || i.max_concurrent_conversations > best.max_concurrent_conversations ? i : best),
    undefined,
  );
}

export const concurrencyTool = defineTool<ConcurrencyInput>({
  name: 'agentWorkbench_concurrency',
  title: 'Concurrent conversations',
  description:
    'Reads the series of concurrent conversations (Concurrent Calls API): for each 5-minute window, the most conversations open at once, over at most one week, optionally per variant. Returns the peak, the average, and the windows. Use it to see load, busy hours, or the effect of a release.',
  kind: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      environment: { ...ENVIRONMENT_PROPERTY, description: 'The environment (default live).' },
      from: { type: 'string', minLength: 1, description: 'Start (ISO 8601); rounded down to 5 minutes.' },
      to: { type: 'string', minLength: 1, description: 'End (ISO 8601), at most one week after from (default now).' },
      lastHours: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 168,
        description: 'Instead of from and to: the last N hours (default 24).',
      },
      variantId: { type: 'string', minLength: 1, description: 'Only this variant (not with variantName).' },
      variantName: { type: 'string', minLength: 1, description: 'Only this variant (not with variantId).' },
      byVariant: { type: 'boolean', description: 'One series per variant.' },
      busyOnly: {
        type: 'boolean',
        description: 'List only the windows with at least one conversation (default true).',
      },
      offset: OFFSET_PROPERTY,
      limit: limitProperty(300, 100),
    },
    additionalProperties: false,
  },
  async invoke(input, context, signal) {
    if (input.lastHours !== undefined && (input.from !== undefined || input.to !== undefined))
      throw new Error('Give either lastHours or from and to, not both.');
    const now = Date.now();
    const to = input.to ?? new Date(now).toISOString();
    const from = input.from ?? new Date(Date.parse(to) - (input.lastHours ?? 24) * 3_600_000).toISOString();
    if (Date.parse(to) - Date.parse(from) > WEEK_MS)
      throw new Error('from and to may be at most one week apart (the Concurrent Calls API refuses more).');
    const env = input.environment ?? 'live';
    const reply = await context.concurrency(
      {
        start_time: from,
        end_time: to,
        client_env: env as 'sandbox' | 'pre-release' | 'live',
        ...(input.variantId !== undefined ? { variant_id: input.variantId } : {}),
        ...(input.variantName !== undefined ? { variant_name: input.variantName } : {}),
        ...(input.byVariant ? { slice_by: 'variant' as const } : {}),
      },
      signal,
    );
    const all = reply.intervals;
    const listed = (input.busyOnly ?? true) ? all.filter((i) => i.max_concurrent_conversations > 0) : all;
    const peak = peakOf(all);
    const mean = all.length ? all.reduce((s, i) => s + i.max_concurrent_conversations, 0) / all.length : 0;
    const { shown, note } = pageOf(listed, input.offset ?? 0, input.limit ?? 100, 'windows');
    return lines(
      `Concurrent conversations in ${env} from ${from} to ${to}, ${all.length} windows of 5 minutes:`,
      peak
        ? `  peak ${peak.max_concurrent_conversations} at ${peak.time}${peak.variant_name ? ` (${peak.variant_name})` : ''}; average of the windows' maxima ${Math.round(mean * 100) / 100}`
        : '  no windows in the answer',
      listed.length < all.length && `  ${all.length - listed.length} windows without conversations are not listed.`,
      shown.map(
        (i) =>
          `  ${i.time} ${i.max_concurrent_conversations}${i.variant_name || i.variant_id ? ` (${i.variant_name ?? i.variant_id})` : ''}`,
      ),
      note,
    );
  },
});

export const currentAlertsTool = defineTool<Record<string, never>>({
  name: 'agentWorkbench_currentAlerts',
  title: 'Current alerts',
  description:
    "Lists the alert rules firing now (Alerts API, GET /v1/alerts): each rule's name and id, metric (turn latency p50/p95 in milliseconds, API errors, function errors, call crashes, call volume as counts in the window), threshold, current value and since when. Use it when asked whether the agent is healthy.",
  kind: 'read',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async invoke(_input, context, signal) {
    const alerts = await context.currentAlerts(signal);
    const note =
      'The spec shows GET /v1/alerts but not the shape of its answer: this reads it as docs/api-assumptions.md says ({alerts: [...]} or a list); a field the platform does not send shows as unknown.';
    if (alerts.length === 0) return lines('No alert rule is firing now.', note);
    return lines(
      `${alerts.length} alert rule(s) firing now:`,
      alerts.map(
        (a) =>
          `  ${a.name || '(unnamed)'} (${a.rule_id}): ${a.metric || 'metric unknown'} ${a.operator} ${a.threshold_value ?? '?'} over ${a.window_duration || '?'}, now ${a.current_value ?? 'unknown'}${a.triggered_at ? `, since ${a.triggered_at}` : ''}${a.project_id ? `, project ${a.project_id}` : ', account-wide'}`,
      ),
      note,
    );
  },
});
