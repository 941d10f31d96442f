import type { Base } from './family';
import { RESPONSES_MODES, type ResponsesMode } from './responsesMode';
import { buildError, JsonText, type Router } from './http';

/**
 * The spec-minimal mode of the local platform: every answer of an endpoint the spec shows carries only
 * the fields the spec shows for it (a created agent answers only its agentId, a created webhook endpoint
 * its name, url, event_types and signing secret, an external event a bare 201). A client that passes its tests against this mode does not
 * lean on anything the platform never promised. Endpoints the spec does not show (our assumptions) and
 * error answers are left as they are.
 */

/**
 * What an answer shows: `true` keeps a value whole, an object keeps the named fields (a name ending in `?`
 * is one the spec marks optional or "or null"), a one-element list keeps each item by its shape, `null`
 * means no body at all.
 */
export type Shape = true | null | readonly [Shape] | { readonly [field: string]: Shape };

const DEPLOYMENT: Shape = {
  id: true,
  accountId: true,
  agentId: true,
  environment: true,
  artifactVersion: true,
  version: true,
  createdBy: true,
  createdAt: true,
  metadata: true,
};
const TURN: Shape = {
  user_input: true,
  'user_input_dtmf?': true,
  user_input_datetime: true,
  barge_in: true,
  agent_response: true,
  agent_response_datetime: true,
  'latency?': true,
  'translated_user_input?': true,
  'english_agent_response?': true,
  intents: true,
  entities: true,
  is_ood: true,
  is_silence: true,
};
const RECORD: Shape = {
  id: true,
  account_id: true,
  project_id: true,
  variant_id: true,
  variant_name: true,
  environment: true,
  started_at: true,
  channel: true,
  from_number: true,
  to_number: true,
  in_progress: true,
  num_turns: true,
  'total_duration?': true,
  'polyai_duration?': true,
  handoff: true,
  'handoff_reason?': true,
  'handoff_destination?': true,
  num_silences: true,
  num_ood: true,
  metrics: true,
  state: true,
  turns: [TURN],
};
const ALERT_RULE: Shape = {
  id: true,
  name: true,
  project_id: true,
  metric: true,
  operator: true,
  threshold_value: true,
  window_duration: true,
  enabled: true,
  current_state: true,
  created_at: true,
  updated_at: true,
  'since?': true,
  'last_evaluated_at?': true,
  'current_value?': true,
};
const ACTION_RESULT: Shape = { deployment: DEPLOYMENT, testRunIds: true };
const SEGMENT = '[^/]+';

/** One endpoint the spec shows and the shape of its 2xx answer. */
export interface SpecAnswer {
  base: Base;
  method: string;
  path: RegExp;
  /** For tests and docs: the endpoint as the spec writes it. */
  name: string;
  shape: Shape;
}

const answer = (base: Base, method: string, name: string, shape: Shape): SpecAnswer => ({
  base,
  method,
  name,
  shape,
  path: new RegExp(`^${name.replace(/\{[^}]+\}/g, SEGMENT).replace(/\//g, '\\/')}$`),
});

