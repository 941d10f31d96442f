import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALERT_RULE_ID_PATTERN,
  type AlertRuleList,
  type CurrentAlertList,
  type WebhookEndpointList,
} from '../../../src/contract/alerts';
import { seedDemoAlerts } from '../../../src/localPlatform/alerts/demo';
import { alertsOf } from '../../../src/localPlatform/alerts/model';
import { Platform } from '../../../src/localPlatform/platform';
import { applySeed } from '../../../src/localPlatform/seed/seeds';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';
import { alerts, conversation, turn } from '../../support/alerts';

describe('Alerts demo data', () => {
  const t = useLocalPlatform({ seed: 'demo' });

  it('[ALERT-2][ALERT-10] the demo seed has 4 to 6 rules over several metrics and 1 to 2 webhook endpoints', async () => {
    const rules = (await alerts<AlertRuleList>(t.lp, 'GET', '/v1/alert-rules')).body.alert_rules;
    assert.ok(rules.length >= 4 && rules.length <= 6, String(rules.length));
    assert.ok(rules.every((r) => ALERT_RULE_ID_PATTERN.test(r.id)));
    assert.ok(new Set(rules.map((r) => r.metric)).size >= 4);
    assert.ok(rules.some((r) => r.project_id === null) && rules.some((r) => r.project_id !== null));
    assert.ok(rules.some((r) => !r.enabled));
    const endpoints = (await alerts<WebhookEndpointList>(t.lp, 'GET', '/v1/webhook-endpoints')).body.webhook_endpoints;
    assert.ok(endpoints.length >= 1 && endpoints.length <= 2);
  });

  it('[ALERT-4][ALERT-8] over the demo week of conversations some demo rules are firing, and nothing was sent while seeding', async () => {
    assert.ok(t.lp.platform.state.conversations.length > 0);
    const current = (await alerts<CurrentAlertList>(t.lp, 'GET', '/v1/alerts')).body.alerts;
    assert.ok(current.length >= 1);
    const rules = (await alerts<AlertRuleList>(t.lp, 'GET', '/v1/alert-rules')).body.alert_rules;
    assert.ok(rules.some((r) => r.enabled && r.current_state !== 'alert'));
    const log = (
      await call<{ deliveries: Array<{ status: string; attempts: unknown[] }> }>(
        'GET',
        `${t.lp.urls.admin}/webhook-deliveries`,
      )
    ).body.deliveries;
    assert.ok(log.length >= 1);
    assert.ok(log.every((d) => d.status === 'failed' && d.attempts.length === 0));
  });

  it('[ALERT-4] seeded over recent conversations, some rules are in alert and the notifications are logged as failed, not sent', () => {
    const platform = new Platform();
    applySeed(platform, 'base');
    const now = platform.clock.now();
    for (let i = 0; i < 6; i++) {
      const c = conversation(now - (i + 1) * 60_000, { api_errors: i % 2, function_errors: 1 });
      c.turns.push(turn(now - i * 60_000, 800 + i * 300));
      platform.state.conversations.push(c);
    }
    seedDemoAlerts(platform);
    const section = alertsOf(platform);
    const states = section.rules.map((r) => r.current_state);
    assert.ok(states.includes('alert'), states.join());
    assert.ok(states.includes('ok') || states.includes('no_data'), states.join());
    assert.ok(section.rules.filter((r) => r.enabled).every((r) => r.last_evaluated_at !== null));
    assert.ok(section.deliveries.length > 0);
    assert.ok(section.deliveries.every((d) => d.status === 'failed' && d.attempts.length === 0));
  });

  it('[ALERT-3] seeded without conversations, the rules report ok and nothing is logged', () => {
    const platform = new Platform();
    applySeed(platform, 'base');
    seedDemoAlerts(platform);
    const section = alertsOf(platform);
    assert.ok(
      section.rules.filter((r) => r.enabled).every((r) => r.current_state === 'ok' && r.last_evaluated_at === null),
    );
    assert.deepEqual(section.deliveries, []);
  });
});
