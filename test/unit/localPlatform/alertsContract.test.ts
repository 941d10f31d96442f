import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  alertNotificationSchema,
  alertRuleSchema,
  createAlertRuleRequestSchema,
  signWebhook,
  verifyWebhookSignature,
} from '../../../src/contract/alerts';

const rule = {
  id: 'ar_1',
  name: 'Slow answers',
  project_id: null,
  metric: 'turn_latency_p95',
  operator: '>',
  threshold_value: 2000,
  window_duration: '5m',
  enabled: true,
  current_state: 'ok',
  created_at: '2026-01-05T09:00:00.000Z',
  updated_at: '2026-01-05T09:00:00.000Z',
  since: '2026-01-05T09:00:00.000Z',
  last_evaluated_at: null,
  current_value: null,
};

describe('Alerts contract (spec: Alert rule, Alert notification payload; signature scheme: Standard Webhooks)', () => {
  it('[ALERT-2] an alert rule reply keeps unknown extra fields and values; only a missing id is named', () => {
    const parsed = alertRuleSchema.parse({ ...rule, severity: 'high', metric: 'queue_depth' });
    assert.equal((parsed as Record<string, unknown>).severity, 'high');
    assert.equal(parsed.metric, 'queue_depth');
    const { threshold_value: _omit, id: _id, ...missing } = rule;
    const res = alertRuleSchema.safeParse(missing);
    assert.equal(res.success, false);
    assert.deepEqual(
      res.error.issues.map((i) => i.path.join('.')),
      ['id'],
    );
    assert.equal(alertRuleSchema.parse({ ...missing, id: 'ar_1' }).threshold_value, null);
  });

  it("[ALERT-1] a rule id off the pattern is read as given: ids are the platform's to judge", () => {
    assert.equal(alertRuleSchema.parse({ ...rule, id: 'rule-1' }).id, 'rule-1');
  });

  it('[ALERT-2] enabled is the only optional field of a new rule', () => {
    const {
      id: _i,
      current_state: _s,
      created_at: _c,
      updated_at: _u,
      since: _si,
      last_evaluated_at: _l,
      current_value: _v,
      enabled: _e,
      ...body
    } = rule;
    assert.equal(createAlertRuleRequestSchema.safeParse(body).success, true);
    for (const field of Object.keys(body)) {
      const without = Object.fromEntries(Object.entries(body).filter(([k]) => k !== field));
      const res = createAlertRuleRequestSchema.safeParse(without);
      assert.equal(res.success, false, field);
      assert.equal(res.error.issues[0]!.message, 'is required');
    }
  });

  it('[HOOK-2] a notification has event_type and alert fields; resolved ones carry resolved_at', () => {
    const n = alertNotificationSchema.parse({
      event_type: 'alerts.resolved',
      alert: {
        id: 'ar_1',
        name: 'x',
        project_id: 'PROJECT-1',
        metric: 'api_errors',
        operator: '>',
        threshold_value: 2,
        current_value: 1,
        previous_state: 'alert',
        resolved_at: '2026-01-05T09:00:00.000Z',
      },
    });
    assert.equal(n.alert.resolved_at, '2026-01-05T09:00:00.000Z');
    assert.equal(
      alertNotificationSchema.safeParse({ event_type: 'alerts.triggered', alert: { id: 'ar_1' } }).success,
      false,
    );
  });

  it('[HOOK-2] signatures follow the Standard Webhooks reference vector', () => {
    const sig = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    assert.equal(sig, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  describe('verifyWebhookSignature', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"event_type":"alerts.triggered"}';
    const ts = 1_767_600_000;
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(ts),
      'webhook-signature': signWebhook(secret, 'msg_1', ts, body),
    };
    const cases: Array<[string, Parameters<typeof verifyWebhookSignature>[0], boolean]> = [
      ['a genuine delivery', { secret, body, headers, nowSeconds: ts + 10 }, true],
      [
        'headers in a Headers object, mixed case',
        {
          secret,
          body,
          headers: new Headers({
            'Webhook-Id': 'msg_1',
            'Webhook-Timestamp': String(ts),
            'Webhook-Signature': headers['webhook-signature'],
          }),
          nowSeconds: ts,
        },
        true,
      ],
      [
        'one of several signatures matching',
        {
          secret,
          body,
          headers: { ...headers, 'webhook-signature': `v1,AAAA ${headers['webhook-signature']}` },
          nowSeconds: ts,
        },
        true,
      ],
      ['a changed body', { secret, body: body.replace('triggered', 'resolved'), headers, nowSeconds: ts }, false],
      ['another secret', { secret: 'whsec_c2VjcmV0', body, headers, nowSeconds: ts }, false],
      ['a changed webhook-id', { secret, body, headers: { ...headers, 'webhook-id': 'msg_2' }, nowSeconds: ts }, false],
      ['a timestamp older than the tolerance', { secret, body, headers, nowSeconds: ts + 301 }, false],
      [
        'a missing signature header',
        { secret, body, headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts) }, nowSeconds: ts },
        false,
      ],
    ];
    for (const [what, opts, ok] of cases) {
      it(`[HOOK-2] ${what}: ${ok ? 'verifies' : 'is rejected'}`, () => {
        const verdict = verifyWebhookSignature(opts);
        assert.equal(verdict.ok, ok, JSON.stringify(verdict));
      });
    }
  });
});
