import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { AgentsClient } from '../../../src/client/agents';
import { AlertsClient } from '../../../src/client/alerts';
import { ChatClient } from '../../../src/client/chat';
import { ConcurrencyClient } from '../../../src/client/concurrency';
import type { ClientContext } from '../../../src/client/context';
import { ConversationsClient } from '../../../src/client/conversations';
import { DniClient } from '../../../src/client/dni';
import { ExternalEventsClient } from '../../../src/client/externalEvents';
import { AccessToken } from '../../../src/client/accessToken';
import { MessagingClient } from '../../../src/client/messaging';
import { OutboundClient } from '../../../src/client/outbound';
import type { Base } from '../../../src/localPlatform/family';
import { type Shape, specAnswerFor } from '../../../src/localPlatform/minimal';
import { LOCAL_CONNECTORS, LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { RESPONSES, useLocalPlatform } from '../../support/localPlatform';
import { useSpecServer } from '../../support/specServer';

// Property: take each answer the client reads, as the full local platform gives it; remove at random
// every field the spec does not show and set the ones it marks optional (or "or null") to null or leave
// them out. Whatever comes out, the client call resolves: no unhandled error, and no 2xx write is ever
// reported as failed. At least 1,000 generated answers per family.

const RUNS = 1000;
const REMOVE = Symbol('remove');

/** Every variation of a value the spec allows: non-spec fields kept, removed or null; optional ones null or removed. */
function thinned(shape: Shape, value: unknown): fc.Arbitrary<unknown> {
  if (shape === true || shape === null || value === null || typeof value !== 'object') return fc.constant(value);
  if (Array.isArray(shape))
    return Array.isArray(value) ? fc.tuple(...value.map((v) => thinned(shape[0], v))) : fc.constant(value);
  const fields = shape as Record<string, Shape>;
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (Object.hasOwn(fields, key)) parts[key] = thinned(fields[key]!, v);
    else if (Object.hasOwn(fields, `${key}?`))
      parts[key] = fc.oneof(thinned(fields[`${key}?`]!, v), fc.constant(null), fc.constant(REMOVE));
    else parts[key] = fc.oneof(fc.constant(v), fc.constant(REMOVE), fc.constant(null));
  }
  return fc.record(parts).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== REMOVE)));
}

/** One answer the client reads: where it comes from on the full platform, and the client call that reads it. */
interface Case {
  name: string;
  base: Base;
  method: string;
  /** The path on the platform (also matched by the spec server's answer). */
  path: string;
  status: number;
  body: unknown;
  read(ctx: ClientContext): Promise<unknown>;
}

const ACCOUNT = '/acme/support-desk';
const AGENT = '/v1/agents/ag_support';

