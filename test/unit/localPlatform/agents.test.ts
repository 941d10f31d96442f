import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AGENT_NAME_MAX,
  createAgentResponseSchema,
  listAgentsResponseSchema,
  agentSchema,
  type Agent,
  type CreateAgentResponse,
  type ListAgentsResponse,
  type ListBranchesResponse,
} from '../../../src/contract/agents';
import { buildErrorBodySchema } from '../../../src/contract/common';
import { LOCAL_KEYS, LOCAL_PROJECT } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';
import { addForeignAgent, agentsCaller, type ErrorBody, SUPPORT } from './agentsSupport';

describe('Agents API: agents, keys and errors (spec: Agents API, Authentication, Common statuses)', () => {
  const t = useLocalPlatform();
  const api = agentsCaller(t);

  describe('keys', () => {
    const cases: Array<{ title: string; key: string | null; status: number; message: RegExp }> = [
      { title: 'no x-api-key header', key: null, status: 401, message: /Missing API key/ },
      { title: 'an unknown key', key: 'not-a-key', status: 401, message: /Invalid API key/ },
      { title: 'a key of another API (Alerts)', key: LOCAL_KEYS.alerts, status: 401, message: /Invalid API key/ },
      { title: 'a Conversations key', key: LOCAL_KEYS.conversations, status: 401, message: /Invalid API key/ },
    ];
    for (const c of cases) {
      it(`[AUTH-1][AGENT-13] ${c.title}: ${c.status} with message and errors`, async () => {
        const res = await api.get<ErrorBody>('/v1/agents', c.key);
        assert.equal(res.status, c.status);
        assert.match(res.body.message, c.message);
        assert.ok(buildErrorBodySchema.safeParse(res.body).success);
      });
    }

    it('[AUTH-1][AGENT-14] the Agents key is read from x-api-key whatever its letter case', async () => {
      const res = await call<ListAgentsResponse>('GET', `${t.lp.urls.build}/v1/agents`, {
        headers: { 'X-API-KEY': LOCAL_KEYS.agents },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.agents.map((a) => a.agentId),
        [SUPPORT.agentId],
      );
    });

    it('[AGENT-13] a read-only key reads but gets 403 on every write', async () => {
      const ro = LOCAL_KEYS.agentsReadOnly;
      assert.equal((await api.get('/v1/agents', ro)).status, 200);
      const writes = [
        api.post('/v1/agents', { name: 'x' }, ro),
        api.post(`/v1/agents/${SUPPORT.agentId}/branches`, { name: 'x' }, ro),
        api.patch(`/v1/agents/${SUPPORT.agentId}/branches/${SUPPORT.mainId}/behavior`, { behavior: 'x' }, ro),
        api.post(
          `/v1/agents/${SUPPORT.agentId}/branches/${SUPPORT.mainId}/knowledge-base/topics`,
          { name: 'x', content: 'y' },
          ro,
        ),
        api.post(`/v1/agents/${SUPPORT.agentId}/deployments/publish`, { environment: 'sandbox' }, ro),
        api.patch(`/v1/agents/${SUPPORT.agentId}/real-time-configs/store-settings/variables`, { variables: {} }, ro),
        api.post(`/v1/agents/${SUPPORT.agentId}/telephony/phone-numbers`, { phoneNumbers: ['+442071838750'] }, ro),
      ];
      for (const res of await Promise.all(writes)) {
        assert.equal(res.status, 403);
        assert.match((res.body as ErrorBody).message, /read-only/);
      }
      const agents = await api.get<ListAgentsResponse>('/v1/agents');
      assert.equal(agents.body.agents.length, 1, 'nothing was created');
    });

    it("[AGENT-13][AGENT-14] keys are workspace-scoped: another workspace's agent is 403 and not listed", async () => {
      addForeignAgent(t.lp);
      const list = await api.get<ListAgentsResponse>('/v1/agents');
      assert.ok(!list.body.agents.some((a) => a.agentId === 'ag_foreign'));
      for (const path of [
        '/v1/agents/ag_foreign',
        '/v1/agents/ag_foreign/branches',
        '/v1/agents/ag_foreign/branches/br_foreign_main/behavior',
        '/v1/agents/ag_foreign/deployments',
      ]) {
        const res = await api.get<ErrorBody>(path);
        assert.equal(res.status, 403, path);
        assert.equal(res.body.errors[0]?.field, 'agentId');
      }
    });
  });

  describe('create agent', () => {
    it('[AGENT-1] returns agentId and the default branch main', async () => {
      const res = await api.post<CreateAgentResponse>('/v1/agents', {
        name: 'Booking Line',
        description: 'Takes table bookings.',
      });
      assert.equal(res.status, 201);
      const created = createAgentResponseSchema.parse(res.body);
      assert.match(created.agentId, /^ag_[A-Za-z0-9_]+$/);
      assert.equal(created.name, 'Booking Line');
      assert.equal(created.description, 'Takes table bookings.');
      assert.equal(created.defaultBranch!.name, 'main');
      assert.equal(created.defaultBranch!.isDefault, true);
      const branches = await api.get<ListBranchesResponse>(`/v1/agents/${created.agentId}/branches`);
      assert.deepEqual(
        branches.body.branches.map((b) => [b.branchId, b.name]),
        [[created.defaultBranch!.branchId, 'main']],
      );
      const fetched = await api.get<Agent>(`/v1/agents/${created.agentId}`);
      assert.equal(fetched.body.defaultBranchId, created.defaultBranch!.branchId);
    });

    const names: Array<{ length: number; status: number }> = [
      { length: 0, status: 400 },
      { length: 1, status: 201 },
      { length: AGENT_NAME_MAX, status: 201 },
      { length: AGENT_NAME_MAX + 1, status: 400 },
    ];
    for (const n of names) {
      it(`[AGENT-1][AGENT-13] a name of ${n.length} characters: ${n.status}${n.status === 400 ? ' naming the field name' : ''}`, async () => {
        const res = await api.post<ErrorBody>('/v1/agents', { name: 'n'.repeat(n.length), description: '' });
        assert.equal(res.status, n.status);
        if (n.status === 400)
          assert.deepEqual(res.body.errors, [{ field: 'name', message: 'must be 1 to 128 characters' }]);
      });
    }

    it('[AGENT-1][AGENT-13] a missing name, a body that is not an object, and a wrong description type are 400', async () => {
      const missing = await api.post<ErrorBody>('/v1/agents', { description: 'x' });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.errors[0]?.field, 'name');
      const array = await api.post<ErrorBody>('/v1/agents', [1, 2]);
      assert.equal(array.status, 400);
      assert.equal(array.body.errors[0]?.field, 'body');
      const badDescription = await api.post<ErrorBody>('/v1/agents', { name: 'x', description: 5 });
      assert.deepEqual(
        badDescription.body.errors.map((e) => e.field),
        ['description'],
      );
      const notJson = await call<ErrorBody>('POST', `${t.lp.urls.build}/v1/agents`, {
        headers: { 'x-api-key': LOCAL_KEYS.agents, 'content-type': 'application/json' },
        rawBody: '{"name":',
      });
      assert.equal(notJson.status, 400);
    });

    it('[ADDR-1] projectId is accepted in slug and prefixed form and stored prefixed', async () => {
      for (const projectId of [LOCAL_PROJECT.slug, LOCAL_PROJECT.id]) {
        const res = await api.post<CreateAgentResponse>('/v1/agents', { name: `In ${projectId}`, projectId });
        assert.equal(res.status, 201);
        assert.equal(res.body.projectId, LOCAL_PROJECT.id);
      }
      const unknown = await api.post<ErrorBody>('/v1/agents', { name: 'Nowhere', projectId: 'no-such-project' });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.errors[0]?.field, 'projectId');
    });
  });

  describe('list and get agents', () => {
    it("[AGENT-14] lists the workspace's agents by name, with paging and a name filter over 1,000 agents", async () => {
      const state = t.lp.platform.state.agents;
      for (let i = 0; i < 1000; i++) {
        const agentId = `ag_bulk_${String(i).padStart(4, '0')}`;
        state.agents[agentId] = {
          ...state.agents[SUPPORT.agentId]!,
          agentId,
          name: `Bulk ${String(i).padStart(4, '0')}`,
        };
      }
      const first = await api.get<ListAgentsResponse>('/v1/agents?limit=400');
      listAgentsResponseSchema.parse(first.body);
      assert.equal(first.body.total, 1001);
      assert.equal(first.body.agents.length, 400);
      assert.equal(first.body.agents[0]!.name, 'Bulk 0000');
      assert.equal(first.body.nextOffset, 400);
      const last = await api.get<ListAgentsResponse>('/v1/agents?limit=400&offset=800');
      assert.equal(last.body.agents.length, 201);
      assert.equal(last.body.agents.at(-1)!.name, 'Support Desk');
      assert.equal(last.body.nextOffset, null);
      const filtered = await api.get<ListAgentsResponse>('/v1/agents?name=BULK%20009');
      assert.deepEqual(filtered.body.agents.map((a) => a.name).slice(0, 2), ['Bulk 0090', 'Bulk 0091']);
      assert.equal(filtered.body.total, 10);
    });

    it('[AGENT-13] paging parameters out of range are 400 naming the parameter', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['offset=-1', 'offset'],
        ['limit=abc', 'limit'],
      ] as const) {
        const res = await api.get<ErrorBody>(`/v1/agents?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.errors[0]?.field, field);
      }
    });

    it('[AGENT-1] get agent returns agentId, name and description', async () => {
      const res = await api.get<Agent>(`/v1/agents/${SUPPORT.agentId}`);
      assert.equal(res.status, 200);
      const agent = agentSchema.parse(res.body);
      assert.equal(agent.name, 'Support Desk');
      assert.equal(agent.defaultBranchId, SUPPORT.mainId);
    });
  });

  describe('error statuses', () => {
    const malformed: Array<{ path: string; field: string }> = [
      { path: '/v1/agents/support', field: 'agentId' },
      { path: '/v1/agents/ag-support/branches', field: 'agentId' },
      { path: `/v1/agents/${SUPPORT.agentId}/branches/main`, field: 'branchId' },
      {
        path: `/v1/agents/${SUPPORT.agentId}/branches/${SUPPORT.mainId}/knowledge-base/topics/returns`,
        field: 'topicId',
      },
      { path: `/v1/agents/${SUPPORT.agentId}/deployments/1`, field: 'deploymentId' },
      { path: `/v1/agents/${SUPPORT.agentId}/real-time-configs/store%20settings`, field: 'config' },
    ];
    for (const m of malformed) {
      it(`[AGENT-13] a malformed ${m.field} in the path is 422: ${m.path}`, async () => {
        const res = await api.get<ErrorBody>(m.path);
        assert.equal(res.status, 422);
        assert.equal(res.body.errors[0]?.field, m.field);
        assert.match(res.body.errors[0].message, /must match/);
      });
    }

    const missing: Array<{ path: string; field: string }> = [
      { path: '/v1/agents/ag_nobody', field: 'agentId' },
      { path: `/v1/agents/${SUPPORT.agentId}/branches/br_nobody`, field: 'branchId' },
      {
        path: `/v1/agents/${SUPPORT.agentId}/branches/${SUPPORT.mainId}/knowledge-base/topics/kt_nobody`,
        field: 'topicId',
      },
      { path: `/v1/agents/${SUPPORT.agentId}/deployments/dep_nobody`, field: 'deploymentId' },
      { path: `/v1/agents/${SUPPORT.agentId}/real-time-configs/nobody`, field: 'config' },
    ];
    for (const m of missing) {
      it(`[AGENT-13] an unknown ${m.field} is 404: ${m.path}`, async () => {
        const res = await api.get<ErrorBody>(m.path);
        assert.equal(res.status, 404);
        assert.equal(res.body.errors[0]?.field, m.field);
      });
    }

    it('[AGENT-13] an internal failure is 500 with the build error body', async () => {
      await t.admin.addFault({ family: 'build', path: '/v1/agents', status: 500, times: 1 });
      const res = await api.get<ErrorBody>('/v1/agents');
      assert.equal(res.status, 500);
      assert.ok(buildErrorBodySchema.safeParse(res.body).success);
      assert.equal((await api.get('/v1/agents')).status, 200);
    });

    it('[ADDR-2] the Agents API is served on the build address, not the runtime one', async () => {
      const runtime = await call('GET', `${t.lp.urls.runtime}/v1/agents`, {
        headers: { 'x-api-key': LOCAL_KEYS.agents },
      });
      assert.equal(runtime.status, 404);
      assert.equal((await api.get('/v1/agents')).status, 200);
    });
  });
});
