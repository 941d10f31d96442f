import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { extra, extraOr, openEnum } from './common';

/**
 * Alerts API and webhook endpoints ({build_base_url}, header x-api-key): rules on agent
 * metrics, the current alerts, webhook endpoints and the signed notifications sent to them.
 * Choices where the spec is silent are rows of docs/api-assumptions.md (Alerts).
 */

export const ALERT_RULES_PATH = '/v1/alert-rules';
export const ALERTS_PATH = '/v1/alerts';
export const WEBHOOK_ENDPOINTS_PATH = '/v1/webhook-endpoints';
export const ALERTS_AUTH_HEADER = 'x-api-key';

export const ALERT_RULE_ID_PATTERN = /^ar_[A-Za-z0-9]+$/;
/** Our choice, in the style of rule ids. */
export const WEBHOOK_ENDPOINT_ID_PATTERN = /^we_[A-Za-z0-9]+$/;

export const ALERT_METRICS = [
  'turn_latency_p50',
  'turn_latency_p95',
  'api_errors',
  'function_errors',
  'call_crashes',
  'call_volume',
] as const;
/** turn_latency_p50 and turn_latency_p95 are in milliseconds; the others are absolute counts within the window. */
export type AlertMetric = (typeof ALERT_METRICS)[number];

export const ALERT_OPERATORS = ['>', '<', '>=', '<='] as const;
export type AlertOperator = (typeof ALERT_OPERATORS)[number];

export const ALERT_WINDOW_DURATIONS = ['5m', '10m', '60m'] as const;
export type AlertWindowDuration = (typeof ALERT_WINDOW_DURATIONS)[number];
export const ALERT_WINDOW_MS: Readonly<Record<AlertWindowDuration, number>> = {
  '5m': 5 * 60_000,
  '10m': 10 * 60_000,
  '60m': 60 * 60_000,
};

export const ALERT_RULE_STATES = ['ok', 'alert', 'no_data', 'unknown'] as const;
export type AlertRuleState = (typeof ALERT_RULE_STATES)[number];

export const ALERT_RULE_NAME_MIN = 1;
export const ALERT_RULE_NAME_MAX = 128;
/** Spec: 10 rules per account; creating more answers 409. */
export const ALERT_RULES_MAX = 10;

export const WEBHOOK_EVENT_TYPES = ['alerts.triggered', 'alerts.resolved'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Spec: "not shown"; our choice (a 409 beyond it). */
export const WEBHOOK_ENDPOINTS_MAX = 10;

/** An error message that says "is required" when the field is absent, `message` otherwise. */
const need = (message: string) => ({
  error: (iss: { input: unknown }) => (iss.input === undefined ? 'is required' : message),
});

const list = (values: readonly string[]) => values.join(', ');

export const alertMetricSchema = z.enum(ALERT_METRICS, need(`must be one of ${list(ALERT_METRICS)}`));
export const alertOperatorSchema = z.enum(ALERT_OPERATORS, need(`must be one of ${list(ALERT_OPERATORS)}`));
export const alertWindowDurationSchema = z.enum(
  ALERT_WINDOW_DURATIONS,
  need(`must be one of ${list(ALERT_WINDOW_DURATIONS)}`),
);
export const alertRuleStateSchema = z.enum(ALERT_RULE_STATES);
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, need(`must be one of ${list(WEBHOOK_EVENT_TYPES)}`));

const nameSchema = (max: number) =>
  z
    .string(need('must be a string'))
    .min(1, `must be 1 to ${max} characters`)
    .max(max, `must be 1 to ${max} characters`)
    .refine((s) => s.trim().length > 0, 'must not be blank');

export const alertRuleNameSchema = nameSchema(ALERT_RULE_NAME_MAX);
export const thresholdValueSchema = z
  .int(need('must be a non-negative integer'))
  .min(0, 'must be a non-negative integer');
/** A project id (slug or prefixed form) or null for an account-wide rule. */
export const alertProjectIdSchema = z
  .string(need('must be a project id or null'))
  .min(1, 'must be a project id or null')
  .nullable();
const enabledSchema = z.boolean(need('must be true or false'));

/** Fields a client may send; everything else of a rule is read-only. */
export const ALERT_RULE_WRITABLE_FIELDS = [
  'name',
  'project_id',
  'metric',
  'operator',
  'threshold_value',
  'window_duration',
  'enabled',
] as const;

/** POST /v1/alert-rules. Every field but `enabled` (default true) is required; `project_id` may be null. */
export const createAlertRuleRequestSchema = z.strictObject({
  name: alertRuleNameSchema,
  project_id: alertProjectIdSchema,
  metric: alertMetricSchema,
  operator: alertOperatorSchema,
  threshold_value: thresholdValueSchema,
  window_duration: alertWindowDurationSchema,
  enabled: enabledSchema.optional(),
});
export type CreateAlertRuleRequest = z.infer<typeof createAlertRuleRequestSchema>;

