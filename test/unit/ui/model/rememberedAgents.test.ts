import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment } from '../../../../src/contract/agents';
import { type KeptState, RememberedAgents } from '../../../../src/ui/model/rememberedAgents';

/** A workspace memento as VS Code's: a value is there as soon as it is updated. */
function memento(): KeptState {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string, fallback: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => {
      values.set(key, value);
      await new Promise((r) => setImmediate(r));
    },
  };
}

const deployment = (id: string, environment: string): Deployment => ({
  id,
  agentId: 'agt_1',
  accountId: 'acc',
  environment,
  artifactVersion: 'art_1',
  version: '1',
  createdBy: 'key',
  createdAt: '2026-01-05T08:00:00Z',
  metadata: {},
});

describe('deployments kept for platforms that do not list them', () => {
  it('a promotion kept names where it went at once, before its writes are done', () => {
    const kept = new RememberedAgents(memento());
    void kept.keepDeployment('local', deployment('dep_2', 'pre-release'), 'sandbox');
    assert.equal(kept.promotedTo('local', 'agt_1', 'sandbox'), 'pre-release');
    assert.deepEqual(
      kept.deployments('local', 'agt_1').map((d) => d.id),
      ['dep_2'],
    );
  });

  it('are forgotten when the local platform holds other data, and kept while it holds the same', async () => {
    const kept = new RememberedAgents(memento());
    await kept.platformData('local', 'data-1');
    await kept.keepDeployment('local', deployment('dep_1', 'pre-release'), 'sandbox');
    await kept.keepDeployment('cloud', deployment('dep_9', 'sandbox'));
    await kept.platformData('local', 'data-1');
    assert.equal(kept.deployments('local', 'agt_1').length, 1, 'the same data: kept');
    await kept.platformData('local', 'data-2');
    assert.deepEqual(kept.deployments('local', 'agt_1'), [], 'other data: the ids no longer name these deployments');
    assert.equal(kept.promotedTo('local', 'agt_1', 'sandbox'), undefined);
    assert.equal(kept.deployments('cloud', 'agt_1').length, 1, 'other profiles keep theirs');
  });
});
