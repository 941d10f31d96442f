import { z } from 'zod';
import { anyObjectSchema, ENVIRONMENTS, environmentSchema, extra, extraOr } from './common';

// ---- query-string helpers, shared with the Concurrent Calls API ----

/** A problem with one query parameter, in words a person can act on. */
export interface ParamIssue {
  param: string;
  message: string;
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+\- ]\d{2}:?\d{2})?)?$/i;

/**
 * Canonical form of an ISO 8601 instant: a date alone is midnight UTC, no zone is UTC, and a
 * space where an unencoded `+` was decoded is read as `+`.
 */
export function normalizeIso(value: string): string {
  const m = ISO_INSTANT.exec(value.trim());
  if (!m) return value;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (!m[4]) return `${date}T00:00:00Z`;
  const z = m[5];
  const zone =
    z === undefined || z.toUpperCase() === 'Z' ? 'Z' : `${z[0] === ' ' ? '+' : z[0]}${z.slice(1, 3)}:${z.slice(-2)}`;
  return `${date}T${m[4]}${zone}`;
}

/** True for an ISO 8601 date or date-time that names a real instant. */
export function isIsoInstant(value: string): boolean {
  const m = ISO_INSTANT.exec(value.trim());
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false;
  return Number.isFinite(Date.parse(normalizeIso(value)));
}

/** Milliseconds since the epoch of an ISO 8601 instant accepted by `isIsoInstant`. */
export function isoToMs(value: string): number {
  return Date.parse(normalizeIso(value));
}

interface ParamShape {
  known: readonly string[];
  repeatable?: readonly string[];
  booleans?: readonly string[];
  integers?: readonly string[];
}

/**
 * Turns a query string into the input of a query schema: unknown and repeated parameters are
 * issues, `true`/`false` and integers are converted, anything else is left for the schema to reject.
 */
export function searchParamsToRecord(
  params: URLSearchParams,
  shape: ParamShape,
): { ok: true; record: Record<string, unknown> } | { ok: false; issues: ParamIssue[] } {
  const record: Record<string, unknown> = {};
  const issues: ParamIssue[] = [];
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    const [v = ''] = values;
    if (!shape.known.includes(key)) {
      issues.push({ param: key, message: `unknown parameter ${key}; accepted parameters: ${shape.known.join(', ')}` });
    } else if (shape.repeatable?.includes(key)) {
      record[key] = values;
    } else if (values.length > 1) {
      issues.push({ param: key, message: `${key} may be given only once` });
    } else {
      if (shape.booleans?.includes(key)) record[key] = v === 'true' ? true : v === 'false' ? false : v;
      else if (shape.integers?.includes(key)) record[key] = /^[+-]?\d+$/.test(v) ? Number(v) : v;
      else record[key] = v;
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, record };
}

/** Marks a custom issue whose message is already written for people. */
export const OWN_MESSAGE = { ownMessage: true } as const;

/** One issue per parameter: custom rule messages as written, others as "must be <rule> (got ...)". */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  rules: Readonly<Record<string, string>>,
  params: URLSearchParams,
): ParamIssue[] {
  const out: ParamIssue[] = [];
  for (const issue of issues) {
    const param = String(issue.path[0] ?? '');
    if (out.some((o) => o.param === param)) continue;
    const message =
      issue.code === 'custom' && issue.params?.ownMessage === true
        ? issue.message
        : `${param} must be ${rules[param] ?? 'valid'} (got ${JSON.stringify(params.getAll(param).join(','))})`;
    out.push({ param, message });
  }
  return out;
}

/** Conversations API (v1, v2, v3): `GET /{version}/{account_id}/{project_id}/conversations`. */

export const CONVERSATIONS_API_VERSIONS = ['v1', 'v2', 'v3'] as const;
export const conversationsApiVersionSchema = z.enum(CONVERSATIONS_API_VERSIONS);
export type ConversationsApiVersion = z.infer<typeof conversationsApiVersionSchema>;

export const CONVERSATIONS_LIMIT_MIN = 1;
export const CONVERSATIONS_LIMIT_MAX = 5000;
export const CONVERSATIONS_LIMIT_DEFAULT = 5;
export const CONVERSATIONS_OFFSET_MIN = 0;

export const QUERY_TYPES = ['transcript', 'semantic'] as const;
export const SAMPLE_MODES = ['random'] as const;
export const TURN_TYPES = ['user', 'agent'] as const;
export type QueryType = (typeof QUERY_TYPES)[number];
export type TurnType = (typeof TURN_TYPES)[number];

