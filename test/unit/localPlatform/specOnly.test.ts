import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCAL_CONNECTORS, LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { SPEC_ENDPOINTS } from '../../../src/localPlatform/specOnly';
import { call, type JsonResponse } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

// The spec-only mode: only the spec's endpoints exist, and their answers carry only what the spec shows.

const ACCOUNT = '/v1/acme/support-desk';
const AGENT = '/v1/agents/ag_support';
const MAIN = `${AGENT}/branches/br_support_main`;

describe('local platform: spec-only endpoints (--responses spec-only)', () => {
  const t = useLocalPlatform({ responses: 'spec-only' });
  const chat = { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken };
  const agents = { 'x-api-key': LOCAL_KEYS.agents };
  const alerts = { 'x-api-key': LOCAL_KEYS.alerts };
  const runtime = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    call<Record<string, unknown>>(method, t.lp.urls.runtime + path, { headers, body });
  const build = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    call<Record<string, unknown>>(method, t.lp.urls.build + path, { headers, body });
  const keys = (res: JsonResponse<Record<string, unknown>>): string[] => Object.keys(res.body).sort();

  it('[CHAT-1][CHAT-5][CHAT-6] Chat create, respond and close answer with only their shown fields', async () => {
    const created = await runtime('POST', `${ACCOUNT}/chat/create`, chat, {});
    assert.deepEqual([created.status, keys(created)], [200, ['conversation_id', 'response']]);
    const id = created.body.conversation_id;
    const respond = await runtime('POST', `${ACCOUNT}/chat/respond`, chat, { conversation_id: id, message: 'Hi' });
    assert.equal(respond.status, 200);
    assert.deepEqual(
      keys(respond).filter((k) => k !== 'handoff'),
      ['conversation_id', 'end_conversation', 'response'],
    );
    const closed = await runtime('PUT', `${ACCOUNT}/chat/close`, chat, { conversation_id: id });
    assert.deepEqual([closed.status, closed.body], [200, { success: true }]);
  });

  it('[CONV-1][CONC-1] conversations v1, v2, v3 and the concurrency series answer', async () => {
    const key = { 'x-api-key': LOCAL_KEYS.conversations };
    for (const version of ['v1', 'v2', 'v3']) {
      const res = await runtime('GET', `/${version}/acme/support-desk/conversations?limit=1`, key);
      assert.equal(res.status, 200, version);
      assert.ok(Array.isArray(res.body.conversations), version);
    }
    const range = 'start_time=2026-01-04T00:00:00Z&end_time=2026-01-05T00:00:00Z';
    const conc = await runtime('GET', `${ACCOUNT}/conversations/concurrency?${range}`, key);
    assert.deepEqual([conc.status, keys(conc)], [200, ['account_id', 'intervals', 'project_id']]);
  });

  it('[OUT-6][EXT-4][DNI-3] outbound call, external event and number reservation answer', async () => {
    const outbound = await runtime(
      'POST',
      '/v1/outbound-calling',
      { 'X-Service-Auth-Token': LOCAL_CONNECTORS.outboundToken },
      { to_number: '+14155550100' },
    );
    assert.deepEqual([outbound.status, keys(outbound)], [200, ['call_sid']]);
    const created = await runtime('POST', `${ACCOUNT}/chat/create`, chat, {});
    const pending = await call<{ event_id: string }>('POST', `${t.lp.urls.admin}/external-events/pending`, {
      body: { conversation_id: created.body.conversation_id },
    });
    const event = await runtime(
      'POST',
      '/v1/external-events/webhook?event_id_location=payload&event_id_path=id&account_id=acme&project_id=support-desk',
      { 'X-Api-Key': LOCAL_KEYS.externalEvents },
      { id: pending.body.event_id },
    );
    assert.deepEqual([event.status, event.body], [201, undefined]);
    const dni = await runtime(
      'POST',
      '/v1/conversations/dni-reservation',
      { 'x-api-key': LOCAL_KEYS.dni },
      {
        attributes: { order: 'A-1' },
      },
    );
    assert.deepEqual([dni.status, keys(dni)], [200, ['dni']]);
  });

  it('[ALERT-8][HOOK-1] alert rule create and PATCH by id, current alerts and webhook endpoint create answer', async () => {
    const rule = await build('POST', '/v1/alert-rules', alerts, {
      name: 'Slow turns',
      project_id: 'support-desk',
      metric: 'turn_latency_p95',
      operator: '>',
      threshold_value: 1500,
      window_duration: '5m',
    });
    assert.equal(rule.status, 201);
    const patched = await build('PATCH', `/v1/alert-rules/${String(rule.body.id)}`, alerts, { enabled: false });
    assert.deepEqual([patched.status, patched.body.enabled], [200, false]);
    assert.equal((await build('GET', '/v1/alerts', alerts)).status, 200);
    const hook = await build('POST', '/v1/webhook-endpoints', alerts, {
      name: 'Pager',
      url: 'https://example.com/h',
      event_types: ['alerts.triggered'],
    });
    assert.deepEqual([hook.status, keys(hook)], [201, ['event_types', 'name', 'signing_secret', 'url']]);
  });

  it('[AGENT-1][AGENT-2][AGENT-3][AGENT-4][AGENT-5] agent, branch, merge, behavior and topic writes answer', async () => {
    const agent = await build('POST', '/v1/agents', agents, { name: 'Spec only', description: 'd' });
    assert.deepEqual([agent.status, keys(agent)], [201, ['agentId']]);
    const branch = await build('POST', `${AGENT}/branches`, agents, { name: 'feature' });
    assert.deepEqual([branch.status, keys(branch)], [201, ['name']]);
    const branchId = Object.values(t.lp.platform.state.agents.branches).find((b) => b.name === 'feature')!.branchId;
    const behavior = await build('PATCH', `${AGENT}/branches/${branchId}/behavior`, agents, { behavior: 'Be brief.' });
    assert.deepEqual([behavior.status, behavior.body], [200, { behavior: 'Be brief.' }]);
    const topic = await build('POST', `${AGENT}/branches/${branchId}/knowledge-base/topics`, agents, {
      name: 'Parking',
      content: 'Free after 6pm.',
    });
    assert.deepEqual([topic.status, topic.body], [201, { name: 'Parking', content: 'Free after 6pm.' }]);
    const merged = await build('POST', `${AGENT}/branches/${branchId}/merge`, agents);
    assert.equal(merged.status, 200);
  });

  it('[AGENT-6][AGENT-7][AGENT-8][AGENT-10][AGENT-11][AGENT-12] deployments, variables and phone numbers answer', async () => {
    const published = await build('POST', `${AGENT}/deployments/publish`, agents, { environment: 'sandbox' });
    assert.deepEqual([published.status, keys(published)], [200, ['deployment', 'testRunIds']]);
    const id = (published.body.deployment as { id: string }).id;
    const promoted = await build('POST', `${AGENT}/deployments/${id}/promote`, agents);
    assert.equal(promoted.status, 200);
    const rolled = await build('POST', `${AGENT}/deployments/${id}/rollback`, agents, { deploymentMessage: '' });
    assert.ok(rolled.status === 200 || rolled.status === 201, String(rolled.status));
    assert.ok('deployment' in rolled.body);
    const vars = await build('PATCH', `${AGENT}/real-time-configs/store-settings/variables`, agents, {
      variables: { holidayMode: true },
    });
    assert.deepEqual([vars.status, keys(vars)], [200, ['variables']]);
    const numbers = await build('GET', `${AGENT}/telephony/phone-numbers`, agents);
    assert.deepEqual([numbers.status, keys(numbers)], [200, ['phoneNumbers']]);
    const imported = await build('POST', `${AGENT}/telephony/phone-numbers`, agents, {
      phoneNumbers: ['+442071838751'],
    });
    assert.deepEqual([imported.status, keys(imported)], [200, ['imported']]);
  });

  it('[MSG-5][MSG-10] the messaging access token and session answer', async () => {
    const token = await call<Record<string, unknown>>('POST', `${t.lp.urls.messaging}/api/v1/access-token`, {
      headers: { 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': LOCAL_CONNECTORS.webchatHost },
      body: {},
    });
    assert.deepEqual([token.status, keys(token)], [200, ['access_token', 'expires_in', 'token_type']]);
    const session = await call<Record<string, unknown>>('POST', `${t.lp.urls.messaging}/api/v1/sessions`, {
      headers: { Authorization: `Bearer ${String(token.body.access_token)}` },
      body: {},
    });
    assert.deepEqual([session.status, keys(session)], [200, ['session_id']]);
  });

  it('an endpoint the spec does not show answers 404 {"message":"Not Found"}, on every base', async () => {
    const unshown: Array<[string, string, Record<string, string>]> = [
      [t.lp.urls.build, `${AGENT}`, agents],
      [t.lp.urls.build, `${AGENT}/deployments`, agents],
      [t.lp.urls.build, `${AGENT}/real-time-configs`, agents],
      [t.lp.urls.build, '/v1/webhook-endpoints/we_1/rotate-secret', alerts],
      [t.lp.urls.runtime, '/v1/outbound-calling/OUT-1', { 'X-Service-Auth-Token': LOCAL_CONNECTORS.outboundToken }],
      [t.lp.urls.runtime, `${ACCOUNT}/conversations/conv_1`, { 'x-api-key': LOCAL_KEYS.conversations }],
      [t.lp.urls.messaging, '/api/v1/sessions/ses_1', {}],
    ];
    for (const [base, path, headers] of unshown) {
      const res = await call('GET', base + path, { headers });
      assert.deepEqual([res.status, res.body], [404, { message: 'Not Found' }], path);
    }
  });

  it('a method the spec does not show on a path it shows answers 405 {"message":"Method Not Allowed"}', async () => {
    const other: Array<[string, string, string, string]> = [
      ['GET', t.lp.urls.build, '/v1/agents', 'POST'],
      ['GET', t.lp.urls.build, `${AGENT}/branches`, 'POST'],
      ['GET', t.lp.urls.build, '/v1/alert-rules', 'POST'],
      ['GET', t.lp.urls.build, '/v1/alert-rules/ar_1', 'PATCH'],
      ['DELETE', t.lp.urls.build, '/v1/alert-rules/ar_1', 'PATCH'],
      ['GET', t.lp.urls.build, '/v1/webhook-endpoints', 'POST'],
      ['GET', t.lp.urls.build, `${MAIN}/knowledge-base/topics`, 'POST'],
      ['GET', t.lp.urls.build, `${MAIN}/behavior`, 'PATCH'],
      ['GET', t.lp.urls.runtime, `${ACCOUNT}/chat/respond`, 'POST'],
      ['POST', t.lp.urls.runtime, `${ACCOUNT}/chat/close`, 'PUT'],
      ['GET', t.lp.urls.messaging, '/api/v1/sessions', 'POST'],
    ];
    for (const [method, base, path, allowed] of other) {
      const res = await call(method, base + path, { headers: { ...agents, ...alerts } });
      assert.deepEqual([res.status, res.body], [405, { message: 'Method Not Allowed' }], `${method} ${path}`);
      assert.equal(res.headers.get('allow'), allowed, `${method} ${path}`);
    }
  });

  it("lists every endpoint of the spec's Endpoints part, and nothing else", () => {
    assert.deepEqual(SPEC_ENDPOINTS.map((e) => `${e.method} ${e.name}`).sort(), [
      'GET /v1/agents/{agentId}/telephony/phone-numbers',
      'GET /v1/alerts',
      'GET /v1/{account_id}/{project_id}/conversations/concurrency',
      'GET /ws',
      'GET /{version}/{account_id}/{project_id}/conversations',
      'PATCH /v1/agents/{agentId}/branches/{branchId}/behavior',
      'PATCH /v1/agents/{agentId}/real-time-configs/{config}/variables',
      'PATCH /v1/alert-rules/{rule_id}',
      'POST /api/v1/access-token',
      'POST /api/v1/sessions',
      'POST /v1/agents',
      'POST /v1/agents/{agentId}/branches',
      'POST /v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics',
      'POST /v1/agents/{agentId}/branches/{branchId}/merge',
      'POST /v1/agents/{agentId}/deployments/publish',
      'POST /v1/agents/{agentId}/deployments/{deploymentId}/promote',
      'POST /v1/agents/{agentId}/deployments/{deploymentId}/rollback',
      'POST /v1/agents/{agentId}/telephony/phone-numbers',
      'POST /v1/alert-rules',
      'POST /v1/conversations/dni-reservation',
      'POST /v1/external-events/webhook',
      'POST /v1/outbound-calling',
      'POST /v1/webhook-endpoints',
      'POST /{version}/{account_id}/{project_id}/chat/create',
      'POST /{version}/{account_id}/{project_id}/chat/respond',
      'PUT /{version}/{account_id}/{project_id}/chat/close',
    ]);
  });

  it('[CHAT-7] the Chat headers are matched with their case, as in the minimal mode', async () => {
    const lower = await runtime('POST', `${ACCOUNT}/chat/create`, {
      'x-api-key': LOCAL_KEYS.chat,
      'X-TOKEN': LOCAL_CONNECTORS.chatToken,
    });
    assert.equal(lower.status, 401);
  });

  it('the admin API stays, and switches a running platform to spec-only and back', async () => {
    assert.deepEqual((await call('GET', `${t.lp.urls.admin}/responses`)).body, { mode: 'spec-only' });
    await call('PUT', `${t.lp.urls.admin}/responses`, { body: { mode: 'full' } });
    assert.equal((await build('GET', '/v1/agents', agents)).status, 200);
    await call('PUT', `${t.lp.urls.admin}/responses`, { body: { mode: 'spec-only' } });
    assert.equal((await build('GET', '/v1/agents', agents)).status, 405);
  });
});
