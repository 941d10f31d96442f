import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALERT_RULE_ID_PATTERN,
  type AlertRule,
  type AlertRuleList,
  alertRuleListSchema,
  alertRuleSchema,
} from '../../../src/contract/alerts';
import { LOCAL_ACCOUNT, LOCAL_KEYS, LOCAL_PROJECT } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';
import { alerts, validRule } from '../../support/alerts';

interface ErrorBody {
  message: string;
  errors: Array<{ field: string; message: string }>;
}

describe('Alerts API: alert rules (spec: Alert rule, Alerts endpoints, Errors, Limits)', () => {
  const t = useLocalPlatform();

  it('[ALERT-8][ALERT-2][ALERT-3][ALERT-1] POST /v1/alert-rules creates a rule that is enabled by default and reports ok', async () => {
    const res = await alerts<AlertRule>(t.lp, 'POST', '/v1/alert-rules', validRule());
    assert.equal(res.status, 201);
    const rule = alertRuleSchema.parse(res.body);
    assert.match(rule.id, ALERT_RULE_ID_PATTERN);
    assert.deepEqual(
      {
        name: rule.name,
        project_id: rule.project_id,
        metric: rule.metric,
        operator: rule.operator,
        threshold_value: rule.threshold_value,
        window_duration: rule.window_duration,
      },
      {
        name: 'Slow answers',
        project_id: LOCAL_PROJECT.id,
        metric: 'turn_latency_p95',
        operator: '>',
        threshold_value: 2000,
        window_duration: '5m',
      },
    );
    assert.equal(rule.enabled, true);
    assert.equal(rule.current_state, 'ok');
    assert.equal(rule.current_value, null);
    assert.equal(rule.last_evaluated_at, null);
    assert.equal(rule.since, rule.created_at);
    const got = await alerts<AlertRule>(t.lp, 'GET', `/v1/alert-rules/${rule.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, rule);
  });

  it('[ALERT-2][ADDR-1] project_id null makes an account-wide rule; a project slug is stored as the prefixed id', async () => {
    const wide = await alerts<AlertRule>(
      t.lp,
      'POST',
      '/v1/alert-rules',
      validRule({ project_id: null, enabled: false }),
    );
    assert.equal(wide.status, 201);
    assert.equal(wide.body.project_id, null);
    assert.equal(wide.body.enabled, false);
    const bySlug = await alerts<AlertRule>(
      t.lp,
      'POST',
      '/v1/alert-rules',
      validRule({ project_id: LOCAL_PROJECT.slug }),
    );
    assert.equal(bySlug.body.project_id, LOCAL_PROJECT.id);
  });

  it('[ALERT-2] a name of exactly 128 characters and a threshold of 0 are accepted', async () => {
    const res = await alerts<AlertRule>(
      t.lp,
      'POST',
      '/v1/alert-rules',
      validRule({ name: 'n'.repeat(128), threshold_value: 0 }),
    );
    assert.equal(res.status, 201);
    assert.equal(res.body.threshold_value, 0);
  });

  const invalid: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['a metric outside the list', { metric: 'error_rate' }, 'metric', /must be one of turn_latency_p50/],
    ['an unknown operator', { operator: '==' }, 'operator', /must be one of >, <, >=, <=/],
    ['a negative threshold', { threshold_value: -1 }, 'threshold_value', /non-negative integer/],
    ['a fractional threshold', { threshold_value: 1.5 }, 'threshold_value', /non-negative integer/],
    ['a threshold sent as text', { threshold_value: '10' }, 'threshold_value', /non-negative integer/],
    ['a window outside 5m, 10m, 60m', { window_duration: '15m' }, 'window_duration', /5m, 10m, 60m/],
    ['an empty name', { name: '' }, 'name', /1 to 128 characters/],
    ['a name of 129 characters', { name: 'n'.repeat(129) }, 'name', /1 to 128 characters/],
    ['a blank name', { name: '   ' }, 'name', /blank/],
    ['enabled that is not a boolean', { enabled: 'yes' }, 'enabled', /true or false/],
    ['a project of no account', { project_id: 'PROJECT-00000000' }, 'project_id', /not a project of this account/],
    ['a project_id that is a number', { project_id: 5 }, 'project_id', /project id or null/],
    ['a read-only field', { current_state: 'alert' }, 'current_state', /read-only/],
    ['an unknown field', { severity: 'high' }, 'severity', /not a field/],
  ];
  for (const [what, change, field, message] of invalid) {
    it(`[ALERT-11][ALERT-2] POST with ${what}: 400 naming ${field}`, async () => {
      const res = await alerts<ErrorBody>(t.lp, 'POST', '/v1/alert-rules', validRule(change));
      assert.equal(res.status, 400);
      assert.equal(typeof res.body.message, 'string');
      const entry = res.body.errors.find((e) => e.field === field);
      assert.ok(entry, `errors name ${field}: ${JSON.stringify(res.body.errors)}`);
      assert.match(entry.message, message);
      assert.match(res.body.message, new RegExp(field));
      const list = await alerts<AlertRuleList>(t.lp, 'GET', '/v1/alert-rules');
      assert.equal(list.body.alert_rules.length, 0, 'nothing was created');
    });
  }

  it('[ALERT-11] every missing required field is named in one 400, and each bad field of a body is listed', async () => {
    const empty = await alerts<ErrorBody>(t.lp, 'POST', '/v1/alert-rules', {});
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body.errors.map((e) => e.field).sort(), [
      'metric',
      'name',
      'operator',
      'project_id',
      'threshold_value',
      'window_duration',
    ]);
    assert.ok(empty.body.errors.every((e) => e.message === 'is required'));
    const many = await alerts<ErrorBody>(
      t.lp,
      'POST',
      '/v1/alert-rules',
      validRule({ metric: 'x', threshold_value: -5, window_duration: '1h' }),
    );
    assert.deepEqual(
      many.body.errors.map((e) => e.field),
      ['metric', 'threshold_value', 'window_duration'],
    );
  });

  it('[ALERT-11] a body that is not a JSON object, or not JSON at all: 400 naming body', async () => {
    const arr = await alerts<ErrorBody>(t.lp, 'POST', '/v1/alert-rules', [validRule()]);
    assert.equal(arr.status, 400);
    assert.equal(arr.body.errors[0]!.field, 'body');
    const bad = await call<ErrorBody>('POST', `${t.lp.urls.build}/v1/alert-rules`, {
      headers: { 'x-api-key': LOCAL_KEYS.alerts, 'content-type': 'application/json' },
      rawBody: '{"name": ',
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0]!.field, 'body');
  });

  it('[ALERT-8] PATCH changes only the fields sent (flat) and moves updated_at', async () => {
    const created = (await alerts<AlertRule>(t.lp, 'POST', '/v1/alert-rules', validRule())).body;
    await t.admin.advanceClock(60_000);
    const res = await alerts<AlertRule>(t.lp, 'PATCH', `/v1/alert-rules/${created.id}`, {
      threshold_value: 3000,
      window_duration: '60m',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.threshold_value, 3000);
    assert.equal(res.body.window_duration, '60m');
    assert.equal(res.body.name, created.name);
    assert.equal(res.body.metric, created.metric);
    assert.equal(res.body.created_at, created.created_at);
    assert.ok(Date.parse(res.body.updated_at!) > Date.parse(created.updated_at!));
    const same = await alerts<AlertRule>(t.lp, 'PATCH', `/v1/alert-rules/${created.id}`, {});
    assert.deepEqual(same.body, res.body, 'an empty patch changes nothing');
    const wide = await alerts<AlertRule>(t.lp, 'PATCH', `/v1/alert-rules/${created.id}`, {
      project_id: null,
      name: 'Account latency',
    });
    assert.equal(wide.body.project_id, null);
    assert.equal(wide.body.name, 'Account latency');
  });

  it('[ALERT-8][ALERT-11] an invalid PATCH answers 400 naming the field and changes nothing', async () => {
    const created = (await alerts<AlertRule>(t.lp, 'POST', '/v1/alert-rules', validRule())).body;
    const res = await alerts<ErrorBody>(t.lp, 'PATCH', `/v1/alert-rules/${created.id}`, {
      name: 'Renamed',
      threshold_value: -3,
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body.errors.map((e) => e.field),
      ['threshold_value'],
    );
    const after = await alerts<AlertRule>(t.lp, 'GET', `/v1/alert-rules/${created.id}`);
    assert.equal(after.body.name, 'Slow answers');
    assert.equal(after.body.threshold_value, 2000);
  });

  it('[ALERT-3][ALERT-6] disabling a rule makes it unknown (not evaluated); enabling it again reports ok', async () => {
    const created = (await alerts<AlertRule>(t.lp, 'POST', '/v1/alert-rules', validRule())).body;
    const off = await alerts<AlertRule>(t.lp, 'PATCH', `/v1/alert-rules/${created.id}`, { enabled: false });
    assert.equal(off.body.enabled, false);
    assert.equal(off.body.current_state, 'unknown');
    const on = await alerts<AlertRule>(t.lp, 'PATCH', `/v1/alert-rules/${created.id}`, { enabled: true });
    assert.equal(on.body.current_state, 'ok');
  });

  for (const method of ['GET', 'PATCH', 'DELETE']) {
    it(`[ALERT-1][ALERT-11] ${method} with a malformed rule id: 422; a well-formed unknown id: 404`, async () => {
      const body = method === 'PATCH' ? { name: 'x' } : undefined;
      for (const bad of ['rule_1', 'ar_', 'ar_12-3', 'AR_1']) {
        const res = await alerts<ErrorBody>(t.lp, method, `/v1/alert-rules/${encodeURIComponent(bad)}`, body);
        assert.equal(res.status, 422, bad);
        assert.equal(res.body.errors[0]!.field, 'rule_id');
      }
      const missing = await alerts<ErrorBody>(t.lp, method, '/v1/alert-rules/ar_999999', body);
      assert.equal(missing.status, 404);
      assert.match(missing.body.message, /ar_999999/);
    });
  }

  it('[ALERT-8] DELETE removes a rule: 204, then 404', async () => {
    const created = (await alerts<AlertRule>(t.lp, 'POST', '/v1/alert-rules', validRule())).body;
    const del = await alerts(t.lp, 'DELETE', `/v1/alert-rules/${created.id}`);
    assert.equal(del.status, 204);
    assert.equal((await alerts(t.lp, 'GET', `/v1/alert-rules/${created.id}`)).status, 404);
  });

  it('[ALERT-9] the eleventh rule of an account answers 409 with a clear message; deleting one makes room', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await alerts<AlertRule>(t.lp, 'POST', '/v1/alert-rules', validRule({ name: `Rule ${i}` }));
      assert.equal(res.status, 201);
      ids.push(res.body.id);
    }
    const over = await alerts<ErrorBody>(t.lp, 'POST', '/v1/alert-rules', validRule({ name: 'One too many' }));
    assert.equal(over.status, 409);
    assert.match(over.body.message, /at most 10 alert rules/);
    assert.ok(Array.isArray(over.body.errors));
    await alerts(t.lp, 'DELETE', `/v1/alert-rules/${ids[0]}`);
    assert.equal((await alerts(t.lp, 'POST', '/v1/alert-rules', validRule({ name: 'Now it fits' }))).status, 201);
  });

  it('[ALERT-10] the list has every rule without pagination and narrows by project_id, metric and enabled', async () => {
    await alerts(t.lp, 'POST', '/v1/alert-rules', validRule({ name: 'a', metric: 'api_errors' }));
    await alerts(t.lp, 'POST', '/v1/alert-rules', validRule({ name: 'b', metric: 'api_errors', project_id: null }));
    await alerts(t.lp, 'POST', '/v1/alert-rules', validRule({ name: 'c', metric: 'call_volume', enabled: false }));
    const names = async (query: string) => {
      const res = await alerts<AlertRuleList>(t.lp, 'GET', `/v1/alert-rules${query}`);
      assert.equal(res.status, 200);
      return alertRuleListSchema.parse(res.body).alert_rules.map((r) => r.name);
    };
    const all = await alerts<Record<string, unknown>>(t.lp, 'GET', '/v1/alert-rules');
    assert.deepEqual(Object.keys(all.body), ['alert_rules']);
    assert.deepEqual(await names(''), ['a', 'b', 'c']);
    assert.deepEqual(await names(`?project_id=${LOCAL_PROJECT.id}`), ['a', 'c']);
    assert.deepEqual(await names(`?project_id=${LOCAL_PROJECT.slug}`), ['a', 'c']);
    assert.deepEqual(await names('?metric=api_errors'), ['a', 'b']);
    assert.deepEqual(await names('?enabled=false'), ['c']);
    assert.deepEqual(await names(`?metric=api_errors&enabled=true&project_id=${LOCAL_PROJECT.id}`), ['a']);
    assert.equal((await alerts(t.lp, 'GET', '/v1/alert-rules?metric=latency')).status, 400);
    assert.equal((await alerts(t.lp, 'GET', '/v1/alert-rules?enabled=yes')).status, 400);
  });

  it('[ALERT-8] GET /v1/alerts lists no alerts while every rule is ok', async () => {
    await alerts(t.lp, 'POST', '/v1/alert-rules', validRule());
    const res = await alerts<{ alerts: unknown[] }>(t.lp, 'GET', '/v1/alerts');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { alerts: [] });
  });

  const keys: Array<[string, Record<string, string>]> = [
    ['no key', {}],
    ['an unknown key', { 'x-api-key': 'nope' }],
    ['the Agents API key', { 'x-api-key': LOCAL_KEYS.agents }],
    ['the Alerts key sent as a bearer token', { authorization: `Bearer ${LOCAL_KEYS.alerts}` }],
  ];
  for (const [what, headers] of keys) {
    it(`[AUTH-1][ALERT-11] ${what}: 401 with the build error body on rules, alerts and endpoints`, async () => {
      for (const [method, path] of [
        ['GET', '/v1/alert-rules'],
        ['POST', '/v1/alert-rules'],
        ['GET', '/v1/alerts'],
        ['GET', '/v1/webhook-endpoints'],
        ['PATCH', '/v1/alert-rules/ar_1'],
      ]) {
        const res = await call<ErrorBody>(method!, `${t.lp.urls.build}${path}`, {
          headers,
          ...(method === 'GET' ? {} : { body: validRule() }),
        });
        assert.equal(res.status, 401, `${method} ${path}`);
        assert.equal(typeof res.body.message, 'string');
        assert.ok(Array.isArray(res.body.errors));
      }
    });
  }

  it('[ALERT-11] while the monitoring backend cannot sync, rule writes answer 502 and change nothing', async () => {
    const kept = (await alerts<AlertRule>(t.lp, 'POST', '/v1/alert-rules', validRule())).body;
    const on = await call('PATCH', `${t.lp.urls.admin}/alerts/switches`, { body: { backendSyncFails: true } });
    assert.equal(on.status, 200);
    const create = await alerts<ErrorBody>(t.lp, 'POST', '/v1/alert-rules', validRule({ name: 'Not saved' }));
    assert.equal(create.status, 502);
    assert.match(create.body.message, /Monitoring backend sync failed/);
    assert.deepEqual(create.body.errors, []);
    assert.equal((await alerts(t.lp, 'PATCH', `/v1/alert-rules/${kept.id}`, { name: 'Not renamed' })).status, 502);
    assert.equal((await alerts(t.lp, 'DELETE', `/v1/alert-rules/${kept.id}`)).status, 502);
    const reads = await alerts<AlertRuleList>(t.lp, 'GET', '/v1/alert-rules');
    assert.equal(reads.status, 200, 'reads still work');
    assert.deepEqual(
      reads.body.alert_rules.map((r) => r.name),
      ['Slow answers'],
    );
    await t.admin.setAlertSwitches({ backendSyncFails: false });
    assert.equal((await alerts(t.lp, 'POST', '/v1/alert-rules', validRule({ name: 'Saved' }))).status, 201);
  });

  it("[ALERT-8] rules belong to the key's account: another account sees none of them and gets 404", async () => {
    const created = (await alerts<AlertRule>(t.lp, 'POST', '/v1/alert-rules', validRule())).body;
    const state = t.lp.platform.state;
    state.accounts.push({ id: 'ACCOUNT-0000001', slug: 'other', name: 'Other' });
    state.keys.push({
      key: 'other_alerts_key',
      family: 'alerts',
      accountId: 'ACCOUNT-0000001',
      label: 'Other alerts key',
    });
    const list = await alerts<AlertRuleList>(t.lp, 'GET', '/v1/alert-rules', undefined, 'other_alerts_key');
    assert.deepEqual(list.body.alert_rules, []);
    assert.equal(
      (await alerts(t.lp, 'GET', `/v1/alert-rules/${created.id}`, undefined, 'other_alerts_key')).status,
      404,
    );
    const foreignProject = await alerts<ErrorBody>(t.lp, 'POST', '/v1/alert-rules', validRule(), 'other_alerts_key');
    assert.equal(foreignProject.status, 400, `${LOCAL_ACCOUNT.slug}'s project is not the other account's`);
    assert.equal(foreignProject.body.errors[0]!.field, 'project_id');
  });
});