/** Built-in response metrics a project can enable. */
export const RESPONSE_METRICS = [
  'CALL_DURATION',
  'CALL_TURN',
  'CALL_IN_PROGRESS',
  'CALL_COMPLETED',
  'HANDOFF_TO',
  'HANDOFF_REASON',
] as const;

/** The only record fields v1 returns when the project whitelists fields. */
export const V1_WHITELIST_FIELDS = ['id', 'started_at', 'account_id', 'project_id'] as const;

/** Every query parameter, and in words what each accepts (validation messages quote these). */
export const CONVERSATIONS_PARAM_RULES = {
  start_time: 'an ISO 8601 timestamp, for example 2026-01-05T09:00:00Z',
  end_time: 'an ISO 8601 timestamp, for example 2026-01-05T17:00:00Z',
  client_env: `one of ${ENVIRONMENTS.join(', ')}`,
  channel: 'a channel label such as VOICE-SIP, WEBCHAT or CHAT (repeat the parameter for several)',
  variant_id: 'a variant id',
  variant_name: 'a variant name',
  in_progress: 'true or false',
  limit: `an integer from ${CONVERSATIONS_LIMIT_MIN} to ${CONVERSATIONS_LIMIT_MAX}`,
  offset: `an integer >= ${CONVERSATIONS_OFFSET_MIN}`,
  cursor: 'the cursor of the previous page, unchanged',
  query_type: `one of ${QUERY_TYPES.join(', ')}`,
  sample: `one of ${SAMPLE_MODES.join(', ')}`,
  query: 'non-empty search text',
  turn_type: `one of ${TURN_TYPES.join(', ')}`,
  include_latency: 'true or false',
} as const;

export type ConversationsParam = keyof typeof CONVERSATIONS_PARAM_RULES;
const PARAMS = Object.keys(CONVERSATIONS_PARAM_RULES) as ConversationsParam[];

const isoInstant = z.string().refine(isIsoInstant);

/** The query in typed form, with defaults applied. The client builds it; the local platform parses it. */
export const conversationsQuerySchema = z
  .strictObject({
    start_time: isoInstant.optional(),
    end_time: isoInstant.optional(),
    client_env: environmentSchema.default('live'),
    channel: z.array(z.string().min(1)).default([]),
    variant_id: z.string().min(1).optional(),
    variant_name: z.string().min(1).optional(),
    in_progress: z.boolean().optional(),
    limit: z
      .number()
      .int()
      .min(CONVERSATIONS_LIMIT_MIN)
      .max(CONVERSATIONS_LIMIT_MAX)
      .default(CONVERSATIONS_LIMIT_DEFAULT),
    offset: z.number().int().min(CONVERSATIONS_OFFSET_MIN).default(0),
    cursor: z.string().min(1).optional(),
    query_type: z.enum(QUERY_TYPES).optional(),
    sample: z.enum(SAMPLE_MODES).optional(),
    query: z.string().trim().min(1).optional(),
    turn_type: z.enum(TURN_TYPES).optional(),
    include_latency: z.boolean().default(false),
  })
  .superRefine((q, ctx) => {
    const issue = (path: ConversationsParam, message: string): void => {
      ctx.addIssue({ code: 'custom', path: [path], message, params: OWN_MESSAGE });
    };
    if (q.variant_id !== undefined && q.variant_name !== undefined)
      issue('variant_name', 'variant_id and variant_name cannot be used together: send only one');
    if (q.query_type !== undefined && q.sample !== undefined)
      issue('sample', 'query_type and sample cannot be used together: one retrieval mode per request');
    if (q.query_type !== undefined && q.query === undefined)
      issue('query', `query is required when query_type is ${q.query_type}`);
    if (q.query !== undefined && q.query_type === undefined)
      issue('query_type', 'query needs query_type (transcript or semantic)');
    if (q.turn_type !== undefined && q.query_type !== 'transcript')
      issue('turn_type', 'turn_type applies to query_type=transcript only');
    if (q.query_type !== undefined || q.sample !== undefined) {
      const mode = q.query_type !== undefined ? `query_type=${q.query_type}` : `sample=${q.sample ?? ''}`;
      if (q.start_time === undefined) issue('start_time', `start_time is required with ${mode}`);
      if (q.end_time === undefined) issue('end_time', `end_time is required with ${mode}`);
    }
    if (q.start_time !== undefined && q.end_time !== undefined && isoToMs(q.end_time) < isoToMs(q.start_time)) {
      issue('end_time', 'end_time must not be before start_time');
    }
  });

export type ConversationsQuery = z.output<typeof conversationsQuerySchema>;
export type ConversationsQueryInput = z.input<typeof conversationsQuerySchema>;

