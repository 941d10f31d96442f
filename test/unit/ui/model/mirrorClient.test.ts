import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RealtimeConfig, Topic } from '../../../../src/contract/agents';
import type { AgentsSource } from '../../../../src/ui/model/agentsSource';
import { type AgentsChange, AgentsModel } from '../../../../src/ui/model/agentsModel';
import { modelMirrorClient } from '../../../../src/ui/model/mirrorClient';
import type { MirrorClient } from '../../../../src/workspace/remote';

/** A platform of one agent: what it holds, and the reads it was asked for. */
function platform() {
  const held = {
    behavior: 'Be brief.',
    topics: [{ topicId: 't1', name: 'Returns', content: '30 days' }] as Topic[],
    configs: [{ name: 'voice', variables: { speed: 1 }, schema: {} }] as RealtimeConfig[],
  };
  const reads: string[] = [];
  const read = <T>(what: string, v: () => T): Promise<T> => {
    reads.push(what);
    return Promise.resolve(v());
  };
  const source: AgentsSource = {
    listAgents: () => Promise.resolve([]),
    listBranches: () => Promise.resolve([]),
    getBehavior: () => read('behavior', () => held.behavior),
    listTopics: () => read('topics', () => held.topics.map((t) => ({ ...t }))),
    listDeployments: () => Promise.resolve([]),
    listPhoneNumbers: () => Promise.resolve([]),
    listRealtimeConfigs: () => read('configs', () => held.configs),
  };
  const refused = () => Promise.reject(new Error('not a read of the model'));
  const writes: MirrorClient = {
    getBehavior: refused,
    listTopics: refused,
    listRealtimeConfigs: refused,
    updateBehavior: (_a, branchId, behavior) => {
      held.behavior = behavior.trim();
      return Promise.resolve({ behavior: held.behavior, branchId });
    },
    createTopic: (_a, _b, topic) => {
      const made = { topicId: `t${held.topics.length + 1}`, ...topic };
      held.topics.push(made);
      return Promise.resolve(made);
    },
    updateTopic: () => Promise.reject(new Error('the answer was lost')),
    deleteTopic: () => Promise.resolve(),
    updateVariables: () => Promise.resolve({}),
  };
  return { held, reads, source, writes };
}

test("the mirror's reads are the model's values: read once, shared with the views, fresh after invalidateDocuments", async () => {
  const p = platform();
  const model = new AgentsModel(p.source);
  const client = modelMirrorClient(model, p.writes);
  assert.equal(await model.agent('a1').behavior.get('main').get(), 'Be brief.');
  assert.equal((await client.getBehavior('a1', 'main')).behavior, 'Be brief.');
  assert.deepEqual(await client.listTopics('a1', 'main'), p.held.topics);
  assert.deepEqual(p.reads, ['behavior', 'topics'], 'the behavior the view read is the one the mirror compares with');
  p.held.behavior = "A teammate's text.";
  model.agent('a1').invalidateDocuments('main');
  assert.equal((await client.getBehavior('a1', 'main')).behavior, "A teammate's text.");
  assert.equal(await model.agent('a1').behavior.get('main').get(), "A teammate's text.");
  await client.listRealtimeConfigs('a1');
  assert.deepEqual(p.reads, ['behavior', 'topics', 'behavior', 'configs']);
});

test('a write tells the model: the behavior takes the answer, topics and configs are read again', async () => {
  const p = platform();
  const model = new AgentsModel(p.source);
  const changes: AgentsChange[] = [];
  model.onDidChange((c) => changes.push(c));
  const client = modelMirrorClient(model, p.writes);
  const agent = model.agent('a1');
  await Promise.all([agent.behavior.get('main').get(), agent.topics.get('main').get(), agent.realtimeConfigs.get()]);
  p.reads.length = 0;

  await client.updateBehavior('a1', 'main', 'Be warm.\n');
  assert.equal(agent.behavior.get('main').peek(), 'Be warm.', 'what the platform answered, not what was sent');
  await client.createTopic('a1', 'main', { name: 'Gifts', content: 'Never expire.' });
  assert.equal(agent.topics.get('main').peek(), undefined);
  assert.deepEqual(
    (await agent.topics.get('main').get()).map((t) => t.name),
    ['Returns', 'Gifts'],
  );
  await assert.rejects(client.updateTopic('a1', 'main', 't1', { content: '60 days' }), /lost/);
  assert.equal(agent.topics.get('main').isLoaded, false, 'a write whose answer was lost is read again too');
  await client.updateVariables('a1', 'voice', { speed: 2 });
  assert.equal(agent.realtimeConfigs.isLoaded, false);
  assert.deepEqual(p.reads, ['topics'], 'the behavior answered whole is not read again');
  assert.deepEqual(
    changes.map((c) => c.part),
    ['behavior', 'topics', 'topics', 'realtimeConfigs'],
  );
});

test('a cancelled read leaves the model its value and rejects the caller', async () => {
  const p = platform();
  const model = new AgentsModel(p.source);
  const client = modelMirrorClient(model, p.writes);
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(client.listTopics('a1', 'main', controller.signal), { name: 'AbortError' });
  assert.equal((await client.listTopics('a1', 'main')).length, 1);
});

test('refresh() reads the platform again and hands every reader the new value', async () => {
  const p = platform();
  const model = new AgentsModel(p.source);
  const behavior = model.agent('a1').behavior.get('main');
  await behavior.get();
  p.held.behavior = 'Changed.';
  const [refreshed, read] = await Promise.all([behavior.refresh(), behavior.get()]);
  assert.deepEqual([refreshed, read], ['Changed.', 'Changed.']);
  assert.deepEqual(p.reads, ['behavior', 'behavior']);
});