/** PATCH /v1/alert-rules/{rule_id}: flat, only the fields to change. */
export const updateAlertRuleRequestSchema = createAlertRuleRequestSchema.partial();
export type UpdateAlertRuleRequest = z.infer<typeof updateAlertRuleRequestSchema>;

const timestamp = z.string();

/**
 * An alert rule as answered. Every field is in the spec's table, but only the id is needed to act on a
 * rule: the others are read tolerantly (the client fills a created or changed rule with what it sent),
 * unknown enum values are kept as text, and the "or null" values read as null when absent.
 */
export const alertRuleSchema = z.looseObject({
  id: z.string(),
  name: extraOr(z.string(), ''),
  project_id: extraOr(z.string().nullable(), null),
  metric: openEnum(ALERT_METRICS),
  operator: openEnum(ALERT_OPERATORS),
  threshold_value: extraOr(z.number().nullable(), null),
  window_duration: openEnum(ALERT_WINDOW_DURATIONS),
  enabled: extraOr(z.boolean(), true),
  current_state: extraOr(openEnum(ALERT_RULE_STATES), 'unknown'),
  created_at: extra(timestamp),
  updated_at: extra(timestamp),
  since: extraOr(timestamp.nullable(), null),
  last_evaluated_at: extraOr(timestamp.nullable(), null),
  current_value: extraOr(z.number().nullable(), null),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** GET /v1/alert-rules (filters project_id, metric, enabled; no pagination). */
export const alertRuleListSchema = z.looseObject({ alert_rules: z.array(alertRuleSchema) });
export type AlertRuleList = z.infer<typeof alertRuleListSchema>;

/** One entry of GET /v1/alerts: a rule that is firing now (the shape is not shown; ours, read tolerantly). */
export const currentAlertSchema = z.preprocess(
  // A platform that names the rule's id `id` (as rules do) is read the same way.
  (v) =>
    typeof v === 'object' && v !== null && !('rule_id' in v) && 'id' in v
      ? { ...v, rule_id: (v as { id: unknown }).id }
      : v,
  z.looseObject({
    rule_id: z.string(),
    name: extraOr(z.string(), ''),
    project_id: extraOr(z.string().nullable(), null),
    metric: extraOr(openEnum(ALERT_METRICS), ''),
    operator: extraOr(openEnum(ALERT_OPERATORS), ''),
    threshold_value: extraOr(z.number().nullable(), null),
    window_duration: extraOr(openEnum(ALERT_WINDOW_DURATIONS), ''),
    current_value: extraOr(z.number().nullable(), null),
    /** When the rule entered `alert`. */
    triggered_at: extra(timestamp),
    last_evaluated_at: extraOr(timestamp.nullable(), null),
  }),
);
export type CurrentAlert = z.infer<typeof currentAlertSchema>;
/** "the response shape of GET /v1/alerts: not shown": `{alerts: [...]}` (ours) or a bare list. */
export const currentAlertListSchema = z.preprocess(
  (v) => (Array.isArray(v) ? { alerts: v } : v),
  z.looseObject({ alerts: z.array(currentAlertSchema) }),
);
export type CurrentAlertList = z.infer<typeof currentAlertListSchema>;

// ---- webhook endpoints ----

/**
 * The spec shows `name` and `url` as strings and nothing more: a length or a form of address is the
 * platform's to judge (the local platform's own limits are in localPlatform/ownLimits.ts).
 */
const requiredText = z.string(need('must be a string')).refine((s) => s.trim().length > 0, 'must not be empty');

export const webhookEventTypesSchema = z
  .array(webhookEventTypeSchema, need(`must be a list of event types (${list(WEBHOOK_EVENT_TYPES)})`))
  .min(1, `must name at least one of ${list(WEBHOOK_EVENT_TYPES)}`)
  .refine((a) => new Set(a).size === a.length, 'must not repeat an event type');

/** POST /v1/webhook-endpoints. */
export const createWebhookEndpointRequestSchema = z.strictObject({
  name: requiredText,
  url: requiredText,
  event_types: webhookEventTypesSchema,
});
export type CreateWebhookEndpointRequest = z.infer<typeof createWebhookEndpointRequestSchema>;

/** PATCH /v1/webhook-endpoints/{id}: flat, only the fields to change. */
export const updateWebhookEndpointRequestSchema = createWebhookEndpointRequestSchema.partial();
export type UpdateWebhookEndpointRequest = z.infer<typeof updateWebhookEndpointRequestSchema>;

/**
 * POST /v1/webhook-endpoints as the client sends it: event_types are "for example alerts.triggered,
 * alerts.resolved", so any other name is sent as given and left for the platform to judge.
 */
export const webhookEndpointDraftSchema = createWebhookEndpointRequestSchema.extend({
  event_types: z
    .array(z.string().trim().min(1, 'must name an event type'), need('must be a list of event types'))
    .min(1, `must name at least one event type, such as ${list(WEBHOOK_EVENT_TYPES)}`)
    .refine((a) => new Set(a).size === a.length, 'must not repeat an event type'),
});
export const webhookEndpointChangeSchema = webhookEndpointDraftSchema.partial();

/** A webhook endpoint as the assumed list and get endpoints give it: the id is what later calls need. */
export const webhookEndpointSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  event_types: z.array(z.string()),
  created_at: extra(timestamp),
  updated_at: extra(timestamp),
  /** Only in the replies of creation and of rotate-secret. */
  signing_secret: extra(z.string()),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
/**
 * The answer to creating an endpoint (or rotating its secret): the spec shows name, url, event_types and
 * signing_secret; the id may be missing (the client looks it up), the rest is filled with what was sent.
 */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  id: extra(z.string()),
  // The secret is the one thing that cannot be had again: nothing else of the answer may stand in its way.
  name: extraOr(z.string(), ''),
  url: extraOr(z.string(), ''),
  event_types: extraOr(z.array(z.string()), []),
  signing_secret: z.string(),
});
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;
export const webhookEndpointListSchema = z.looseObject({ webhook_endpoints: z.array(webhookEndpointSchema) });
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

