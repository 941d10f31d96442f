import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  verifyWebhookSignature,
  WEBHOOK_ENDPOINT_ID_PATTERN,
  type WebhookEndpoint,
  type WebhookEndpointList,
  webhookEndpointListSchema,
  type WebhookEndpointWithSecret,
  webhookEndpointWithSecretSchema,
} from '../../../src/contract/alerts';
import type { StoredDelivery } from '../../../src/localPlatform/alerts/model';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';
import { alerts, conversation, evaluate, validRule } from '../../support/alerts';
import { startReceiver } from '../../support/webhookReceiver';

interface ErrorBody {
  message: string;
  errors: Array<{ field: string; message: string }>;
}

const MIN = 60_000;
const BOTH = ['alerts.triggered', 'alerts.resolved'];

describe('Webhook endpoints and signed deliveries (spec: Webhook endpoint, Events: alert notifications)', () => {
  const t = useLocalPlatform({ webhookRetryBaseMs: 5 });
  const receivers: Array<Awaited<ReturnType<typeof startReceiver>>> = [];
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close();
  });
  const receiver = async (statuses: number[] = []) => {
    const r = await startReceiver({ statuses });
    receivers.push(r);
    return r;
  };
  const createEndpoint = async (url: string, eventTypes: string[] = BOTH, name = 'Pager') => {
    const res = await alerts<WebhookEndpointWithSecret>(t.lp, 'POST', '/v1/webhook-endpoints', {
      name,
      url,
      event_types: eventTypes,
    });
    assert.equal(res.status, 201);
    return res.body;
  };
  const now = () => t.lp.platform.clock.now();
  /** Creates a rule and data that breach it, evaluates, then brings the value back and evaluates again. */
  const fireAndResolve = async () => {
    t.lp.platform.state.conversations.push(conversation(now() - MIN, { api_errors: 5 }));
    await alerts(
      t.lp,
      'POST',
      '/v1/alert-rules',
      validRule({ metric: 'api_errors', operator: '>', threshold_value: 2 }),
    );
    await evaluate(t.lp);
    await t.admin.advanceClock(10 * MIN);
    t.lp.platform.state.conversations.push(conversation(now() - MIN, { api_errors: 0 }));
    await evaluate(t.lp);
  };
  const deliveries = async (endpointId?: string) =>
    (
      await call<{ deliveries: StoredDelivery[] }>(
        'GET',
        `${t.lp.urls.admin}/webhook-deliveries${endpointId ? `?endpoint_id=${endpointId}` : ''}`,
      )
    ).body.deliveries;
  /** Waits until no delivery is pending any more. */
  const settled = async () => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const all = await deliveries();
      if (all.every((d) => d.status !== 'pending')) return all;
      if (Date.now() > deadline) throw new Error('deliveries still pending');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  it('[HOOK-1] POST /v1/webhook-endpoints returns the record with signing_secret; reads never show it again', async () => {
    const created = await createEndpoint('http://127.0.0.1:1/hooks');
    const parsed = webhookEndpointWithSecretSchema.parse(created);
    assert.match(parsed.id!, WEBHOOK_ENDPOINT_ID_PATTERN);
    assert.match(parsed.signing_secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.deepEqual([parsed.name, parsed.url, parsed.event_types], ['Pager', 'http://127.0.0.1:1/hooks', BOTH]);
    const one = await alerts<WebhookEndpoint>(t.lp, 'GET', `/v1/webhook-endpoints/${created.id}`);
    assert.equal(one.status, 200);
    assert.equal('signing_secret' in one.body, false);
    const list = await alerts<WebhookEndpointList>(t.lp, 'GET', '/v1/webhook-endpoints');
    assert.deepEqual(
      webhookEndpointListSchema.parse(list.body).webhook_endpoints.map((e) => [e.id, 'signing_secret' in e]),
      [[created.id, false]],
    );
    assert.equal(JSON.stringify(list.body).includes(created.signing_secret), false);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['no name', { name: undefined }, 'name'],
    ['a name of 129 characters', { name: 'n'.repeat(129) }, 'name'],
    ['a url that is not a URL', { url: 'not a url' }, 'url'],
    ['an ftp url', { url: 'ftp://127.0.0.1/x' }, 'url'],
    ['no event types', { event_types: [] }, 'event_types'],
    ['an unknown event type', { event_types: ['alerts.triggered', 'alerts.snoozed'] }, 'event_types[1]'],
    ['a repeated event type', { event_types: ['alerts.resolved', 'alerts.resolved'] }, 'event_types'],
    ['event_types that is a string', { event_types: 'alerts.triggered' }, 'event_types'],
    ['a signing_secret of its own', { signing_secret: 'whsec_mine' }, 'signing_secret'],
  ];
  for (const [what, change, field] of invalid) {
    it(`[HOOK-1][ALERT-11] an endpoint with ${what}: 400 naming ${field}`, async () => {
      const res = await alerts<ErrorBody>(t.lp, 'POST', '/v1/webhook-endpoints', {
        name: 'Pager',
        url: 'http://127.0.0.1:1/',
        event_types: BOTH,
        ...change,
      });
      assert.equal(res.status, 400);
      assert.ok(
        res.body.errors.some((e) => e.field === field),
        JSON.stringify(res.body.errors),
      );
    });
  }

  it('[HOOK-1] PATCH changes name, url or event_types; a malformed id is 422, an unknown one 404; DELETE answers 204', async () => {
    const created = await createEndpoint('http://127.0.0.1:1/hooks');
    const res = await alerts<WebhookEndpoint>(t.lp, 'PATCH', `/v1/webhook-endpoints/${created.id}`, {
      event_types: ['alerts.resolved'],
      url: 'http://localhost:2/x',
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      [res.body.name, res.body.url, res.body.event_types],
      ['Pager', 'http://localhost:2/x', ['alerts.resolved']],
    );
    assert.equal('signing_secret' in res.body, false);
    assert.equal((await alerts(t.lp, 'PATCH', `/v1/webhook-endpoints/${created.id}`, { url: 'nope' })).status, 400);
    assert.equal((await alerts(t.lp, 'GET', '/v1/webhook-endpoints/hook-1')).status, 422);
    assert.equal((await alerts(t.lp, 'PATCH', '/v1/webhook-endpoints/we_999', { name: 'x' })).status, 404);
    assert.equal((await alerts(t.lp, 'DELETE', `/v1/webhook-endpoints/${created.id}`)).status, 204);
    assert.equal((await alerts(t.lp, 'GET', `/v1/webhook-endpoints/${created.id}`)).status, 404);
  });

  it('[HOOK-3] creating more endpoints than the account may have answers 409', async () => {
    const max = t.lp.platform.options.maxWebhookEndpoints;
    for (let i = 0; i < max; i++) await createEndpoint(`http://127.0.0.1:1/${i}`);
    const over = await alerts<ErrorBody>(t.lp, 'POST', '/v1/webhook-endpoints', {
      name: 'extra',
      url: 'http://127.0.0.1:1/x',
      event_types: BOTH,
    });
    assert.equal(over.status, 409);
    assert.match(over.body.message, new RegExp(`at most ${max} webhook endpoints`));
  });

  it('[HOOK-2] every endpoint whose event_types include the event gets a signed POST; the others do not', async () => {
    const all = await receiver();
    const triggeredOnly = await receiver();
    const resolvedOnly = await receiver();
    const eAll = await createEndpoint(all.url, BOTH, 'all');
    const eTrig = await createEndpoint(triggeredOnly.url, ['alerts.triggered'], 'triggered');
    const eRes = await createEndpoint(resolvedOnly.url, ['alerts.resolved'], 'resolved');
    await fireAndResolve();
    await all.waitFor(2);
    await triggeredOnly.waitFor(1);
    await resolvedOnly.waitFor(1);
    await settled();
    const types = (r: typeof all) => r.received.map((x) => (JSON.parse(x.body) as { event_type: string }).event_type);
    assert.deepEqual(types(all).sort(), ['alerts.resolved', 'alerts.triggered']);
    assert.deepEqual(types(triggeredOnly), ['alerts.triggered']);
    assert.deepEqual(types(resolvedOnly), ['alerts.resolved']);
    for (const [r, e] of [
      [all, eAll],
      [triggeredOnly, eTrig],
      [resolvedOnly, eRes],
    ] as const) {
      for (const got of r.received) {
        assert.equal(got.headers['content-type'], 'application/json');
        assert.deepEqual(verifyWebhookSignature({ secret: e.signing_secret, body: got.body, headers: got.headers }), {
          ok: true,
        });
        assert.equal(
          verifyWebhookSignature({
            secret: eAll === e ? eTrig.signing_secret : eAll.signing_secret,
            body: got.body,
            headers: got.headers,
          }).ok,
          false,
          "another endpoint's secret does not verify",
        );
      }
    }
  });

  it('[HOOK-2] a failed delivery is retried with the same webhook-id until the endpoint answers 2xx', async () => {
    const r = await receiver([500, 503]);
    const endpoint = await createEndpoint(r.url, ['alerts.triggered']);
    t.lp.platform.state.conversations.push(conversation(now() - MIN, { crashed: true }));
    await alerts(
      t.lp,
      'POST',
      '/v1/alert-rules',
      validRule({ metric: 'call_crashes', operator: '>', threshold_value: 0 }),
    );
    await evaluate(t.lp);
    await r.waitFor(3);
    const [log] = await settled();
    assert.equal(log!.status, 'delivered');
    assert.deepEqual(
      log!.attempts.map((a) => a.status_code),
      [500, 503, 200],
    );
    assert.equal(log!.endpoint_id, endpoint.id);
    const ids = new Set(r.received.map((x) => x.headers['webhook-id']));
    assert.deepEqual([...ids], [log!.id]);
    for (const got of r.received)
      assert.equal(
        verifyWebhookSignature({ secret: endpoint.signing_secret, body: got.body, headers: got.headers }).ok,
        true,
      );
  });

  it('[HOOK-2] delivery gives up after 5 attempts, and an unreachable endpoint is recorded with no status code', async () => {
    const failing = await receiver([500, 500, 500, 500, 500, 500]);
    const gone = await receiver();
    const goneUrl = gone.url;
    await gone.close();
    receivers.splice(receivers.indexOf(gone), 1);
    const e1 = await createEndpoint(failing.url, ['alerts.triggered'], 'failing');
    const e2 = await createEndpoint(goneUrl, ['alerts.triggered'], 'gone');
    t.lp.platform.state.conversations.push(conversation(now() - MIN));
    await alerts(
      t.lp,
      'POST',
      '/v1/alert-rules',
      validRule({ metric: 'call_volume', operator: '>=', threshold_value: 1 }),
    );
    await evaluate(t.lp);
    await settled();
    const [d1] = await deliveries(e1.id);
    assert.equal(d1!.status, 'failed');
    assert.equal(d1!.attempts.length, 5);
    assert.match(d1!.last_error!, /HTTP 500.*5 attempts/);
    assert.equal(failing.received.length, 5);
    const [d2] = await deliveries(e2.id);
    assert.equal(d2!.status, 'failed');
    assert.equal(d2!.attempts.length, 5);
    assert.ok(d2!.attempts.every((a) => a.status_code === null && /Could not reach/.test(a.error!)));
  });

  it('[HOOK-3] rotate-secret returns a new secret once; later deliveries are signed with it and not with the old one', async () => {
    const r = await receiver();
    const created = await createEndpoint(r.url, ['alerts.triggered']);
    const rotated = await alerts<WebhookEndpointWithSecret>(
      t.lp,
      'POST',
      `/v1/webhook-endpoints/${created.id}/rotate-secret`,
    );
    assert.equal(rotated.status, 200);
    assert.equal(rotated.body.id, created.id);
    assert.match(rotated.body.signing_secret, /^whsec_/);
    assert.notEqual(rotated.body.signing_secret, created.signing_secret);
    assert.equal(
      'signing_secret' in (await alerts<WebhookEndpoint>(t.lp, 'GET', `/v1/webhook-endpoints/${created.id}`)).body,
      false,
    );
    assert.equal((await alerts(t.lp, 'POST', '/v1/webhook-endpoints/we_424242/rotate-secret')).status, 404);
    assert.equal((await alerts(t.lp, 'POST', '/v1/webhook-endpoints/bad/rotate-secret')).status, 422);
    t.lp.platform.state.conversations.push(conversation(now() - MIN));
    await alerts(
      t.lp,
      'POST',
      '/v1/alert-rules',
      validRule({ metric: 'call_volume', operator: '>=', threshold_value: 1 }),
    );
    await evaluate(t.lp);
    const [got] = await r.waitFor(1);
    assert.equal(
      verifyWebhookSignature({ secret: rotated.body.signing_secret, body: got!.body, headers: got!.headers }).ok,
      true,
    );
    assert.equal(
      verifyWebhookSignature({ secret: created.signing_secret, body: got!.body, headers: got!.headers }).ok,
      false,
    );
  });

  it('[HOOK-2] the local platform sends only to loopback: another host is recorded as failed without retries', async () => {
    const endpoint = await createEndpoint('https://hooks.example.com/alerts', ['alerts.triggered']);
    t.lp.platform.state.conversations.push(conversation(now() - MIN));
    await alerts(
      t.lp,
      'POST',
      '/v1/alert-rules',
      validRule({ metric: 'call_volume', operator: '>=', threshold_value: 1 }),
    );
    await evaluate(t.lp);
    const [d] = await settled();
    assert.equal(d!.endpoint_id, endpoint.id);
    assert.equal(d!.status, 'failed');
    assert.deepEqual(d!.attempts, []);
    assert.match(d!.last_error!, /loopback/);
  });

  it('[HOOK-2] a deleted endpoint gets nothing', async () => {
    const r = await receiver();
    const endpoint = await createEndpoint(r.url);
    await alerts(t.lp, 'DELETE', `/v1/webhook-endpoints/${endpoint.id}`);
    await fireAndResolve();
    assert.deepEqual(await deliveries(), []);
    assert.equal(r.received.length, 0);
  });
});
