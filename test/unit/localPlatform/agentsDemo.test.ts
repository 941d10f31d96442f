import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type ListAgentsResponse,
  type ListBranchesResponse,
  type ListDeploymentsResponse,
  type MergeConflictBody,
  type RealtimeConfig,
} from '../../../src/contract/agents';
import { seedDemoAgents } from '../../../src/localPlatform/agents/demo';
import { checkJsonSchema } from '../../../src/core/jsonSchema';
import { servedContent } from '../../../src/localPlatform/agents/served';
import { Platform } from '../../../src/localPlatform/platform';
import { applySeed } from '../../../src/localPlatform/seed/seeds';
import { useLocalPlatform } from '../../support/localPlatform';
import { agentsCaller } from './agentsSupport';

describe('Agents demo data', () => {
  const t = useLocalPlatform();
  const api = agentsCaller(t);

  it('is the same on every run', () => {
    const build = (): string => {
      const p = new Platform();
      applySeed(p, 'base');
      seedDemoAgents(p);
      return JSON.stringify({ agents: p.state.agents, connectors: p.state.connectors });
    };
    assert.equal(build(), build());
  });

  it('[AGENT-2][AGENT-3] adds two agents whose branches show a clean merge and a diverged one', async () => {
    seedDemoAgents(t.lp.platform);
    const agents = await api.get<ListAgentsResponse>('/v1/agents');
    assert.deepEqual(
      agents.body.agents.map((a) => a.agentId),
      ['ag_restaurant', 'ag_bank_cards', 'ag_support'],
    );
    const branches = await api.get<ListBranchesResponse>('/v1/agents/ag_restaurant/branches');
    assert.deepEqual(
      branches.body.branches.map((b) => b.name),
      ['main', 'christmas-menu', 'shorter-hours'],
    );
    const diverged = await api.post<MergeConflictBody>(
      '/v1/agents/ag_restaurant/branches/br_restaurant_shorter_hours/merge',
    );
    assert.equal(diverged.status, 409);
    assert.deepEqual(
      diverged.body.conflicts.map((c) => c.path),
      ['knowledge-base/topics/kt_bt_hours/content'],
    );
    assert.equal((await api.post('/v1/agents/ag_restaurant/branches/br_restaurant_christmas_menu/merge')).status, 200);
  });

  it('[AGENT-7][AGENT-8][AGENT-10] has releases in every environment, a rolled-back live, and valid real-time configs', async () => {
    seedDemoAgents(t.lp.platform);
    const live = await api.get<ListDeploymentsResponse>('/v1/agents/ag_bank_cards/deployments?environment=live');
    assert.deepEqual(
      live.body.deployments.map((d) => [d.version, d.metadata.action, d.active]),
      [
        ['4', 'rollback', true],
        ['2', 'promote', false],
        ['1', 'promote', false],
      ],
    );
    const platform = t.lp.platform;
    assert.doesNotMatch(servedContent(platform, 'ag_bank_cards', 'live').behavior, /fraud/);
    assert.match(servedContent(platform, 'ag_bank_cards', 'pre-release').behavior, /fraud/);
    assert.doesNotMatch(servedContent(platform, 'ag_restaurant', 'live').behavior, /Read back/);
    assert.match(servedContent(platform, 'ag_restaurant', 'pre-release').behavior, /Read back/);
    for (const [agentId, name] of [
      ['ag_restaurant', 'booking-rules'],
      ['ag_bank_cards', 'service-status'],
    ] as const) {
      const config = (await api.get<RealtimeConfig>(`/v1/agents/${agentId}/real-time-configs/${name}`)).body;
      assert.deepEqual(checkJsonSchema(config.schema, config.variables), [], name);
    }
  });
});
