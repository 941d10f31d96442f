import { randomBytes } from 'node:crypto';
import {
  type AlertMetric,
  type AlertNotification,
  type AlertOperator,
  type AlertRule,
  type AlertRuleState,
  type AlertWindowDuration,
  WEBHOOK_SECRET_PREFIX,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../contract/alerts';
import type { Platform } from '../platform';

/** Stored shapes of the Alerts family. Plain JSON inside `state.families.alerts`. */

export interface StoredAlertRule {
  id: string;
  accountId: string;
  name: string;
  /** Prefixed form (`PROJECT-...`), or null for an account-wide rule. */
  project_id: string | null;
  metric: AlertMetric;
  operator: AlertOperator;
  threshold_value: number;
  window_duration: AlertWindowDuration;
  enabled: boolean;
  current_state: AlertRuleState;
  created_at: string;
  updated_at: string;
  since: string | null;
  last_evaluated_at: string | null;
  current_value: number | null;
}

export interface StoredWebhookEndpoint {
  id: string;
  accountId: string;
  name: string;
  url: string;
  event_types: WebhookEventType[];
  /** Kept to sign deliveries; shown only on creation and rotation. */
  signing_secret: string;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  /** The receiver's HTTP status, or null when no answer came (network error, timeout). */
  status_code: number | null;
  error: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One notification to one endpoint, with every attempt made to deliver it. */
export interface StoredDelivery {
  /** Also the `webhook-id` header: the same on every attempt, so receivers can deduplicate. */
  id: string;
  accountId: string;
  endpoint_id: string;
  event_type: WebhookEventType;
  rule_id: string;
  payload: AlertNotification;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  created_at: string;
  next_attempt_at: string | null;
  last_error: string | null;
}

/** Switches for the failure paths of the family, set through the admin API. */
export interface AlertsSwitches {
  /** Rule writes answer 502 "Monitoring backend sync failed" and change nothing. */
  backendSyncFails: boolean;
  /** Evaluations cannot complete: rules go to `unknown`. */
  evaluationFails: boolean;
}

export interface AlertsSection {
  rules: StoredAlertRule[];
  endpoints: StoredWebhookEndpoint[];
  deliveries: StoredDelivery[];
  switches: AlertsSwitches;
}

/** The most delivery records kept; the oldest finished ones go first. */
export const DELIVERY_LOG_MAX = 500;

/** The family's section of the current state (look it up each time: a reset replaces it). */
export function alertsOf(platform: Platform): AlertsSection {
  const section = platform.section<AlertsSection>('alerts', () => ({
    rules: [],
    endpoints: [],
    deliveries: [],
    switches: { backendSyncFails: false, evaluationFails: false },
  }));
  section.switches ??= { backendSyncFails: false, evaluationFails: false };
  return section;
}

export function ruleToWire(r: StoredAlertRule): AlertRule {
  return {
    id: r.id,
    name: r.name,
    project_id: r.project_id,
    metric: r.metric,
    operator: r.operator,
    threshold_value: r.threshold_value,
    window_duration: r.window_duration,
    enabled: r.enabled,
    current_state: r.current_state,
    created_at: r.created_at,
    updated_at: r.updated_at,
    since: r.since,
    last_evaluated_at: r.last_evaluated_at,
    current_value: r.current_value,
  };
}

export function endpointToWire(e: StoredWebhookEndpoint, withSecret = false): WebhookEndpoint {
  return {
    id: e.id,
    name: e.name,
    url: e.url,
    event_types: [...e.event_types],
    created_at: e.created_at,
    updated_at: e.updated_at,
    ...(withSecret ? { signing_secret: e.signing_secret } : {}),
  };
}

/** A new signing secret: `whsec_` and 24 random bytes in base64 (Standard Webhooks form). */
export function newSigningSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(24).toString('base64');
}
