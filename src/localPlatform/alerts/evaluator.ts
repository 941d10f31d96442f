import type { AlertNotification, AlertRuleState, WebhookEventType } from '../../contract/alerts';
import type { Platform } from '../platform';
import { breaches, measureMetric } from './metrics';
import { alertsOf, type StoredAlertRule } from './model';

/** One rule whose state an evaluation changed. */
export interface RuleChange {
  rule_id: string;
  name: string;
  from: AlertRuleState;
  to: AlertRuleState;
  current_value: number | null;
  /** The notification the change sends, if any. */
  event_type: WebhookEventType | null;
}

export interface RuleNotification {
  accountId: string;
  ruleId: string;
  notification: AlertNotification;
}

export interface EvaluationResult {
  evaluated_at: string;
  /** How many enabled rules were looked at. */
  evaluated: number;
  changes: RuleChange[];
  notifications: RuleNotification[];
}

/**
 * Evaluates every enabled rule at `nowMs` (the platform clock's now) and updates its state.
 *
 * - The metric breaches the threshold: `alert`; within it: `ok`; no data in the window: `no_data`;
 *   the evaluation could not complete: `unknown`.
 * - Entering `alert` (from any state) sends alerts.triggered; leaving it for `ok` sends
 *   alerts.resolved. A firing rule stays in `alert` while its window has no data or its
 *   evaluation fails: only a value back within the threshold ends an alert, so a receiver
 *   never misses the end of one.
 * - Disabled rules are not evaluated.
 */
export function evaluateRules(platform: Platform, nowMs: number = platform.clock.now()): EvaluationResult {
  const section = alertsOf(platform);
  const at = new Date(nowMs).toISOString();
  const result: EvaluationResult = { evaluated_at: at, evaluated: 0, changes: [], notifications: [] };
  for (const rule of section.rules) {
    if (!rule.enabled) continue;
    result.evaluated += 1;
    const failed = section.switches.evaluationFails;
    const value = failed
      ? null
      : measureMetric(
          platform.state.conversations,
          { accountId: rule.accountId, projectId: rule.project_id },
          rule.metric,
          rule.window_duration,
          nowMs,
        );
    const next: AlertRuleState = failed
      ? 'unknown'
      : value === null
        ? 'no_data'
        : breaches(value, rule.operator, rule.threshold_value)
          ? 'alert'
          : 'ok';
    const from = rule.current_state;

    if (!failed) rule.last_evaluated_at = at;
    if (from === 'alert' && (next === 'no_data' || next === 'unknown')) continue; // the alert keeps firing, with its last value
    rule.current_value = value;
    if (next === from) continue;

    rule.current_state = next;
    rule.since = at;
    const eventType: WebhookEventType | null =
      next === 'alert' ? 'alerts.triggered' : from === 'alert' ? 'alerts.resolved' : null;
    result.changes.push({
      rule_id: rule.id,
      name: rule.name,
      from,
      to: next,
      current_value: value,
      event_type: eventType,
    });
    if (eventType && value !== null) {
      result.notifications.push({
        accountId: rule.accountId,
        ruleId: rule.id,
        notification: notificationOf(rule, eventType, from, value, at),
      });
    }
  }
  platform.mutated();
  return result;
}

/** The spec's payload, exactly its fields. */
export function notificationOf(
  rule: StoredAlertRule,
  eventType: WebhookEventType,
  previous: AlertRuleState,
  value: number,
  at: string,
): AlertNotification {
  return {
    event_type: eventType,
    alert: {
      id: rule.id,
      name: rule.name,
      project_id: rule.project_id,
      metric: rule.metric,
      operator: rule.operator,
      threshold_value: rule.threshold_value,
      current_value: value,
      previous_state: previous,
      ...(eventType === 'alerts.triggered' ? { triggered_at: at } : { resolved_at: at }),
    },
  };
}
