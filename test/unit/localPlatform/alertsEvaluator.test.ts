import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  type AlertNotification,
  type AlertRule,
  alertNotificationSchema,
  type CurrentAlertList,
  verifyWebhookSignature,
  type WebhookEndpointWithSecret,
} from '../../../src/contract/alerts';
import { LOCAL_PROJECT } from '../../../src/localPlatform/seed/credentials';
import { startLocalPlatform } from '../../../src/localPlatform/server';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';
import { alerts, conversation, evaluate, turn, validRule } from '../../support/alerts';
import { startReceiver } from '../../support/webhookReceiver';

const MIN = 60_000;

describe('Alerts evaluator (spec: Alert rule state, Alert notification payload, Events)', () => {
  const t = useLocalPlatform();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let endpoint: WebhookEndpointWithSecret;

  beforeEach(async () => {
    receiver = await startReceiver();
    endpoint = (
      await alerts<WebhookEndpointWithSecret>(t.lp, 'POST', '/v1/webhook-endpoints', {
        name: 'Receiver',
        url: receiver.url,
        event_types: ['alerts.triggered', 'alerts.resolved'],
      })
    ).body;
  });
  afterEach(async () => {
    await receiver.close();
  });

  const now = () => t.lp.platform.clock.now();
  const add = (...convs: ReturnType<typeof conversation>[]) => t.lp.platform.state.conversations.push(...convs);
  const createRule = async (over: Record<string, unknown>) => {
    const res = await alerts<AlertRule>(t.lp, 'POST', '/v1/alert-rules', validRule(over));
    assert.equal(res.status, 201);
    return res.body;
  };
  const getRule = async (id: string) => (await alerts<AlertRule>(t.lp, 'GET', `/v1/alert-rules/${id}`)).body;
  const advance = (ms: number) => t.admin.advanceClock(ms);
  /** The notifications received so far, each checked against its signature. */
  const notifications = (): AlertNotification[] =>
    receiver.received.map((r) => {
      const verdict = verifyWebhookSignature({ secret: endpoint.signing_secret, body: r.body, headers: r.headers });
      assert.deepEqual(verdict, { ok: true });
      return alertNotificationSchema.parse(JSON.parse(r.body));
    });

  it('[ALERT-3] a new rule reports ok before its first evaluation, even when its metric already breaches', async () => {
    add(conversation(now() - MIN, { api_errors: 9 }));
    const rule = await createRule({ metric: 'api_errors', operator: '>', threshold_value: 1 });
    assert.equal(rule.current_state, 'ok');
    assert.equal((await getRule(rule.id)).current_state, 'ok');
  });

  it('[ALERT-4][ALERT-7][HOOK-2] ok to alert on a p95 latency breach sends alerts.triggered with previous_state ok and triggered_at', async () => {
    const c = conversation(now() - 3 * MIN);
    for (let i = 1; i <= 20; i++) c.turns.push(turn(now() - 2 * MIN + i * 1000, i * 100));
    add(c);
    const p95 = await createRule({
      name: 'Slow p95',
      metric: 'turn_latency_p95',
      operator: '>',
      threshold_value: 1500,
    });
    const p50 = await createRule({
      name: 'Slow p50',
      metric: 'turn_latency_p50',
      operator: '>',
      threshold_value: 1500,
    });
    const result = await evaluate(t.lp);
    assert.deepEqual(
      result.changes.map((ch) => [ch.rule_id, ch.from, ch.to, ch.current_value, ch.event_type]),
      [[p95.id, 'ok', 'alert', 1900, 'alerts.triggered']],
    );
    const fired = await getRule(p95.id);
    assert.equal(fired.current_state, 'alert');
    assert.equal(fired.current_value, 1900, 'nearest-rank p95 of 100..2000 ms');
    assert.equal(fired.since, fired.last_evaluated_at);
    const calm = await getRule(p50.id);
    assert.equal(calm.current_state, 'ok');
    assert.equal(calm.current_value, 1000, 'p50 in milliseconds');
    assert.ok(calm.last_evaluated_at);

    await receiver.waitFor(1);
    const [n] = notifications();
    assert.deepEqual(JSON.parse(receiver.received[0]!.body), {
      event_type: 'alerts.triggered',
      alert: {
        id: p95.id,
        name: 'Slow p95',
        project_id: LOCAL_PROJECT.id,
        metric: 'turn_latency_p95',
        operator: '>',
        threshold_value: 1500,
        current_value: 1900,
        previous_state: 'ok',
        triggered_at: fired.since,
      },
    });
    assert.equal(n!.alert.resolved_at, undefined);
  });

  it('[ALERT-5][HOOK-2] alert to ok when the metric is back within the threshold sends alerts.resolved with previous_state alert and resolved_at', async () => {
    add(conversation(now() - MIN, { api_errors: 5 }));
    const rule = await createRule({ metric: 'api_errors', operator: '>=', threshold_value: 3 });
    await evaluate(t.lp);
    await advance(10 * MIN);
    add(conversation(now() - MIN, { api_errors: 1 }));
    const result = await evaluate(t.lp);
    assert.deepEqual(
      result.changes.map((ch) => [ch.from, ch.to, ch.event_type]),
      [['alert', 'ok', 'alerts.resolved']],
    );
    await receiver.waitFor(2);
    const [triggered, resolved] = notifications();
    assert.equal(triggered!.event_type, 'alerts.triggered');
    assert.equal(resolved!.event_type, 'alerts.resolved');
    assert.equal(resolved!.alert.previous_state, 'alert');
    assert.equal(resolved!.alert.current_value, 1);
    assert.equal(resolved!.alert.triggered_at, undefined);
    const after = await getRule(rule.id);
    assert.equal(resolved!.alert.resolved_at, after.since);
    assert.equal(after.current_state, 'ok');
  });

  it('[ALERT-4] a rule that stays in alert is not notified again', async () => {
    add(conversation(now() - MIN, { function_errors: 4 }));
    await createRule({ metric: 'function_errors', operator: '>', threshold_value: 0 });
    await evaluate(t.lp);
    const again = await evaluate(t.lp);
    assert.deepEqual(again.changes, []);
    await receiver.waitFor(1);
    const log = await call<{ deliveries: unknown[] }>('GET', `${t.lp.urls.admin}/webhook-deliveries`);
    assert.equal(log.body.deliveries.length, 1);
  });

  const counts: Array<[string, string, number]> = [
    ['api_errors', 'sums api_errors of the conversations in the window', 7],
    ['function_errors', 'sums function_errors', 5],
    ['call_crashes', 'counts crashed conversations', 2],
    ['call_volume', 'counts conversations started in the window', 3],
  ];
  for (const [metric, what, expected] of counts) {
    it(`[ALERT-7] ${metric} ${what} as an absolute count over the project's window`, async () => {
      add(
        conversation(now() - 1 * MIN, { api_errors: 1, function_errors: 2, crashed: true }),
        conversation(now() - 2 * MIN, { api_errors: 2, function_errors: 0 }),
        conversation(now() - 4 * MIN, { api_errors: 4, function_errors: 3, crashed: true }),
        conversation(now() - 6 * MIN, { api_errors: 50, function_errors: 50, crashed: true }), // before the 5m window
        conversation(now() - MIN, {
          project_id: 'PROJECT-other00',
          api_errors: 50,
          function_errors: 50,
          crashed: true,
        }),
        conversation(now() - MIN, {
          account_id: 'ACCOUNT-other00',
          project_id: 'PROJECT-other01',
          api_errors: 50,
          function_errors: 50,
          crashed: true,
        }),
      );
      const rule = await createRule({ metric, operator: '>', threshold_value: 1000, window_duration: '5m' });
      await evaluate(t.lp);
      assert.equal((await getRule(rule.id)).current_value, expected);
    });
  }

  it('[ALERT-2][ALERT-7] an account-wide rule counts every project of the account, and the window follows window_duration', async () => {
    add(
      conversation(now() - MIN),
      conversation(now() - MIN, { project_id: 'PROJECT-other00' }),
      conversation(now() - 30 * MIN),
      conversation(now() - 61 * MIN),
      conversation(now() - MIN, { account_id: 'ACCOUNT-other00' }),
    );
    const wide5 = await createRule({
      project_id: null,
      metric: 'call_volume',
      operator: '<',
      threshold_value: 0,
      window_duration: '5m',
    });
    const wide60 = await createRule({
      project_id: null,
      metric: 'call_volume',
      operator: '<',
      threshold_value: 0,
      window_duration: '60m',
    });
    const project60 = await createRule({
      metric: 'call_volume',
      operator: '<',
      threshold_value: 0,
      window_duration: '60m',
    });
    await evaluate(t.lp);
    assert.equal((await getRule(wide5.id)).current_value, 2);
    assert.equal((await getRule(wide60.id)).current_value, 3);
    assert.equal((await getRule(project60.id)).current_value, 2);
  });

  it('[ALERT-6] a window without conversations gives no_data with no value and no notification', async () => {
    add(conversation(now() - 20 * MIN, { api_errors: 9 }));
    const rule = await createRule({ metric: 'api_errors', operator: '>', threshold_value: 1, window_duration: '10m' });
    const result = await evaluate(t.lp);
    assert.deepEqual(
      result.changes.map((ch) => [ch.from, ch.to, ch.event_type]),
      [['ok', 'no_data', null]],
    );
    const after = await getRule(rule.id);
    assert.equal(after.current_state, 'no_data');
    assert.equal(after.current_value, null);
    assert.ok(after.last_evaluated_at);
    const log = await call<{ deliveries: unknown[] }>('GET', `${t.lp.urls.admin}/webhook-deliveries`);
    assert.deepEqual(log.body.deliveries, []);
  });

  it('[ALERT-6][ALERT-4] from no_data a breach fires alerts.triggered with previous_state no_data', async () => {
    const rule = await createRule({ metric: 'call_volume', operator: '>', threshold_value: 1 });
    await evaluate(t.lp);
    assert.equal((await getRule(rule.id)).current_state, 'no_data');
    add(conversation(now() - MIN), conversation(now() - MIN));
    await evaluate(t.lp);
    await receiver.waitFor(1);
    const [n] = notifications();
    assert.equal(n!.event_type, 'alerts.triggered');
    assert.equal(n!.alert.previous_state, 'no_data');
    assert.equal(n!.alert.current_value, 2);
  });

  it('[ALERT-6] a failed evaluation makes a rule unknown; a firing alert keeps firing until a value within the threshold is seen', async () => {
    add(conversation(now() - MIN, { api_errors: 5 }));
    const calm = await createRule({ name: 'calm', metric: 'api_errors', operator: '>', threshold_value: 100 });
    const firing = await createRule({ name: 'firing', metric: 'api_errors', operator: '>', threshold_value: 1 });
    await evaluate(t.lp);
    await receiver.waitFor(1);
    const evaluatedAt = (await getRule(calm.id)).last_evaluated_at;

    await t.admin.setAlertSwitches({ evaluationFails: true });
    await advance(MIN);
    const failed = await evaluate(t.lp);
    assert.deepEqual(
      failed.changes.map((ch) => [ch.rule_id, ch.to, ch.event_type]),
      [[calm.id, 'unknown', null]],
    );
    const unknown = await getRule(calm.id);
    assert.equal(unknown.current_state, 'unknown');
    assert.equal(unknown.current_value, null);
    assert.equal(unknown.last_evaluated_at, evaluatedAt, 'a failed evaluation is not an evaluation');
    const still = await getRule(firing.id);
    assert.equal(still.current_state, 'alert');
    assert.equal(still.current_value, 5);

    await t.admin.setAlertSwitches({ evaluationFails: false });
    const back = await evaluate(t.lp);
    assert.deepEqual(
      back.changes.map((ch) => [ch.rule_id, ch.from, ch.to, ch.event_type]),
      [[calm.id, 'unknown', 'ok', null]],
    );
    const log = await call<{ deliveries: Array<{ event_type: string }> }>(
      'GET',
      `${t.lp.urls.admin}/webhook-deliveries`,
    );
    assert.deepEqual(
      log.body.deliveries.map((d) => d.event_type),
      ['alerts.triggered'],
      'only the first alerts.triggered was sent',
    );
  });

  it('[ALERT-6][ALERT-8] an alert whose window runs out of data stays in GET /v1/alerts with its last value', async () => {
    add(conversation(now() - MIN, { api_errors: 4 }));
    const rule = await createRule({ name: 'errors', metric: 'api_errors', operator: '>', threshold_value: 2 });
    await createRule({ name: 'quiet', metric: 'call_volume', operator: '>', threshold_value: 50 });
    await evaluate(t.lp);
    const firedAt = (await getRule(rule.id)).since;
    await advance(30 * MIN);
    await evaluate(t.lp);
    const res = await alerts<CurrentAlertList>(t.lp, 'GET', '/v1/alerts');
    assert.equal(res.status, 200);
    assert.equal(res.body.alerts.length, 1);
    const [a] = res.body.alerts;
    assert.deepEqual(
      {
        rule_id: a!.rule_id,
        name: a!.name,
        metric: a!.metric,
        current_value: a!.current_value,
        triggered_at: a!.triggered_at,
        window_duration: a!.window_duration,
      },
      {
        rule_id: rule.id,
        name: 'errors',
        metric: 'api_errors',
        current_value: 4,
        triggered_at: firedAt,
        window_duration: '5m',
      },
    );
    assert.ok(Date.parse(a!.last_evaluated_at!) > Date.parse(firedAt!));
    assert.equal((await alerts<CurrentAlertList>(t.lp, 'GET', '/v1/alerts?metric=call_volume')).body.alerts.length, 0);
    assert.equal(
      (await alerts<CurrentAlertList>(t.lp, 'GET', `/v1/alerts?project_id=${LOCAL_PROJECT.slug}`)).body.alerts.length,
      1,
    );
  });

  it('[ALERT-3][ALERT-6] a rule created disabled reports ok (the spec: a new rule reports ok until its first evaluation), is not evaluated and never fires', async () => {
    add(conversation(now() - MIN, { api_errors: 9 }));
    const rule = await createRule({ metric: 'api_errors', operator: '>', threshold_value: 1, enabled: false });
    assert.equal(rule.current_state, 'ok');
    assert.equal(rule.current_value, null);
    const result = await evaluate(t.lp);
    assert.deepEqual(result.changes, []);
    const after = await getRule(rule.id);
    assert.equal(after.last_evaluated_at, null);
    assert.equal(after.current_state, 'ok');
  });

  it('[ALERT-7] latency looks only at turns answered inside the window, leaving out turns without user input', async () => {
    const c = conversation(now() - 50 * MIN);
    c.turns.push(turn(now() - 40 * MIN, 9000)); // answered before the 10m window
    c.turns.push({ ...turn(now() - 2 * MIN, 0), user_input: null, user_input_datetime: null }); // the greeting
    c.turns.push(turn(now() - MIN, 700));
    add(c);
    const rule = await createRule({
      metric: 'turn_latency_p50',
      operator: '>',
      threshold_value: 5000,
      window_duration: '10m',
    });
    await evaluate(t.lp);
    assert.equal((await getRule(rule.id)).current_value, 700);
  });
});

describe('Alerts evaluator timer', () => {
  it('[ALERT-6][ALERT-7] rules are evaluated on a timer without anyone asking', async () => {
    const lp = await startLocalPlatform({ seed: 'base', alertEvaluationIntervalMs: 20 });
    try {
      lp.platform.state.conversations.push(conversation(lp.platform.clock.now() - MIN, { api_errors: 3 }));
      const rule = (
        await alerts<AlertRule>(
          lp,
          'POST',
          '/v1/alert-rules',
          validRule({ metric: 'api_errors', operator: '>', threshold_value: 1 }),
        )
      ).body;
      const deadline = Date.now() + 5000;
      let seen: AlertRule;
      do {
        await new Promise((r) => setTimeout(r, 20));
        seen = (await alerts<AlertRule>(lp, 'GET', `/v1/alert-rules/${rule.id}`)).body;
      } while (seen.last_evaluated_at === null && Date.now() < deadline);
      assert.equal(seen.current_state, 'alert');
      assert.equal(seen.current_value, 3);
    } finally {
      await lp.close();
    }
  });
});
