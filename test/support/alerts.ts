import type { LocalPlatform } from '../../src/localPlatform/server';
import { LOCAL_ACCOUNT, LOCAL_KEYS, LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import type { StoredConversation, StoredTurn } from '../../src/localPlatform/state';
import { call, type JsonResponse } from './http';
import type { EvaluationReply } from '../../src/localPlatform/adminApi';
import { LocalAdmin } from './localAdmin';

/** A call to the Alerts API with the seeded Alerts key. */
export function alerts<T = unknown>(
  lp: LocalPlatform,
  method: string,
  path: string,
  body?: unknown,
  key: string = LOCAL_KEYS.alerts,
): Promise<JsonResponse<T>> {
  return call<T>(method, `${lp.urls.build}${path}`, {
    headers: { 'x-api-key': key },
    ...(body !== undefined ? { body } : {}),
  });
}

export const validRule = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'Slow answers',
  project_id: LOCAL_PROJECT.id,
  metric: 'turn_latency_p95',
  operator: '>',
  threshold_value: 2000,
  window_duration: '5m',
  ...over,
});

/** A finished turn where the agent answered `latencyMs` after the user, at `at`. */
export function turn(at: number, latencyMs: number): StoredTurn {
  return {
    user_input: 'Where is my order?',
    user_input_dtmf: null,
    user_input_datetime: new Date(at - latencyMs).toISOString(),
    barge_in: false,
    agent_response: 'It is on its way.',
    agent_response_datetime: new Date(at).toISOString(),
    latency: latencyMs,
    translated_user_input: null,
    english_agent_response: null,
    intents: [],
    entities: {},
    is_ood: false,
    is_silence: false,
  };
}

let seq = 0;

/** A recorded conversation for the evaluator to read, started at `startedAt` (epoch ms). */
export function conversation(startedAt: number, over: Partial<StoredConversation> = {}): StoredConversation {
  seq += 1;
  return {
    id: `conv_alerts_${seq}`,
    account_id: LOCAL_ACCOUNT.id,
    project_id: LOCAL_PROJECT.id,
    agent_id: 'ag_support',
    variant_id: null,
    variant_name: null,
    environment: 'live',
    started_at: new Date(startedAt).toISOString(),
    ended_at: null,
    channel: 'VOICE-SIP',
    from_number: null,
    to_number: null,
    in_progress: true,
    total_duration: 0,
    polyai_duration: 0,
    handoff: false,
    handoff_reason: null,
    handoff_destination: null,
    language: 'en-US',
    metrics: {},
    state: {},
    turns: [],
    api_errors: 0,
    function_errors: 0,
    crashed: false,
    source: 'demo',
    integration_attributes: null,
    ...over,
  };
}

/** Runs an evaluation now through the admin API. */
export function evaluate(lp: LocalPlatform): Promise<EvaluationReply> {
  return new LocalAdmin(lp.urls.admin).evaluateAlerts();
}
