import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  behaviorSchema,
  branchSchema,
  listTopicsResponseSchema,
  topicSchema,
  type Behavior,
  type Branch,
  type ListBranchesResponse,
  type ListTopicsResponse,
  type Topic,
} from '../../../src/contract/agents';
import { SUPPORT_AGENT_CONTENT } from '../../../src/localPlatform/seed/supportAgent';
import { useLocalPlatform } from '../../support/localPlatform';
import { agentsCaller, type ErrorBody, SUPPORT } from './agentsSupport';

describe('Agents API: branches, behavior and knowledge topics (spec: Agents API)', () => {
  const t = useLocalPlatform();
  const api = agentsCaller(t);
  const agentPath = `/v1/agents/${SUPPORT.agentId}`;
  const mainPath = `${agentPath}/branches/${SUPPORT.mainId}`;

  const newBranch = async (name = 'holiday-hours'): Promise<Branch> => {
    const res = await api.post<Branch>(`${agentPath}/branches`, { name });
    assert.equal(res.status, 201);
    return branchSchema.parse(res.body);
  };
  const topicsOf = async (branchPath: string): Promise<Topic[]> =>
    listTopicsResponseSchema.parse((await api.get<ListTopicsResponse>(`${branchPath}/knowledge-base/topics`)).body)
      .topics;

  describe('branches', () => {
    it("[AGENT-2] a new branch is a copy of main's current content and lists after main", async () => {
      await api.patch(`${mainPath}/behavior`, { behavior: 'Main as it is now' });
      const branch = await newBranch();
      assert.equal(branch.name, 'holiday-hours');
      assert.equal(branch.isDefault, false);
      const behavior = await api.get<Behavior>(`${agentPath}/branches/${branch.branchId}/behavior`);
      assert.equal(behavior.body.behavior, 'Main as it is now');
      assert.deepEqual(
        (await topicsOf(`${agentPath}/branches/${branch.branchId}`)).map((x) => x.topicId).sort(),
        Object.keys(SUPPORT_AGENT_CONTENT.topics).sort(),
      );
      const list = await api.get<ListBranchesResponse>(`${agentPath}/branches`);
      assert.deepEqual(
        list.body.branches.map((b) => [b.name, b.isDefault]),
        [
          ['main', true],
          ['holiday-hours', false],
        ],
      );
      const fetched = await api.get<Branch>(`${agentPath}/branches/${branch.branchId}`);
      assert.equal(fetched.body.branchId, branch.branchId);
    });

    it('[AGENT-2][AGENT-13] a taken name is 409 and a malformed or missing name is 400 naming name', async () => {
      await newBranch('summer');
      for (const name of ['summer', 'SUMMER', 'main']) {
        const res = await api.post<ErrorBody>(`${agentPath}/branches`, { name });
        assert.equal(res.status, 409, name);
        assert.equal(res.body.errors[0]?.field, 'name');
      }
      for (const body of [{ name: '' }, { name: 'has space' }, { name: 'x'.repeat(101) }, {}]) {
        const res = await api.post<ErrorBody>(`${agentPath}/branches`, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.errors[0]?.field, 'name');
      }
    });
  });

  describe('behavior', () => {
    it('[AGENT-4][AGENT-14] PATCH behavior returns the updated behavior of that branch only', async () => {
      const branch = await newBranch();
      const path = `${agentPath}/branches/${branch.branchId}/behavior`;
      const res = await api.patch<Behavior>(path, { behavior: 'Closed on 25 December.' });
      assert.equal(res.status, 200);
      assert.equal(behaviorSchema.parse(res.body).behavior, 'Closed on 25 December.');
      assert.equal(res.body.updatedBy, 'Agents API key');
      assert.equal((await api.get<Behavior>(path)).body.behavior, 'Closed on 25 December.');
      assert.equal((await api.get<Behavior>(`${mainPath}/behavior`)).body.behavior, SUPPORT_AGENT_CONTENT.behavior);
    });

    it('[AGENT-4][AGENT-13] a missing or non-string behavior is 400 naming behavior', async () => {
      for (const body of [{}, { behavior: 42 }, { behavior: 'x'.repeat(100_001) }]) {
        const res = await api.patch<ErrorBody>(`${mainPath}/behavior`, body);
        assert.equal(res.status, 400);
        assert.equal(res.body.errors[0]?.field, 'behavior');
      }
    });
  });

  describe('knowledge-base topics', () => {
    it('[AGENT-5] POST a topic returns it; it can be read, listed, changed and deleted', async () => {
      const created = await api.post<Topic>(`${mainPath}/knowledge-base/topics`, {
        name: 'Parking',
        content: 'Free parking behind the store.',
      });
      assert.equal(created.status, 201);
      const topic = topicSchema.parse(created.body);
      assert.match(topic.topicId, /^kt_/);
      assert.equal(topic.name, 'Parking');
      assert.equal(topic.content, 'Free parking behind the store.');
      const path = `${mainPath}/knowledge-base/topics/${topic.topicId}`;
      assert.equal((await api.get<Topic>(path)).body.content, 'Free parking behind the store.');
      assert.ok((await topicsOf(mainPath)).some((x) => x.topicId === topic.topicId));
      const changed = await api.patch<Topic>(path, { content: 'Parking is free for two hours.' });
      assert.equal(changed.status, 200);
      assert.equal(changed.body.name, 'Parking');
      assert.equal(changed.body.content, 'Parking is free for two hours.');
      assert.equal((await api.del(path)).status, 204);
      assert.equal((await api.get(path)).status, 404);
      assert.ok(!(await topicsOf(mainPath)).some((x) => x.topicId === topic.topicId));
    });

    it('[AGENT-5][AGENT-13] topic bodies are validated: 400 naming each bad field', async () => {
      const bad = await api.post<ErrorBody>(`${mainPath}/knowledge-base/topics`, { name: '', content: 7 });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body.errors.map((e) => e.field).sort(), ['content', 'name']);
      const empty = await api.patch<ErrorBody>(`${mainPath}/knowledge-base/topics/kt_returns`, {});
      assert.equal(empty.status, 400);
      assert.equal(empty.body.errors[0]?.field, 'body');
    });

    it("[AGENT-14] topics are scoped to their branch: a branch's new topic is not on main, nor reachable through main", async () => {
      const branch = await newBranch();
      const branchPath = `${agentPath}/branches/${branch.branchId}`;
      const created = await api.post<Topic>(`${branchPath}/knowledge-base/topics`, {
        name: 'Holiday hours',
        content: 'Closed on 25 December.',
      });
      assert.equal(created.body.branchId, branch.branchId);
      assert.ok(!(await topicsOf(mainPath)).some((x) => x.name === 'Holiday hours'));
      assert.equal((await api.get(`${mainPath}/knowledge-base/topics/${created.body.topicId}`)).status, 404);
      // Deleting on the branch leaves main's copy alone.
      assert.equal((await api.del(`${branchPath}/knowledge-base/topics/kt_returns`)).status, 204);
      assert.equal((await api.get(`${mainPath}/knowledge-base/topics/kt_returns`)).status, 200);
    });

    it('[AGENT-14] a branch id of another agent is 404 under this agent', async () => {
      const other = await api.post<{ agentId: string; defaultBranch: Branch }>('/v1/agents', { name: 'Other' });
      const res = await api.get<ErrorBody>(`${agentPath}/branches/${other.body.defaultBranch.branchId}/behavior`);
      assert.equal(res.status, 404);
      assert.equal(res.body.errors[0]?.field, 'branchId');
    });
  });

  describe('changes by another user (admin)', () => {
    it('[AGENT-4][AGENT-5] an edit as a teammate shows in the API with their name', async () => {
      const res = await api.admin(`/agents/${SUPPORT.agentId}/branches/${SUPPORT.mainId}/edit`, {
        user: 'dana@acme.test',
        behavior: 'Edited in the studio',
        upsertTopics: [
          { topicId: 'kt_returns', name: 'Returns', content: '60 days now.' },
          { name: 'Gift cards', content: 'Gift cards never expire.' },
        ],
        deleteTopics: ['kt_delivery'],
      });
      assert.equal(res.status, 200);
      const behavior = await api.get<Behavior>(`${mainPath}/behavior`);
      assert.deepEqual([behavior.body.behavior, behavior.body.updatedBy], ['Edited in the studio', 'dana@acme.test']);
      const topics = await topicsOf(mainPath);
      assert.deepEqual(
        topics.map((x) => x.name),
        ['Gift cards', 'Opening hours', 'Returns'],
      );
      const returns = topics.find((x) => x.topicId === 'kt_returns')!;
      assert.deepEqual([returns.content, returns.updatedBy], ['60 days now.', 'dana@acme.test']);
      const branch = await api.get<Branch>(mainPath);
      assert.equal(branch.body.updatedBy, 'dana@acme.test');
    });
  });
});