/** Every answer the spec shows, endpoint by endpoint (platform-interface.md, Endpoints and Resources). */
export const SPEC_ANSWERS: readonly SpecAnswer[] = [
  answer('runtime', 'POST', '/{version}/{account_id}/{project_id}/chat/create', {
    conversation_id: true,
    response: true,
  }),
  answer('runtime', 'POST', '/{version}/{account_id}/{project_id}/chat/respond', {
    conversation_id: true,
    response: true,
    end_conversation: true,
    'handoff?': { destination: true, reason: true },
  }),
  answer('runtime', 'PUT', '/{version}/{account_id}/{project_id}/chat/close', { success: true }),
  answer('runtime', 'GET', '/{version}/{account_id}/{project_id}/conversations', {
    conversations: [RECORD],
    descriptions: true,
    'next_offset?': true,
    'cursor?': true,
  }),
  answer('runtime', 'GET', '/v1/{account_id}/{project_id}/conversations/concurrency', {
    account_id: true,
    project_id: true,
    intervals: [
      {
        time: true,
        max_concurrent_conversations: true,
        'variant_id?': true,
        'variant_name?': true,
        'language?': true,
        'phone_number?': true,
      },
    ],
  }),
  answer('runtime', 'POST', '/v1/outbound-calling', { call_sid: true }),
  answer('runtime', 'POST', '/v1/external-events/webhook', null),
  answer('runtime', 'POST', '/v1/conversations/dni-reservation', { dni: true }),
  answer('messaging', 'POST', '/api/v1/access-token', { access_token: true, expires_in: true, token_type: true }),
  answer('messaging', 'POST', '/api/v1/sessions', { session_id: true }),
  answer('build', 'POST', '/v1/agents', { agentId: true }),
  answer('build', 'POST', '/v1/agents/{agentId}/branches', { name: true }),
  answer('build', 'POST', '/v1/agents/{agentId}/branches/{branchId}/merge', {}),
  answer('build', 'PATCH', '/v1/agents/{agentId}/branches/{branchId}/behavior', { behavior: true }),
  answer('build', 'POST', '/v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics', {
    name: true,
    content: true,
  }),
  answer('build', 'POST', '/v1/agents/{agentId}/deployments/publish', ACTION_RESULT),
  answer('build', 'POST', '/v1/agents/{agentId}/deployments/{deploymentId}/promote', ACTION_RESULT),
  answer('build', 'POST', '/v1/agents/{agentId}/deployments/{deploymentId}/rollback', {
    deployment: DEPLOYMENT,
    'testRunIds?': true,
  }),
  answer('build', 'PATCH', '/v1/agents/{agentId}/real-time-configs/{config}/variables', { variables: true }),
  answer('build', 'GET', '/v1/agents/{agentId}/telephony/phone-numbers', {
    phoneNumbers: [{ number: true, projectId: true, accountId: true, clientEnv: true, connectorId: true }],
  }),
  answer('build', 'POST', '/v1/agents/{agentId}/telephony/phone-numbers', { imported: true }),
  answer('build', 'POST', '/v1/alert-rules', ALERT_RULE),
  answer('build', 'PATCH', '/v1/alert-rules/{rule_id}', ALERT_RULE),
  answer('build', 'POST', '/v1/webhook-endpoints', { name: true, url: true, event_types: true, signing_secret: true }),
];

/** The spec's answer for a request, or undefined for an endpoint the spec does not show. */
export function specAnswerFor(base: Base, method: string, path: string): SpecAnswer | undefined {
  return SPEC_ANSWERS.find((a) => a.base === base && a.method === method && a.path.test(path));
}

/** A value cut down to its shape: only the fields it names, recursively. */
export function toShape(shape: Shape, value: unknown): unknown {
  if (shape === null) return undefined;
  if (shape === true || value === null || value === undefined) return value;
  if (Array.isArray(shape)) return Array.isArray(value) ? value.map((v) => toShape(shape[0], v)) : value;
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(shape as Record<string, Shape>)) {
    const field = key.endsWith('?') ? key.slice(0, -1) : key;
    if (Object.hasOwn(value, field)) out[field] = toShape(inner, (value as Record<string, unknown>)[field]);
  }
  return out;
}

/** A 2xx answer as the minimal mode sends it. */
export function minimalBody(base: Base, method: string, path: string, status: number, body: unknown): unknown {
  if (status < 200 || status >= 300) return body;
  const spec = specAnswerFor(base, method, path);
  if (!spec) return body;
  return toShape(spec.shape, body instanceof JsonText ? JSON.parse(body.text) : body);
}

/**
 * A WebSocket event as the minimal mode sends it: the envelope the spec shows (type, payload, id, timestamp,
 * metadata.custom), without our history positions (`metadata.position`, the batch's `cursor`) and without the
 * payload fields we chose beyond the text (answers' `message_id`, pieces' `index`, `agent_name`).
 */
export function minimalEvent<E extends { payload: Record<string, unknown>; metadata?: Record<string, unknown> }>(
  event: E,
): E {
  const { position: _position, ...metadata } = event.metadata ?? {};
  // The history cursor and the answers' message ids, piece indexes and live agent names are ours: a client must
  // do without them.
  const {
    cursor: _cursor,
    message_id: _messageId,
    index: _index,
    agent_name: _agentName,
    events,
    ...payload
  } = event.payload;
  const inner = Array.isArray(events) ? { events: events.map((e: E) => minimalEvent(e)) } : {};
  return { ...event, metadata, payload: { ...payload, ...inner } };
}

/** `GET|PUT /_local/responses {mode}`: switches the mode of a running platform (kept across resets). */
export function registerResponsesRoute(admin: Router, setting: { mode: ResponsesMode }): void {
  admin.get('/responses', () => ({ body: { mode: setting.mode } }));
  admin.put('/responses', (ctx) => {
    const mode = (ctx.json() as { mode?: unknown } | undefined)?.mode;
    if (!RESPONSES_MODES.includes(mode as ResponsesMode))
      throw buildError(400, `mode must be one of ${RESPONSES_MODES.join(', ')}`, [
        { field: 'mode', message: `one of ${RESPONSES_MODES.join(', ')}` },
      ]);
    setting.mode = mode as ResponsesMode;
    return { body: { mode: setting.mode } };
  });
}
