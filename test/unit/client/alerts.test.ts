import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AlertsClient } from '../../../src/client/alerts';
import type { RequestLog } from '../../../src/client/transport';
import { type CreateAlertRuleRequest, verifyWebhookSignature, signWebhook } from '../../../src/contract/alerts';
import { LOCAL_KEYS, LOCAL_PROJECT } from '../../../src/localPlatform/seed/credentials';
import { failure, isError, localContext } from '../../support/localClient';
import { buildConversation, insertConversations } from '../../support/conversations';
import { assumed, useLocalPlatform } from '../../support/localPlatform';
import type { FaultRequest } from '../../../src/localPlatform/adminApi';

const rule = (over: Partial<CreateAlertRuleRequest> = {}): CreateAlertRuleRequest => ({
  name: 'Slow answers',
  project_id: LOCAL_PROJECT.slug,
  metric: 'turn_latency_p95',
  operator: '>',
  threshold_value: 2000,
  window_duration: '5m',
  ...over,
});

const endpoint = {
  name: 'Pager',
  url: 'http://127.0.0.1:9/hooks',
  event_types: ['alerts.triggered' as const, 'alerts.resolved' as const],
};

describe('client: Alerts API and webhook endpoints', () => {
  const t = useLocalPlatform();
  const fault = (body: FaultRequest): Promise<unknown> => t.admin.addFault({ family: 'build', ...body });
  const client = (opts: Parameters<typeof localContext>[1] = {}): AlertsClient =>
    new AlertsClient(localContext(t.lp, opts));

  describe('rules', () => {
    it('[ALERT-8][ALERT-2][ALERT-3] creates a rule that reports ok, opens, updates a subset of fields and deletes it', async (ctx) => {
      if (assumed('GET /v1/alert-rules/{rule_id} and DELETE /v1/alert-rules/{rule_id}', ctx)) return;
      const alerts = client();
      const created = await alerts.createRule(rule());
      assert.match(created.id, /^ar_[A-Za-z0-9]+$/);
      assert.deepEqual([created.current_state, created.enabled, created.project_id], ['ok', true, LOCAL_PROJECT.id]);
      assert.equal((await alerts.getRule(created.id)).name, 'Slow answers');
      const updated = await alerts.updateRule(created.id, { threshold_value: 3000 });
      assert.deepEqual(
        [updated.threshold_value, updated.name, updated.metric],
        [3000, 'Slow answers', 'turn_latency_p95'],
      );
      await alerts.deleteRule(created.id);
      assert.deepEqual(await alerts.listRules(), []);
    });

    it('[ALERT-10][ALERT-2] lists rules narrowed by project_id, metric and enabled; null project_id is account-wide', async (ctx) => {
      if (assumed('GET /v1/alert-rules', ctx)) return;
      const alerts = client();
      const p95 = await alerts.createRule(rule());
      const errors = await alerts.createRule(
        rule({ name: 'API errors', project_id: null, metric: 'api_errors', threshold_value: 5 }),
      );
      const off = await alerts.createRule(
        rule({ name: 'Crashes', metric: 'call_crashes', threshold_value: 0, enabled: false }),
      );
      const ids = (rules: Array<{ id: string }>): string[] => rules.map((r) => r.id);
      assert.deepEqual(ids(await alerts.listRules()), [p95.id, errors.id, off.id]);
      assert.deepEqual(ids(await alerts.listRules({ project_id: LOCAL_PROJECT.slug })), [p95.id, off.id]);
      assert.deepEqual(ids(await alerts.listRules({ metric: 'api_errors' })), [errors.id]);
      assert.deepEqual(ids(await alerts.listRules({ enabled: false })), [off.id]);
      assert.equal(errors.project_id, null);
    });

    it('[ALERT-2][ALERT-11] an invalid rule is refused before sending, naming each field', async () => {
      const logs: RequestLog[] = [];
      const alerts = client({ logs });
      const err = await failure(
        alerts.createRule(rule({ metric: 'cpu' as 'api_errors', threshold_value: -1, window_duration: '15m' as '5m' })),
      );
      assert.equal(err.kind, 'invalidInput');
      assert.deepEqual(err.fieldErrors.map((e) => e.field).sort(), ['metric', 'threshold_value', 'window_duration']);
      await assert.rejects(alerts.updateRule('ar_1', { operator: '=' as '>' }), isError('invalidInput', /operator/));
      await assert.rejects(alerts.listRules({ metric: 'cpu' as 'api_errors' }), isError('invalidInput', /metric/));
      await assert.rejects(alerts.deleteRule(''), isError('invalidInput', /rule_id: is required/));
      assert.deepEqual(logs, []);
    });

    it('[ALERT-11] a 400 from the platform keeps its field errors', async () => {
      const err = await failure(client().createRule(rule({ project_id: 'no-such-project' })));
      assert.equal(err.kind, 'validation');
      assert.deepEqual(
        err.fieldErrors.map((e) => e.field),
        ['project_id'],
      );
      assert.match(
        err.message,
        /Create alert rule "Slow answers" failed: the request was not valid \(Alerts API, HTTP 400\)/,
      );
    });

    it('[ALERT-1] a malformed rule id is 422 naming rule_id; an unknown one is 404, not a failed assumption', async (ctx) => {
      if (assumed('GET /v1/alert-rules/{rule_id}', ctx)) return;
      const alerts = client();
      const malformed = await failure(alerts.getRule('rule-1'));
      assert.equal(malformed.kind, 'unprocessable');
      assert.deepEqual(
        malformed.fieldErrors.map((e) => e.field),
        ['rule_id'],
      );
      const unknown = await failure(alerts.getRule('ar_999999'));
      assert.equal(unknown.kind, 'notFound');
      assert.equal(unknown.assumption, undefined);
      assert.match(unknown.message, /Open alert rule ar_999999 failed: it was not found/);
    });

    it('[ALERT-9] the eleventh rule of an account is a 409 that says the limit was reached', async (ctx) => {
      if (assumed('GET /v1/alert-rules', ctx)) return;
      const alerts = client();
      for (let i = 0; i < 10; i++) await alerts.createRule(rule({ name: `Rule ${i}` }));
      const err = await failure(alerts.createRule(rule({ name: 'One more' })));
      assert.equal(err.kind, 'conflict');
      assert.match(
        err.message,
        /maximum number of alert rules or webhook endpoints \(Alerts API, HTTP 409\)\. Alert rule limit reached/,
      );
      assert.equal((await alerts.listRules()).length, 10);
    });

    it('[ALERT-11][AUTH-1] a rejected key says which credential to check', async (ctx) => {
      if (assumed('GET /v1/alert-rules', ctx)) return;
      await assert.rejects(
        client({ overrides: { alertsApiKey: LOCAL_KEYS.agents } }).listRules(),
        isError('unauthorized', /Alerts API key/),
      );
    });

    it('[ALERT-11] a monitoring backend sync failure is a 502: a creation is sent once, an update is retried', async (ctx) => {
      if (assumed('GET /v1/alert-rules/{rule_id}', ctx)) return;
      const logs: RequestLog[] = [];
      const alerts = client({ logs });
      const created = await alerts.createRule(rule());
      await t.admin.setAlertSwitches({ backendSyncFails: true });
      await assert.rejects(
        alerts.createRule(rule({ name: 'Second' })),
        isError('badGateway', /monitoring backend failed to sync/),
      );
      assert.equal(logs.at(-1)?.retries, 0);
      await assert.rejects(alerts.updateRule(created.id, { enabled: false }), isError('badGateway'));
      assert.equal(logs.at(-1)?.retries, 2);
      assert.equal((await alerts.getRule(created.id)).enabled, true, 'nothing was saved');
    });

    it('[ALERT-8] a creation that fails with a 5xx is not repeated; a read is', async (ctx) => {
      if (assumed('GET /v1/alert-rules', ctx)) return;
      const logs: RequestLog[] = [];
      const alerts = client({ logs });
      await fault({ method: 'POST', path: '/v1/alert-rules', status: 500, times: 1 });
      await assert.rejects(alerts.createRule(rule()), isError('server'));
      assert.equal(logs.at(-1)?.retries, 0);
      await fault({ method: 'GET', path: '/v1/alert-rules', status: 500, times: 1 });
      assert.deepEqual(await alerts.listRules(), [], 'no rule was made');
      assert.equal(logs.at(-1)?.retries, 1);
    });

    it('[ALERT-4][ALERT-8] current alerts list the rules firing now', async (ctx) => {
      if (assumed('GET /v1/alert-rules/{rule_id}', ctx)) return;
      const alerts = client();
      const busy = await alerts.createRule(
        rule({ name: 'Busy', metric: 'call_volume', operator: '>', threshold_value: 0 }),
      );
      await alerts.createRule(rule({ name: 'Quiet', metric: 'call_volume', operator: '>', threshold_value: 100 }));
      assert.deepEqual(await alerts.currentAlerts(), []);
      const now = Date.parse(t.lp.platform.now());
      insertConversations(t.lp, buildConversation(new Date(now - 60_000).toISOString()));
      await t.admin.evaluateAlerts();
      const firing = await alerts.currentAlerts();
      assert.deepEqual(
        firing.map((a) => [a.rule_id, a.current_value]),
        [[busy.id, 1]],
      );
      assert.deepEqual(await alerts.currentAlerts({ metric: 'api_errors' }), []);
      assert.equal((await alerts.getRule(busy.id)).current_state, 'alert');
    });
  });

  describe('webhook endpoints', () => {
    it('[HOOK-1] creation returns the signing secret once; lists and reads never carry it', async (ctx) => {
      if (assumed('GET /v1/webhook-endpoints', ctx)) return;
      const alerts = client();
      const created = await alerts.createEndpoint(endpoint);
      assert.match(created.signing_secret, /^whsec_/);
      const body = '{"event_type":"alerts.triggered"}';
      const headers = {
        'webhook-id': 'msg_1',
        'webhook-timestamp': '1700000000',
        'webhook-signature': signWebhook(created.signing_secret, 'msg_1', 1700000000, body),
      };
      assert.deepEqual(
        verifyWebhookSignature({ secret: created.signing_secret, body, headers, nowSeconds: 1700000000 }),
        { ok: true },
      );
      const listed = await alerts.listEndpoints();
      assert.deepEqual(
        listed.map((e) => [e.id, e.name, 'signing_secret' in e]),
        [[created.id, 'Pager', false]],
      );
      assert.equal('signing_secret' in (await alerts.getEndpoint(created.id!)), false);
    });

    it('[HOOK-1][HOOK-3] updates, rotates the secret (the new one shown once) and deletes an endpoint', async (ctx) => {
      if (assumed('the id of a created webhook endpoint, PATCH, DELETE and rotate of /v1/webhook-endpoints/{id}', ctx))
        return;
      const alerts = client();
      const created = await alerts.createEndpoint(endpoint);
      const updated = await alerts.updateEndpoint(created.id!, { event_types: ['alerts.triggered'] });
      assert.deepEqual([updated.name, updated.event_types], ['Pager', ['alerts.triggered']]);
      const rotated = await alerts.rotateSecret(created.id!);
      assert.match(rotated.signing_secret, /^whsec_/);
      assert.notEqual(rotated.signing_secret, created.signing_secret);
      await alerts.deleteEndpoint(created.id!);
      assert.deepEqual(await alerts.listEndpoints(), []);
    });

    it('[HOOK-1] an endpoint with an empty url or no event types is refused before sending', async () => {
      const logs: RequestLog[] = [];
      const alerts = client({ logs });
      const err = await failure(alerts.createEndpoint({ name: 'Pager', url: ' ', event_types: [] }));
      assert.deepEqual(err.fieldErrors.map((e) => e.field).sort(), ['event_types', 'url']);
      await assert.rejects(
        alerts.updateEndpoint('we_1', { event_types: [' ' as 'alerts.triggered'] }),
        isError('invalidInput', /event_types\.0/),
      );
      assert.deepEqual(logs, []);
    });

    it("[HOOK-1] event types beyond the spec's examples are sent as given, for the platform to judge", async () => {
      const logs: RequestLog[] = [];
      const alerts = client({ logs });
      await failure(
        alerts.createEndpoint({
          ...endpoint,
          event_types: ['alerts.triggered', 'alerts.acknowledged' as 'alerts.triggered'],
        }),
      );
      assert.deepEqual(
        logs.map((l) => [l.method, l.status]),
        [['POST', 400]],
      );
    });

    it('[HOOK-3] too many endpoints is a 409', async () => {
      const alerts = client();
      for (let i = 0; i < 10; i++) await alerts.createEndpoint({ ...endpoint, name: `Pager ${i}` });
      await assert.rejects(alerts.createEndpoint(endpoint), isError('conflict', /Webhook endpoint limit reached/));
    });

    it('[HOOK-3] a rotation that fails with a 5xx is not repeated, so the secret shown is never lost', async (ctx) => {
      if (assumed('the id of a created webhook endpoint and its rotate path', ctx)) return;
      const logs: RequestLog[] = [];
      const alerts = client({ logs });
      const created = await alerts.createEndpoint(endpoint);
      await fault({ method: 'POST', path: '/rotate-secret', status: 503, times: 1 });
      await assert.rejects(
        alerts.rotateSecret(created.id!),
        isError('unavailable', /Rotate the signing secret of webhook endpoint/),
      );
      assert.equal(logs.at(-1)?.retries, 0);
    });

    it('[HOOK-3] a platform without our rotate path (405) is told apart, naming the assumption', async (ctx) => {
      if (assumed('the id of a created webhook endpoint and its rotate path', ctx)) return;
      const alerts = client();
      const created = await alerts.createEndpoint(endpoint);
      await fault({ method: 'POST', path: '/rotate-secret', status: 405, times: 1 });
      const err = await failure(alerts.rotateSecret(created.id!));
      assert.equal(err.assumption?.row, 'Rotate-signing-secret path: not shown');
      assert.match(err.message, /docs\/api-assumptions\.md.*Rotate the signing secret in the studio instead\.$/);
    });

    it('[ALERT-10] an endpoint list that answers 404 names the assumption about it', async () => {
      await fault({ method: 'GET', path: '/^\\/v1\\/webhook-endpoints$/', status: 404, times: 1 });
      const err = await failure(client().listEndpoints());
      assert.equal(err.assumption?.row, 'Other webhook-endpoint operations (list, get, update, delete): not shown');
    });
  });
});
