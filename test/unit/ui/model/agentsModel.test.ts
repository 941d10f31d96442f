import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Agent } from '../../../../src/contract/agents';
import type { AgentsSource } from '../../../../src/ui/model/agentsSource';
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
