import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Agent } from '../../../../src/contract/agents';
import { PlatformError } from '../../../../src/client/errors';
import type { AgentsPlatform, AgentsSource } from '../../../../src/ui/model/agentsSource';
import { type AgentsChange, AgentsModel } from '../../../../src/ui/model/agentsModel';

const agent = (agentId: string): Agent => ({ agentId, name: agentId.toUpperCase(), description: '' });

/** A source that counts what it is asked. */
function source(): AgentsSource & { calls: string[] } {
  const calls: string[] = [];
  const note = <T>(call: string, v: T): Promise<T> => {
    calls.push(call);
    return Promise.resolve(v);
  };
  return {
    calls,
    listAgents: () => note('listAgents', [agent('a1'), agent('a2')]),
    getAgent: (id) => note(`getAgent ${id}`, agent(id)),
    listBranches: (id) => note(`listBranches ${id}`, []),
    getBehavior: () => note('getBehavior', ''),
    listTopics: (id, branchId) => note(`listTopics ${id} ${branchId}`, []),
    listDeployments: (id) => note(`listDeployments ${id}`, []),
    listPhoneNumbers: (id) => note(`listPhoneNumbers ${id}`, []),
    listRealtimeConfigs: (id) => note(`listRealtimeConfigs ${id}`, []),
  };
}

test('finding one agent reads that agent alone, or takes it from the list already loaded', async () => {
  const s = source();
  const model = new AgentsModel(s);
  assert.equal((await model.find('a9'))?.agentId, 'a9');
  assert.deepEqual(s.calls, ['getAgent a9'], 'no listing of every agent');
  await model.agents.get();
  s.calls.length = 0;
  assert.equal((await model.find('a2'))?.name, 'A2');
  assert.deepEqual(s.calls, []);
});

test('a change to one part of one agent is announced as that part, and read again only there', async () => {
  const s = source();
  const model = new AgentsModel(s);
  const changes: AgentsChange[] = [];
  model.onDidChange((c) => changes.push(c));
  const a1 = model.agent('a1');
  await Promise.all([
    a1.deployments.get(),
    a1.branches.get(),
    model.agent('a2').deployments.get(),
    a1.topics.get('main').get(),
  ]);
  s.calls.length = 0;
  a1.deployments.invalidate();
  a1.topics.invalidate('main');
  assert.deepEqual(changes, [
    { part: 'deployments', agentId: 'a1' },
    { part: 'topics', agentId: 'a1', branchId: 'main' },
  ]);
  await Promise.all([a1.deployments.get(), a1.branches.get(), model.agent('a2').deployments.get()]);
  assert.deepEqual(s.calls, ['listDeployments a1'], 'the other parts are still known');
  assert.equal(model.agent('a1'), a1, 'one model per agent');
});

test('releasing the model ends every subscription to it', () => {
  const model = new AgentsModel(source());
  let told = 0;
  model.onDidChange(() => told++);
  model.dispose();
  model.agent('a1').deployments.invalidate();
  assert.equal(told, 0);
});

const deployment = (id: string, environment: string, createdAt = '2026-01-05T08:00:00Z') => ({
  id,
  agentId: 'a1',
  accountId: 'acc',
  environment,
  artifactVersion: `art_${id}`,
  version: id.replace(/\D/g, ''),
  createdBy: 'key',
  createdAt,
  metadata: {},
});

/** A platform whose list endpoints the spec does not show are missing (404 naming the assumption), as spec-only. */
function specOnly(): { source: AgentsSource; platform: AgentsPlatform; sent: string[] } {
  const missing = (): Promise<never> =>
    Promise.reject(
      new PlatformError({
        family: 'agents',
        kind: 'notFound',
        operation: 'List',
        status: 404,
        assumption: { row: 'r' },
      }),
    );
  const sent: string[] = [];
  const refused = (): Promise<never> => Promise.reject(new Error('not sent by these tests'));
  const platform: AgentsPlatform = {
    getAgent: missing,
    createAgent: refused,
    createBranch: (_a, name) => {
      sent.push(`createBranch ${name}`);
      return Promise.resolve({ name });
    },
    merge: refused,
    getBehavior: refused,
    updateBehavior: refused,
    listTopics: refused,
    createTopic: refused,
    updateTopic: refused,
    deleteTopic: refused,
    getDeployment: missing,
    publish: (_a, environment = 'sandbox') => {
      sent.push(`publish ${environment}`);
      return Promise.resolve({ deployment: deployment('dep_1', environment), testRunIds: [] });
    },
    promote: (_a, id) => {
      sent.push(`promote ${id}`);
      return Promise.reject(new PlatformError({ family: 'agents', kind: 'network', operation: 'Promote' }));
    },
    rollback: refused,
    listRealtimeConfigs: refused,
    updateVariables: refused,
    listPhoneNumbers: refused,
    importPhoneNumbers: refused,
  };
  return {
    source: {
      listAgents: missing,
      listBranches: missing,
      getBehavior: missing,
      listTopics: missing,
      listDeployments: missing,
      listPhoneNumbers: () => Promise.resolve([]),
      listRealtimeConfigs: missing,
    },
    platform,
    sent,
  };
}

test('a publish through the model keeps its deployment: a platform that cannot list deployments shows it', async () => {
  const p = specOnly();
  const model = new AgentsModel(p.source, () => p.platform);
  const a1 = model.agent('a1');
  const before = await a1.knownDeployments.get();
  assert.equal(before.listed, false);
  assert.deepEqual(before.items, []);
  const changes: AgentsChange[] = [];
  model.onDidChange((c) => changes.push(c));
  await a1.publish('sandbox');
  assert.deepEqual(changes, [{ part: 'deployments', agentId: 'a1' }], 'every view showing deployments is told');
  const after = await a1.knownDeployments.get();
  assert.deepEqual(
    after.items.map((d) => d.id),
    ['dep_1'],
  );
  assert.equal((await a1.deploymentById('dep_1')).environment, 'sandbox', 'known by id without a read');
  assert.deepEqual(p.sent, ['publish sandbox']);
});

test('a promotion whose answer was lost forgets the deployments (it may have acted) and is sent once', async () => {
  const p = specOnly();
  const model = new AgentsModel(p.source, () => p.platform);
  const a1 = model.agent('a1');
  const changes: AgentsChange[] = [];
  model.onDidChange((c) => changes.push(c));
  await assert.rejects(a1.promote({ id: 'dep_1', environment: 'sandbox' }), /PlatformError|network|Promote/);
  assert.deepEqual(p.sent, ['promote dep_1']);
  assert.deepEqual(changes, [{ part: 'deployments', agentId: 'a1' }]);
});

test('a branch whose create answer has no id, where branches are not listed, comes back without one and is not kept', async () => {
  const p = specOnly();
  const model = new AgentsModel(p.source, () => p.platform);
  const a1 = model.agent('a1');
  const made = await a1.createBranch('feature');
  assert.equal(made.branchId, undefined);
  assert.deepEqual(a1.keptBranches(), []);
  assert.deepEqual(p.sent, ['createBranch feature'], 'sent once');
});

test('a branch whose create answer has no id is found by its name where branches are listed, and kept', async () => {
  const p = specOnly();
  const listed = { ...p.source, listBranches: () => Promise.resolve([{ branchId: 'br_9', name: 'feature' }]) };
  const model = new AgentsModel(listed, () => p.platform);
  const made = await model.agent('a1').createBranch('feature');
  assert.equal(made.branchId, 'br_9');
  assert.deepEqual(model.agent('a1').keptBranches(), [{ branchId: 'br_9', name: 'feature' }]);
});
