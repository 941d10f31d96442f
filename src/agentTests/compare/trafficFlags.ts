// The traffic filters as flags, defined once: `compare --replay-traffic` reads them from its command line, and
// parseTrafficFlags reads the same words from one line of text (`--since 7d --channel WEBCHAT --handoff --sample 50`).
import type { ParseArgsConfig } from 'node:util';
import { parseCommandLine, UsageError, wholeFlag } from '../../core/commandLine';
import { isIsoInstant, normalizeIso } from '../../contract/conversations';
import { type TrafficFilters, trafficFiltersProblem } from './trafficSelection';

/** The flags that pick the conversations, as node's parseArgs reads them. */
export const TRAFFIC_FLAG_OPTIONS = {
  since: { type: 'string' },
  until: { type: 'string' },
  channel: { type: 'string', multiple: true, default: [] as string[] },
  variant: { type: 'string' },
  'variant-id': { type: 'string' },
  handoff: { type: 'boolean', default: false },
  'no-handoff': { type: 'boolean', default: false },
  ood: { type: 'boolean', default: false },
  'no-ood': { type: 'boolean', default: false },
  search: { type: 'string' },
  sample: { type: 'string' },
  limit: { type: 'string' },
} satisfies NonNullable<ParseArgsConfig['options']>;

/** What parseArgs gives for TRAFFIC_FLAG_OPTIONS. */
export interface TrafficFlagValues {
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly channel: readonly string[];
  readonly variant?: string | undefined;
  readonly 'variant-id'?: string | undefined;
  readonly handoff: boolean;
  readonly 'no-handoff': boolean;
  readonly ood: boolean;
  readonly 'no-ood': boolean;
  readonly search?: string | undefined;
  readonly sample?: string | undefined;
  readonly limit?: string | undefined;
}

/** A time flag: ISO 8601 as written, or `<n>m|h|d` before `now`. */
export function timeFlag(name: string, text: string | undefined, now: Date): string | undefined {
  if (text === undefined) return undefined;
  const ago = /^(\d+)\s*(m|h|d)$/i.exec(text.trim());
  if (ago) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[(ago[2] ?? 'm').toLowerCase() as 'm' | 'h' | 'd'];
    return new Date(now.getTime() - Number(ago[1]) * unit).toISOString();
  }
  if (!isIsoInstant(text))
    throw new UsageError(
      `--${name} must be an ISO 8601 date or time (2026-01-05, 2026-01-05T09:00Z) or a time ago (30m, 24h, 7d), got "${text}"`,
    );
  return normalizeIso(text);
}

const optional = <K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> =>
  value === undefined ? {} : ({ [key]: value } as Record<K, string>);

/** The filters of the flags (the source environment aside); throws a UsageError that says what to fix. */
export function trafficFiltersOf(values: TrafficFlagValues, now: Date): TrafficFilters {
  if (values.handoff && values['no-handoff']) throw new UsageError('Give --handoff or --no-handoff, not both.');
  if (values.ood && values['no-ood']) throw new UsageError('Give --ood or --no-ood, not both.');
  if (values.sample !== undefined && values.search !== undefined)
    throw new UsageError('--sample and --search cannot be used together (one retrieval mode per request).');
  const sample = wholeFlag('sample', values.sample);
  const limit = wholeFlag('limit', values.limit);
  const filters: TrafficFilters = {
    ...optional('since', timeFlag('since', values.since, now)),
    ...optional('until', timeFlag('until', values.until, now)),
    ...(values.channel.length > 0 ? { channels: values.channel } : {}),
    ...optional('variantName', values.variant),
    ...optional('variantId', values['variant-id']),
    ...(values.handoff ? { handoff: true } : values['no-handoff'] ? { handoff: false } : {}),
    ...(values.ood ? { ood: true } : values['no-ood'] ? { ood: false } : {}),
    ...optional('search', values.search),
    ...(sample !== undefined ? { sample: true } : {}),
    ...(sample !== undefined || limit !== undefined ? { count: Math.min(sample ?? Infinity, limit ?? Infinity) } : {}),
  };
  const problem = trafficFiltersProblem(filters);
  if (problem) throw new UsageError(problem);
  return filters;
}

/** Splits a line as a shell would for these flags: words, and "quoted words" kept together. */
export function flagWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

/** A line of traffic flags, as a person types it in one box; throws a UsageError that says what to fix. */
export function parseTrafficFlags(text: string, now: Date): TrafficFilters {
  const { values, positionals } = parseCommandLine({
    args: flagWords(text),
    allowPositionals: true,
    options: TRAFFIC_FLAG_OPTIONS,
  });
  if (positionals.length > 0)
    throw new UsageError(
      `"${positionals.join(' ')}" is not a filter: write each as a flag, such as --search "${positionals.join(' ')}"`,
    );
  return trafficFiltersOf(values, now);
}