/**
 * Parses the query string of a conversations request. Issues name the parameter and what it
 * accepts. `cursor` is v3 only.
 */
export function parseConversationsQuery(
  params: URLSearchParams,
  version: ConversationsApiVersion,
): { ok: true; query: ConversationsQuery } | { ok: false; issues: ParamIssue[] } {
  const raw = searchParamsToRecord(params, {
    known: PARAMS,
    repeatable: ['channel'],
    booleans: ['in_progress', 'include_latency'],
    integers: ['limit', 'offset'],
  });
  if (!raw.ok) return raw;
  if (version !== 'v3' && raw.record.cursor !== undefined) {
    return {
      ok: false,
      issues: [{ param: 'cursor', message: `cursor is available on v3 only; ${version} pages with offset` }],
    };
  }
  const parsed = conversationsQuerySchema.safeParse(raw.record);
  if (parsed.success) return { ok: true, query: parsed.data };
  return { ok: false, issues: describeIssues(parsed.error.issues, CONVERSATIONS_PARAM_RULES, params) };
}

/** The query string for a typed query (what the client sends). Defaults are left out. */
export function conversationsQueryToSearchParams(input: ConversationsQueryInput): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) out.append(k, String(item));
    else out.set(k, String(v));
  }
  return out;
}

// ---- responses ----

// Records and turns are read tolerantly: every field is in the spec's tables, but a page is never
// refused for one record that lacks a field, has null where a value is not known yet (the duration of
// an in-progress conversation) or leaves out a field only one version lists (user_input_dtmf is in
// the v1 reference). Only a record's id is required.

/** v3 and v2 give "" for empty text; a null or absent value is read as "" as well. */
const text = z
  .string()
  .nullable()
  .optional()
  .catch(null)
  .transform((v) => v ?? '');
/** v1 keeps null for empty text; absent reads as null. */
const nullableText = extraOr(z.string().nullable(), null);
const flag = extraOr(z.boolean(), false);
const count = extraOr(z.number(), 0);
/** A number that is null while not known (durations of a conversation in progress). */
const measure = extraOr(z.number().nullable(), null);
const anyRecord = extraOr(anyObjectSchema, {});

/** Entities are described both as a mapping and as a list of objects; both are read. */
export const entitiesSchema = z.union([anyObjectSchema, z.array(z.looseObject({}))]);

export const conversationTurnSchema = z.looseObject({
  user_input: text,
  user_input_dtmf: text,
  user_input_datetime: text,
  barge_in: flag,
  agent_response: text,
  agent_response_datetime: text,
  /** Milliseconds; only with include_latency=true (v3). */
  latency: extra(z.number()),
  translated_user_input: extra(z.string()),
  english_agent_response: extra(z.string()),
  intents: extraOr(z.array(z.string()), []),
  entities: extraOr(entitiesSchema, {}),
  is_ood: flag,
  is_silence: flag,
});
export type ConversationTurn = z.output<typeof conversationTurnSchema>;

/**
 * Metrics: text or lists of text. Each entry is read on its own: a value of another kind (a number, null) is kept
 * as its JSON text, so one unexpected value does not hide the others.
 */
export const metricsSchema = anyObjectSchema.transform((m): Record<string, string | string[]> =>
  Object.fromEntries(
    Object.entries(m).map(([k, v]) => [
      k,
      typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))
        ? (v as string | string[])
        : (JSON.stringify(v) ?? String(v)),
    ]),
  ),
);
export type ConversationMetrics = z.output<typeof metricsSchema>;

/** A conversation record of v3 (and v2, which has v3's schema). */
export const conversationRecordSchema = z.looseObject({
  id: z.string(),
  account_id: text,
  project_id: text,
  variant_id: text,
  variant_name: text,
  environment: text,
  started_at: text,
  channel: text,
  from_number: text,
  to_number: text,
  in_progress: flag,
  num_turns: count,
  total_duration: measure,
  polyai_duration: measure,
  handoff: flag,
  handoff_reason: text,
  handoff_destination: text,
  num_silences: count,
  num_ood: count,
  metrics: extraOr(metricsSchema, {}),
  state: anyRecord,
  turns: extraOr(z.array(conversationTurnSchema), []),
});
export type ConversationRecord = z.output<typeof conversationRecordSchema>;

export const conversationTurnV1Schema = z.looseObject({
  user_input: nullableText,
  user_input_dtmf: nullableText,
  user_input_datetime: nullableText,
  barge_in: flag,
  agent_response: nullableText,
  agent_response_datetime: nullableText,
  intents: extraOr(z.array(z.string()), []),
  entities: extraOr(entitiesSchema, {}),
  is_ood: flag,
  is_silence: flag,
});
export type ConversationTurnV1 = z.output<typeof conversationTurnV1Schema>;

