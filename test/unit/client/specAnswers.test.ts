import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentsClient } from '../../../src/client/agents';
import { AlertsClient } from '../../../src/client/alerts';
import { ChatClient } from '../../../src/client/chat';
import { ConversationsClient } from '../../../src/client/conversations';
import { DniClient } from '../../../src/client/dni';
import { ExternalEventsClient } from '../../../src/client/externalEvents';
import { OutboundClient } from '../../../src/client/outbound';
import { probeConnection } from '../../../src/client/probe';
import { failure } from '../../support/localClient';
import { useSpecServer } from '../../support/specServer';

// Each test answers the client as a platform that shows only what the spec shows, and checks that the
// client works (or says clearly what the platform did not say) and sends only what the spec shows.

const DEPLOYMENT = {
  id: 'dep_1',
  accountId: 'acme',
  agentId: 'ag_1',
  environment: 'sandbox',
  artifactVersion: 'a1',
  version: '1',
  createdBy: 'ci',
  createdAt: '2026-01-05T09:00:00Z',
  metadata: {},
};

describe('client: answers that show only what the spec shows', () => {
  const spec = useSpecServer();
  const agents = (): AgentsClient => new AgentsClient(spec.context());
  const sent = (method: string): { text: string; body: unknown } => {
    const r = spec.received.find((x) => x.method === method)!;
    return { text: r.text, body: r.text ? JSON.parse(r.text) : undefined };
  };

  describe('Agents API', () => {
    it('[AGENT-1] a created agent answered only by its agentId is created, known by the name sent', async () => {
      spec.answer('POST', '/v1/agents', { status: 201, body: { agentId: 'ag_1' } });
      const created = await agents().createAgent({ name: 'Booking Line', description: 'Tables' });
      assert.deepEqual(
        [created.agentId, created.name, created.description, created.defaultBranch],
        ['ag_1', 'Booking Line', 'Tables', undefined],
      );
    });

    it('[AGENT-8] a rollback without testRunIds ("may be returned") reads as none', async () => {
      spec.answer('POST', '/rollback', { body: { deployment: { ...DEPLOYMENT, environment: 'live' } } });
      const res = await agents().rollback('ag_1', 'dep_1');
      assert.deepEqual(res.testRunIds, []);
    });

    it('[AGENT-3] a merge sends no body (the spec says none) and an answer without `merged` is a merge', async () => {
      spec.answer('POST', '/merge', { body: {} });
      const outcome = await agents().merge('ag_1', 'br_1');
      assert.equal(outcome.merged, true);
      assert.equal(sent('POST').text, '');
    });

    it('[AGENT-7] a promote sends no body unless a message was given; publish sends environment, and a message only when given', async () => {
      spec.answer('POST', '/promote', { body: { deployment: DEPLOYMENT, testRunIds: [] } });
      spec.answer('POST', '/publish', { body: { deployment: DEPLOYMENT, testRunIds: [] } });
      await agents().promote('ag_1', 'dep_1', { environment: 'sandbox' });
      assert.equal(sent('POST').text, '');
      spec.received.length = 0;
      await agents().publish('ag_1', 'sandbox');
      assert.deepEqual(sent('POST').body, { environment: 'sandbox' });
      spec.received.length = 0;
      await agents().publish('ag_1', 'sandbox', 'Holiday hours');
      assert.deepEqual(sent('POST').body, { environment: 'sandbox', deploymentMessage: 'Holiday hours' });
    });

    it('[AGENT-5][AGENT-10] a topic answered without topicId and variables answered without {variables} are read', async () => {
      spec.answer('POST', '/knowledge-base/topics', {
        status: 201,
        body: { name: 'Gift cards', content: 'Never expire.' },
      });
      spec.answer('PATCH', '/variables', { body: { greeting: 'hi' } });
      const topic = await agents().createTopic('ag_1', 'br_1', { name: 'Gift cards', content: 'Never expire.' });
      assert.deepEqual([topic.topicId, topic.name], [undefined, 'Gift cards']);
      const values = await agents().updateVariables('ag_1', 'hours', { greeting: 'hi' });
      assert.deepEqual(values.variables, { greeting: 'hi' });
    });

    it('[AGENT-9] a deployment of an environment the client does not know is kept, not refused', async () => {
      spec.answer('POST', '/promote', {
        body: { deployment: { ...DEPLOYMENT, environment: 'staging' }, testRunIds: [] },
      });
      assert.equal((await agents().promote('ag_1', 'dep_1')).deployment.environment, 'staging');
    });

    it('a 2xx to a write whose answer cannot be read is reported as accepted, never as a failure to retry', async () => {
      spec.answer('POST', '/v1/agents', { status: 201, body: 'Created' });
      const err = await failure(agents().createAgent({ name: 'Booking Line' }));
      assert.equal(err.kind, 'acceptedUnreadable');
      assert.equal(err.accepted, true);
      assert.equal(err.isTransient, false);
      // Text where JSON was due may come from something in front of the platform: it may have been done, refresh.
      assert.match(err.message, /answered HTTP 201 with text, not JSON, so it may have been done\. Refresh/);
    });
  });

  describe('Alerts API', () => {
    const alerts = (): AlertsClient => new AlertsClient(spec.context());

    it('[HOOK-1] a created endpoint answered with name, url, event_types and the secret only: the secret is kept, the id found in the list', async () => {
      spec.answer('POST', '/v1/webhook-endpoints', {
        status: 201,
        body: {
          name: 'Pager',
          url: 'https://example.com/h',
          event_types: ['alerts.triggered'],
          signing_secret: 'whsec_c2VjcmV0',
        },
      });
      spec.answer('GET', '/v1/webhook-endpoints', {
        body: {
          webhook_endpoints: [
            { id: 'we_9', name: 'Pager', url: 'https://example.com/h', event_types: ['alerts.triggered'] },
          ],
        },
      });
      const created = await alerts().createEndpoint({
        name: 'Pager',
        url: 'https://example.com/h',
        event_types: ['alerts.triggered'],
      });
      assert.deepEqual([created.id, created.signing_secret], ['we_9', 'whsec_c2VjcmV0']);
    });

    it('[HOOK-1] without a list to find it in, the endpoint is still created and its secret returned', async () => {
      spec.answer('POST', '/v1/webhook-endpoints', { status: 201, body: { signing_secret: 'whsec_c2VjcmV0' } });
      const created = await alerts().createEndpoint({
        name: 'Pager',
        url: 'https://example.com/h',
        event_types: ['alerts.triggered'],
      });
      assert.deepEqual([created.id, created.name, created.signing_secret], [undefined, 'Pager', 'whsec_c2VjcmV0']);
    });

    it('[HOOK-1] the signing secret is returned even when the rest of the answer is unreadable', async () => {
      spec.answer('POST', '/v1/webhook-endpoints', {
        status: 201,
        body: { signing_secret: 'whsec_c2VjcmV0', name: 42, event_types: 'all', created_at: {} },
      });
      const created = await alerts().createEndpoint({
        name: 'Pager',
        url: 'https://example.com/h',
        event_types: ['alerts.triggered'],
      });
      assert.equal(created.signing_secret, 'whsec_c2VjcmV0');
    });

    it('[ALERT-8] GET /v1/alerts as a bare list is read', async () => {
      spec.answer('GET', '/v1/alerts', {
        body: [{ id: 'ar_1', name: 'Slow', metric: 'turn_latency_p95', current_value: 2900 }],
      });
      const current = await alerts().currentAlerts();
      assert.deepEqual(
        current.map((a) => [a.rule_id, a.name, a.current_value]),
        [['ar_1', 'Slow', 2900]],
      );
    });
  });

  describe('runtime APIs', () => {
    it('[EXT-4] a bare 201 from External Events is the event queued', async () => {
      spec.answer('POST', '/v1/external-events/webhook', { status: 201 });
      const res = await new ExternalEventsClient(spec.context()).send({
        eventIdLocation: 'payload',
        eventIdPath: 'id',
        body: '{"id":"evt_1"}',
        contentType: 'application/json',
      });
      assert.equal(res.status, 'queued');
    });

    it('[CONV-21] a v3 page without user_input_dtmf, cursor or handoff_reason, with a null duration in progress, is read whole', async () => {
      spec.answer('GET', '/conversations', {
        body: {
          conversations: [
            {
              id: 'c1',
              account_id: 'acme',
              project_id: 'support-desk',
              in_progress: true,
              total_duration: null,
              polyai_duration: null,
              handoff: false,
              turns: [
                {
                  user_input: 'hi',
                  agent_response: 'hello',
                  barge_in: false,
                  intents: [],
                  entities: {},
                  is_ood: false,
                  is_silence: false,
                },
              ],
            },
          ],
          descriptions: {},
        },
      });
      const page = await new ConversationsClient(spec.context()).page();
      const c = page.conversations[0]!;
      assert.deepEqual(
        [c.total_duration, c.handoff_reason, c.turns[0]!.user_input_dtmf, page.cursor],
        [null, '', '', null],
      );
    });

    it('[CHAT-5] a respond reply with handoff: null is read as no handoff', async () => {
      spec.answer('POST', '/chat/respond', {
        body: { conversation_id: 'c1', response: 'ok', end_conversation: false, handoff: null },
      });
      const reply = await new ChatClient(spec.context()).respond({ conversation_id: 'c1', message: 'hi' });
      assert.equal(reply.handoff, undefined);
    });

    it('[OUT-2] a typed number goes out in E.164, and country_code never goes beside it', async () => {
      spec.answer('POST', '/v1/outbound-calling', { body: { call_sid: 'OUT-1' } });
      const outbound = new OutboundClient(spec.context());
      await outbound.placeCall({ to_number: '+1 (415) 555-0123' });
      await outbound.placeCall({ to_number: '020 7183 8750', country_code: 'GB' });
      assert.deepEqual(
        spec.received.map((r) => JSON.parse(r.text) as unknown),
        [{ to_number: '+14155550123' }, { to_number: '+442071838750' }],
      );
    });

    it('[AUTH-1] Test Connection does not count an unexplained 400 from Chat or DNI as working', async () => {
      spec.answer('PUT', '/chat/close', { status: 400, body: 'Bad Request' });
      spec.answer('POST', '/v1/conversations/dni-reservation', { status: 400, body: {} });
      const results = await probeConnection(spec.context());
      const outcome = (family: string): string | undefined => results.find((r) => r.family === family)?.outcome;
      assert.deepEqual([outcome('chat'), outcome('dni')], ['unknown', 'unknown']);
      spec.answer('PUT', '/chat/close', { status: 400, body: { error_message: 'conversation_id is required' } });
      assert.equal((await probeConnection(spec.context())).find((r) => r.family === 'chat')?.outcome, 'works');
    });

    it('[DNI-3] a reservation answered with dni only is read', async () => {
      spec.answer('POST', '/v1/conversations/dni-reservation', { body: { dni: '+14155550200' } });
      assert.equal((await new DniClient(spec.context()).reserve({ a: 1 })).dni, '+14155550200');
    });
  });
});