/** POST /v1/webhook-endpoints/{id}/rotate-secret (our path): the new secret, once. */
export const rotateSecretPath = (endpointId: string): string =>
  `${WEBHOOK_ENDPOINTS_PATH}/${encodeURIComponent(endpointId)}/rotate-secret`;

// ---- notifications ----

export const alertNotificationSchema = z.looseObject({
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  alert: z.looseObject({
    id: z.string(),
    name: z.string(),
    /** null for an account-wide rule. */
    project_id: z.string().nullable(),
    metric: z.enum(ALERT_METRICS),
    operator: z.enum(ALERT_OPERATORS),
    threshold_value: z.int(),
    current_value: z.int(),
    /** ok on triggered (no_data or unknown when the rule fired from those), alert on resolved. */
    previous_state: alertRuleStateSchema,
    triggered_at: timestamp.optional(),
    resolved_at: timestamp.optional(),
  }),
});
export type AlertNotification = z.infer<typeof alertNotificationSchema>;

// ---- signatures (Standard Webhooks scheme, https://www.standardwebhooks.com) ----

/** Delivery headers. The signed content is `${webhook-id}.${webhook-timestamp}.${body}`. */
export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';
/** Signing secrets are `whsec_` followed by the base64 of the key bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** How far a delivery's timestamp may be from the receiver's clock (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

function secretKey(secret: string): Buffer {
  const text = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  return Buffer.from(text, 'base64');
}

/** The `webhook-signature` value for one delivery attempt: `v1,<base64 HMAC-SHA256>`. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export type WebhookHeaders = Headers | Readonly<Record<string, string | string[] | undefined>>;

export type WebhookVerification = { ok: true } | { ok: false; reason: string };

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : headers[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Checks a delivery the way a receiver should: the headers are present, the timestamp is
 * within the tolerance, and one of the space-separated `v1,` signatures matches the raw
 * body (compare the exact bytes received, before any JSON parsing).
 */
export function verifyWebhookSignature(opts: {
  secret: string;
  body: string;
  headers: WebhookHeaders;
  toleranceSeconds?: number;
  nowSeconds?: number;
}): WebhookVerification {
  const id = headerOf(opts.headers, WEBHOOK_ID_HEADER);
  const ts = headerOf(opts.headers, WEBHOOK_TIMESTAMP_HEADER);
  const sigs = headerOf(opts.headers, WEBHOOK_SIGNATURE_HEADER);
  if (!id || !ts || !sigs)
    return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature header' };
  if (!/^\d+$/.test(ts)) return { ok: false, reason: 'webhook-timestamp is not a number of seconds' };
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(ts)) > (opts.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS))
    return { ok: false, reason: 'webhook-timestamp is outside the tolerance' };
  const expected = Buffer.from(signWebhook(opts.secret, id, Number(ts), opts.body));
  for (const candidate of sigs.split(' ')) {
    const got = Buffer.from(candidate);
    if (got.length === expected.length && timingSafeEqual(got, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no signature matches' };
}