/** A v1 record: with field whitelisting only id, started_at, account_id and project_id are present. */
export const conversationRecordV1Schema = z.looseObject({
  id: z.string(),
  started_at: extraOr(z.string(), ''),
  account_id: extraOr(z.string(), ''),
  project_id: extraOr(z.string(), ''),
  variant_id: extra(z.string().nullable()),
  variant_name: extra(z.string().nullable()),
  environment: extra(z.string()),
  channel: extra(z.string().nullable()),
  from_number: extra(z.string().nullable()),
  to_number: extra(z.string().nullable()),
  in_progress: extra(z.boolean()),
  num_turns: extra(z.number()),
  total_duration: extra(z.number().nullable()),
  polyai_duration: extra(z.number().nullable()),
  handoff: extra(z.boolean()),
  handoff_reason: extra(z.string().nullable()),
  handoff_destination: extra(z.string().nullable()),
  num_silences: extra(z.number()),
  num_ood: extra(z.number()),
  metrics: extra(metricsSchema),
  state: extra(anyObjectSchema),
  turns: extra(z.array(conversationTurnV1Schema)),
});
export type ConversationRecordV1 = z.output<typeof conversationRecordV1Schema>;

const descriptionsSchema = extraOr(z.record(z.string(), z.string()), {});
const nextOffset = extra(z.number().int());

export const conversationsPageV3Schema = z.looseObject({
  conversations: z.array(conversationRecordSchema),
  descriptions: descriptionsSchema,
  next_offset: nextOffset,
  /** Null at the end of the result set; a page without the key is the end too. */
  cursor: extraOr(z.string().nullable(), null),
});
export type ConversationsPageV3 = z.output<typeof conversationsPageV3Schema>;

export const conversationsPageV2Schema = z.looseObject({
  conversations: z.array(conversationRecordSchema),
  descriptions: descriptionsSchema,
  next_offset: nextOffset,
});
export type ConversationsPageV2 = z.output<typeof conversationsPageV2Schema>;

export const conversationsPageV1Schema = z.looseObject({
  conversations: z.array(conversationRecordV1Schema),
  descriptions: descriptionsSchema,
  next_offset: nextOffset,
});
export type ConversationsPageV1 = z.output<typeof conversationsPageV1Schema>;

/** What each response key means (the `descriptions` object). Turn keys are given as `turns.<field>`. */
export const CONVERSATION_FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
  id: 'Unique conversation id',
  account_id: 'Account the conversation belongs to',
  project_id: 'Project the conversation belongs to',
  variant_id: 'Id of the agent variant that handled the conversation',
  variant_name: 'Name of the agent variant',
  environment: 'Environment: live, sandbox or pre-release',
  started_at: 'When the conversation started (ISO 8601)',
  channel: 'Analytics channel label, for example VOICE-SIP, WEBCHAT, CHAT',
  from_number: 'Caller number',
  to_number: 'Agent number',
  in_progress: 'True while the conversation is active',
  num_turns: 'Number of turns, also when turns are hidden',
  total_duration: 'Total duration in seconds',
  polyai_duration: 'Duration handled by the agent platform in seconds',
  handoff: 'Whether the conversation was handed off',
  handoff_reason: 'Why the conversation was handed off',
  handoff_destination: 'Where the conversation was handed off to',
  num_silences: 'Number of silence turns',
  num_ood: 'Number of out-of-domain turns',
  metrics: 'Enabled response metrics: strings or lists of timestamps',
  state: 'Conversation variables set during the conversation',
  turns: 'Ordered turns; empty when transcript visibility is off',
  'turns.user_input': 'Transcribed user text',
  'turns.user_input_dtmf': 'Keypad input',
  'turns.user_input_datetime': 'When the user spoke (ISO 8601)',
  'turns.barge_in': 'The user interrupted the agent',
  'turns.agent_response': 'What the agent said',
  'turns.agent_response_datetime': 'When the agent answered (ISO 8601)',
  'turns.latency': 'Milliseconds from the end of user input to the agent response',
  'turns.translated_user_input': 'User text translated to English',
  'turns.english_agent_response': 'Agent response in English',
  'turns.intents': 'Intents recognised in the turn',
  'turns.entities': 'Entities recognised in the turn, name to value',
  'turns.is_ood': 'The user input was out of domain',
  'turns.is_silence': 'The user said nothing',
};