// It thins the full platform's answers itself, so the spec-minimal and spec-only runs of the client suites skip it.
describe('client: answers thinned to what the spec shows (property)', { skip: RESPONSES !== 'full' }, () => {
  const t = useLocalPlatform({ responses: 'full' });
  const spec = useSpecServer();
  const families = new Map<string, Case[]>();

  /** Sends a request to the full local platform and keeps its answer as a case. */
  async function capture(
    family: string,
    base: Base,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: unknown,
    read: Case['read'],
    name = `${method} ${path}`,
  ): Promise<unknown> {
    const res = await call(method, `${t.lp.urls[base]}${path}`, { headers, ...(body !== undefined ? { body } : {}) });
    assert.ok(res.status < 300, `${name}: ${res.status} ${JSON.stringify(res.body)}`);
    const list = families.get(family) ?? [];
    list.push({ name, base, method, path: path.split('?')[0]!, status: res.status, body: res.body, read });
    families.set(family, list);
    return res.body;
  }

  before(async () => {
    const agents = { 'x-api-key': LOCAL_KEYS.agents };
    const build = (m: string, p: string, b: unknown, read: Case['read']) =>
      capture('agents', 'build', m, p, agents, b, read);
    await build('POST', '/v1/agents', { name: 'Thin', description: 'd' }, (c) =>
      new AgentsClient(c).createAgent({ name: 'Thin', description: 'd' }),
    );
    await build('POST', `${AGENT}/branches`, { name: 'thin' }, (c) =>
      new AgentsClient(c).createBranch('ag_support', 'thin'),
    );
    await build('PATCH', `${AGENT}/branches/br_support_main/behavior`, { behavior: 'Be brief.' }, (c) =>
      new AgentsClient(c).updateBehavior('ag_support', 'br_support_main', 'Be brief.'),
    );
    await build(
      'POST',
      `${AGENT}/branches/br_support_main/knowledge-base/topics`,
      { name: 'Gift', content: 'Cards' },
      (c) => new AgentsClient(c).createTopic('ag_support', 'br_support_main', { name: 'Gift', content: 'Cards' }),
    );
    const first = (await build('POST', `${AGENT}/deployments/publish`, { environment: 'sandbox' }, (c) =>
      new AgentsClient(c).publish('ag_support'),
    )) as { deployment: { id: string } };
    await build('POST', `${AGENT}/deployments/${first.deployment.id}/promote`, undefined, (c) =>
      new AgentsClient(c).promote('ag_support', first.deployment.id),
    );
    const second = (
      await call('POST', `${t.lp.urls.build}${AGENT}/deployments/publish`, {
        headers: agents,
        body: { environment: 'sandbox' },
      })
    ).body as { deployment: { id: string } };
    await build('POST', `${AGENT}/deployments/${second.deployment.id}/rollback`, {}, (c) =>
      new AgentsClient(c).rollback('ag_support', second.deployment.id),
    );
    const branch = (
      await call('POST', `${t.lp.urls.build}${AGENT}/branches`, { headers: agents, body: { name: 'merge-me' } })
    ).body as { branchId: string };
    await build('POST', `${AGENT}/branches/${branch.branchId}/merge`, undefined, (c) =>
      new AgentsClient(c).merge('ag_support', branch.branchId),
    );
    await build(
      'PATCH',
      `${AGENT}/real-time-configs/store-settings/variables`,
      { variables: { holidayMode: true } },
      (c) => new AgentsClient(c).updateVariables('ag_support', 'store-settings', { holidayMode: true }),
    );
    await build('GET', `${AGENT}/telephony/phone-numbers`, undefined, (c) =>
      new AgentsClient(c).listPhoneNumbers('ag_support'),
    );
    await build('POST', `${AGENT}/telephony/phone-numbers`, { phoneNumbers: ['+442071838750'] }, (c) =>
      new AgentsClient(c).importPhoneNumbers('ag_support', { phoneNumbers: ['+442071838750'] }),
    );

    const alerts = { 'x-api-key': LOCAL_KEYS.alerts };
    const rule = {
      name: 'Slow',
      project_id: null,
      metric: 'turn_latency_p95' as const,
      operator: '>' as const,
      threshold_value: 2000,
      window_duration: '10m' as const,
    };
    const created = (await capture('alerts', 'build', 'POST', '/v1/alert-rules', alerts, rule, (c) =>
      new AlertsClient(c).createRule(rule),
    )) as { id: string };
    await capture('alerts', 'build', 'PATCH', `/v1/alert-rules/${created.id}`, alerts, { enabled: false }, (c) =>
      new AlertsClient(c).updateRule(created.id, { enabled: false }),
    );
    const hook = { name: 'Pager', url: 'https://example.com/h', event_types: ['alerts.triggered' as const] };
    await capture('alerts', 'build', 'POST', '/v1/webhook-endpoints', alerts, hook, (c) =>
      new AlertsClient(c).createEndpoint(hook),
    );

    const chat = { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken };
    const started = (await capture('chat', 'runtime', 'POST', `/v1${ACCOUNT}/chat/create`, chat, {}, (c) =>
      new ChatClient(c).create(),
    )) as { conversation_id: string };
    const id = started.conversation_id;
    await capture(
      'chat',
      'runtime',
      'POST',
      `/v1${ACCOUNT}/chat/respond`,
      chat,
      { conversation_id: id, message: 'I want to speak to a person' },
      (c) => new ChatClient(c).respond({ conversation_id: id, message: 'hi' }),
    );

    const pending = await t.admin.awaitExternalEvent({ conversation_id: id });
    const event = {
      eventIdLocation: 'payload' as const,
      eventIdPath: 'id',
      body: JSON.stringify({ id: pending.event_id }),
      contentType: 'application/json' as const,
    };
    await capture(
      'externalEvents',
      'runtime',
      'POST',
      `/v1/external-events/webhook?event_id_location=payload&event_id_path=id&account_id=acme&project_id=support-desk`,
      { 'X-Api-Key': LOCAL_KEYS.externalEvents },
      { id: pending.event_id },
      (c) => new ExternalEventsClient(c).send(event),
    );
    await capture('chat', 'runtime', 'PUT', `/v1${ACCOUNT}/chat/close`, chat, { conversation_id: id }, (c) =>
      new ChatClient(c).close(id),
    );

    const conv = { 'x-api-key': LOCAL_KEYS.conversations };
    await capture(
      'conversations',
      'runtime',
      'GET',
      `/v3${ACCOUNT}/conversations?limit=2&include_latency=true`,
      conv,
      undefined,
      (c) => new ConversationsClient(c).page({ limit: 2, include_latency: true }),
    );
    const range = 'start_time=2026-01-01T00:00:00Z&end_time=2026-01-02T00:00:00Z';
    await capture(
      'concurrency',
      'runtime',
      'GET',
      `/v1${ACCOUNT}/conversations/concurrency?${range}&slice_by=variant`,
      conv,
      undefined,
      (c) =>
        new ConcurrencyClient(c).query({
          start_time: '2026-01-01T00:00:00Z',
          end_time: '2026-01-02T00:00:00Z',
          slice_by: 'variant',
        }),
    );
    await capture(
      'outbound',
      'runtime',
      'POST',
      '/v1/outbound-calling',
      { 'X-Service-Auth-Token': LOCAL_CONNECTORS.outboundToken },
      { to_number: '+14155550123' },
      (c) => new OutboundClient(c).placeCall({ to_number: '+1 415 555 0123' }),
    );
    await capture(
      'dni',
      'runtime',
      'POST',
      '/v1/conversations/dni-reservation',
      { 'x-api-key': LOCAL_KEYS.dni },
      { attributes: { a: 1 } },
      (c) => new DniClient(c).reserve({ a: 1 }),
    );
    const token = (await capture(
      'messaging',
      'messaging',
      'POST',
      '/api/v1/access-token',
      { 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': LOCAL_CONNECTORS.webchatHost },
      {},
      (c) => new MessagingClient(c).accessToken(),
    )) as { access_token: string };
    await capture(
      'messaging',
      'messaging',
      'POST',
      '/api/v1/sessions',
      { Authorization: `Bearer ${token.access_token}` },
      {},
      (c) => new MessagingClient(c).createSession({}, new AccessToken('tok', 600)),
    );
  });

  for (const family of [
    'agents',
    'alerts',
    'chat',
    'conversations',
    'concurrency',
    'outbound',
    'externalEvents',
    'dni',
    'messaging',
  ]) {
    it(`every ${family} answer thinned to the spec is read: ${RUNS} generated answers, none fails`, async () => {
      const cases = families.get(family)!;
      const variants = fc.oneof(
        ...cases.map((c) =>
          thinned(specAnswerFor(c.base, c.method, c.path)?.shape ?? true, c.body).map((body) => ({ c, body })),
        ),
      );
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(variants, async ({ c, body }) => {
          runs += 1;
          spec.answer(c.method, c.path, { status: c.status, body });
          // A created webhook endpoint without its id is looked up in the list.
          spec.answer('GET', '/v1/webhook-endpoints', {
            body: {
              webhook_endpoints: [
                { id: 'we_1', name: 'Pager', url: 'https://example.com/h', event_types: ['alerts.triggered'] },
              ],
            },
          });
          try {
            await c.read(spec.context());
          } catch (err) {
            assert.fail(
              `${c.name} with ${JSON.stringify(body).slice(0, 300)}: ${err instanceof Error ? err.message : String(err)}`,
            );
          }
        }),
        { numRuns: RUNS },
      );
      assert.ok(runs >= RUNS);
    });
  }
});
