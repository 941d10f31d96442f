import type { WebhookEventType } from '../../contract/alerts';
import type { Platform } from '../platform';
import type { StoredConversation } from '../state';
import { LOCAL_ACCOUNT, LOCAL_PROJECT } from '../seed/credentials';
import { queueNotification } from './deliveries';
import { evaluateRules } from './evaluator';
import { measureMetric } from './metrics';
import { alertsOf, newSigningSecret, type StoredAlertRule } from './model';

type DemoRule = Pick<
  StoredAlertRule,
  'name' | 'project_id' | 'metric' | 'operator' | 'threshold_value' | 'window_duration' | 'enabled'
> & {
  /** Set the threshold just under what the demo conversations show, so the rule fires. */
  firesOnDemoData?: boolean;
};

const DEMO_RULES: readonly DemoRule[] = [
  {
    name: 'Slow answers (p95)',
    project_id: LOCAL_PROJECT.id,
    metric: 'turn_latency_p95',
    operator: '>',
    threshold_value: 2500,
    window_duration: '10m',
    enabled: true,
    firesOnDemoData: true,
  },
  {
    name: 'Typical answer time (p50)',
    project_id: LOCAL_PROJECT.id,
    metric: 'turn_latency_p50',
    operator: '>',
    threshold_value: 4000,
    window_duration: '60m',
    enabled: true,
  },
  {
    name: 'API errors across the account',
    project_id: null,
    metric: 'api_errors',
    operator: '>',
    threshold_value: 5,
    window_duration: '60m',
    enabled: true,
    firesOnDemoData: true,
  },
  {
    name: 'Function errors',
    project_id: LOCAL_PROJECT.id,
    metric: 'function_errors',
    operator: '>=',
    threshold_value: 20,
    window_duration: '10m',
    enabled: true,
  },
  {
    name: 'Call volume drop',
    project_id: LOCAL_PROJECT.id,
    metric: 'call_volume',
    operator: '<',
    threshold_value: 3,
    window_duration: '60m',
    enabled: true,
  },
  {
    name: 'Call crashes',
    project_id: null,
    metric: 'call_crashes',
    operator: '>',
    threshold_value: 0,
    window_duration: '5m',
    enabled: false,
  },
];

const DEMO_ENDPOINTS: ReadonlyArray<{ name: string; url: string; event_types: WebhookEventType[] }> = [
  // Port 9 (discard) has no listener on a usual machine: deliveries fail fast, which the demo shows.
  {
    name: 'On-call pager (demo)',
    url: 'http://127.0.0.1:9/hooks/alerts',
    event_types: ['alerts.triggered', 'alerts.resolved'],
  },
  { name: 'Resolution log (demo)', url: 'http://localhost:9/hooks/resolved', event_types: ['alerts.resolved'] },
];

/**
 * Demo alert rules and webhook endpoints. When there are demo conversations the rules are
 * evaluated once, as of the newest activity in them (the demo week may end before the clock's
 * now), and they are dated from the first conversation. Notifications raised while seeding are
 * logged as failed without being sent, so starting a demo fires no requests at the endpoints.
 */
export function seedDemoAlerts(platform: Platform): void {
  const section = alertsOf(platform);
  const conversations = platform.state.conversations.filter((c) => c.account_id === LOCAL_ACCOUNT.id);
  const span = activitySpan(conversations, platform.clock.now());
  const created = new Date(span?.firstMs ?? platform.clock.now()).toISOString();

  for (const demo of DEMO_RULES) {
    let threshold = demo.threshold_value;
    if (demo.firesOnDemoData && span) {
      const value = measureMetric(
        conversations,
        { accountId: LOCAL_ACCOUNT.id, projectId: demo.project_id },
        demo.metric,
        demo.window_duration,
        span.lastMs,
      );
      if (value !== null && value > 0)
        threshold = demo.metric === 'api_errors' ? value - 1 : Math.floor((value * 0.8) / 100) * 100;
    }
    const rule: StoredAlertRule = {
      id: platform.nextId('ar'),
      accountId: LOCAL_ACCOUNT.id,
      name: demo.name,
      project_id: demo.project_id,
      metric: demo.metric,
      operator: demo.operator,
      threshold_value: threshold,
      window_duration: demo.window_duration,
      enabled: demo.enabled,
      current_state: 'ok',
      created_at: created,
      updated_at: created,
      since: created,
      last_evaluated_at: null,
      current_value: null,
    };
    section.rules.push(rule);
  }

  for (const demo of DEMO_ENDPOINTS) {
    section.endpoints.push({
      id: platform.nextId('we'),
      accountId: LOCAL_ACCOUNT.id,
      name: demo.name,
      url: demo.url,
      event_types: [...demo.event_types],
      signing_secret: newSigningSecret(),
      created_at: created,
      updated_at: created,
    });
  }

  if (!span) return;
  const result = evaluateRules(platform, span.lastMs);
  for (const n of result.notifications) {
    for (const delivery of queueNotification(platform, n.accountId, n.ruleId, n.notification)) {
      delivery.status = 'failed';
      delivery.next_attempt_at = null;
      delivery.last_error = 'Not sent: raised while the demo data was seeded';
    }
  }
}

/** The first start and the newest activity (start, answer or end, not after now) of the conversations. */
function activitySpan(
  conversations: readonly StoredConversation[],
  nowMs: number,
): { firstMs: number; lastMs: number } | undefined {
  let firstMs = Infinity;
  let lastMs = -Infinity;
  const see = (iso: string | null) => {
    const t = iso === null ? NaN : Date.parse(iso);
    if (Number.isFinite(t) && t <= nowMs) lastMs = Math.max(lastMs, t);
  };
  for (const c of conversations) {
    firstMs = Math.min(firstMs, Date.parse(c.started_at));
    see(c.started_at);
    see(c.ended_at);
    for (const t of c.turns) see(t.agent_response_datetime);
  }
  return Number.isFinite(firstMs) && Number.isFinite(lastMs)
    ? { firstMs: Math.min(firstMs, lastMs), lastMs }
    : undefined;
}
