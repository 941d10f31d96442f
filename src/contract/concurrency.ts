import { z } from 'zod';
import { ENVIRONMENTS, environmentSchema, extra } from './common';
import {
  describeIssues,
  isIsoInstant,
  isoToMs,
  OWN_MESSAGE,
  type ParamIssue,
  searchParamsToRecord,
} from './conversations';

/** Concurrent Calls API: `GET /v1/{account_id}/{project_id}/conversations/concurrency`. */

export const CONCURRENCY_INTERVAL_MINUTES = 5;
export const CONCURRENCY_INTERVAL_MS = CONCURRENCY_INTERVAL_MINUTES * 60_000;
/** start_time and end_time may be at most one week apart. */
export const CONCURRENCY_MAX_RANGE_MS = 7 * 24 * 60 * 60_000;

export const CONCURRENCY_SLICES = ['variant', 'language', 'phone_number'] as const;
/** Slices the platform answers; the others are reserved and answer 501. */
export const CONCURRENCY_SLICES_IMPLEMENTED: readonly ConcurrencySlice[] = ['variant'];
export type ConcurrencySlice = (typeof CONCURRENCY_SLICES)[number];

export const CONCURRENCY_PARAM_RULES = {
  start_time: 'an ISO 8601 timestamp, for example 2026-01-05T09:00:00Z (required)',
  end_time: 'an ISO 8601 timestamp, for example 2026-01-05T17:00:00Z (required)',
  client_env: `one of ${ENVIRONMENTS.join(', ')}`,
  variant_id: 'a variant id',
  variant_name: 'a variant name',
  language: 'a language code such as en-US',
  phone_number: 'a phone number such as +14155550123',
  slice_by: `one of ${CONCURRENCY_SLICES.join(', ')}`,
} as const;

type ConcurrencyParam = keyof typeof CONCURRENCY_PARAM_RULES;

const isoInstant = z.string().refine(isIsoInstant);

export const concurrencyQuerySchema = z
  .strictObject({
    start_time: isoInstant,
    end_time: isoInstant,
    client_env: environmentSchema.default('live'),
    variant_id: z.string().min(1).optional(),
    variant_name: z.string().min(1).optional(),
    language: z.string().min(1).optional(),
    phone_number: z.string().min(1).optional(),
    slice_by: z.enum(CONCURRENCY_SLICES).optional(),
  })
  .superRefine((q, ctx) => {
    const issue = (path: ConcurrencyParam, message: string): void => {
      ctx.addIssue({ code: 'custom', path: [path], message, params: OWN_MESSAGE });
    };
    if (q.variant_id !== undefined && q.variant_name !== undefined)
      issue('variant_name', 'variant_id and variant_name cannot be used together: send only one');
    const start = isoToMs(q.start_time);
    const end = isoToMs(q.end_time);
    if (end <= start) issue('end_time', 'end_time must be after start_time');
    else if (end - start > CONCURRENCY_MAX_RANGE_MS)
      issue('end_time', 'start_time and end_time must be at most 1 week apart');
  });

export type ConcurrencyQuery = z.output<typeof concurrencyQuerySchema>;
export type ConcurrencyQueryInput = z.input<typeof concurrencyQuerySchema>;

/** Parses the query string of a concurrency request; issues name the parameter and what it accepts. */
export function parseConcurrencyQuery(
  params: URLSearchParams,
): { ok: true; query: ConcurrencyQuery } | { ok: false; issues: ParamIssue[] } {
  const raw = searchParamsToRecord(params, { known: Object.keys(CONCURRENCY_PARAM_RULES) });
  if (!raw.ok) return raw;
  const parsed = concurrencyQuerySchema.safeParse(raw.record);
  if (parsed.success) return { ok: true, query: parsed.data };
  return { ok: false, issues: describeIssues(parsed.error.issues, CONCURRENCY_PARAM_RULES, params) };
}

/** The 5-minute window a moment falls in (rounded down), and the end of the range (rounded up). */
export function floorToInterval(ms: number): number {
  return Math.floor(ms / CONCURRENCY_INTERVAL_MS) * CONCURRENCY_INTERVAL_MS;
}
export function ceilToInterval(ms: number): number {
  return Math.ceil(ms / CONCURRENCY_INTERVAL_MS) * CONCURRENCY_INTERVAL_MS;
}

export const concurrencyIntervalSchema = z.looseObject({
  /** UTC lower bound of the 5-minute window. */
  time: z.string(),
  max_concurrent_conversations: z.number().int().min(0),
  variant_id: extra(z.string()),
  variant_name: extra(z.string()),
  language: extra(z.string()),
  phone_number: extra(z.string()),
});
export type ConcurrencyInterval = z.output<typeof concurrencyIntervalSchema>;

export const concurrencyReplySchema = z.looseObject({
  account_id: z.string(),
  project_id: z.string(),
  intervals: z.array(concurrencyIntervalSchema),
});
export type ConcurrencyReply = z.output<typeof concurrencyReplySchema>;
