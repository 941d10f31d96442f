import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkedOutBranches, parseAgentManifest, serializeAgentManifest } from '../../../src/workspace/agentManifest';

describe('agent.json', () => {
  const manifest = {
    agentId: 'ag_support',
    name: 'Support Desk',
    profile: 'local',
    branch: { branchId: 'br_support_main', name: 'main' },
  };

  it('round-trips and holds only the agent, profile and branch', () => {
    const text = serializeAgentManifest(manifest);
    assert.deepEqual(parseAgentManifest(text), manifest);
    assert.deepEqual(Object.keys(JSON.parse(text)), ['agentId', 'name', 'profile', 'branch']);
  });

  it('reads anything that is not a manifest as undefined', () => {
    for (const text of [
      '',
      '{',
      '[]',
      'null',
      '{"agentId":"a"}',
      '{"agentId":"a","profile":"p","branch":{"name":"main"}}',
    ]) {
      assert.equal(parseAgentManifest(text), undefined, text);
    }
  });

  it('tells which branch is checked out per agent, for the given profile only', () => {
    const other = { ...manifest, profile: 'prod', branch: { branchId: 'br_x', name: 'x' } };
    const map = checkedOutBranches([other, manifest], 'local');
    assert.deepEqual([...map], [['ag_support', 'br_support_main']]);
  });
});
