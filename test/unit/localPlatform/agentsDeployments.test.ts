import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  deploymentActionResultSchema,
  deploymentSchema,
  listDeploymentsResponseSchema,
  type DeploymentActionResult,
  type Deployment,
  type ListDeploymentsResponse,
} from '../../../src/contract/agents';
import { servedContent } from '../../../src/localPlatform/agents/served';
import { SUPPORT_AGENT_CONTENT } from '../../../src/localPlatform/seed/supportAgent';
import { useLocalPlatform } from '../../support/localPlatform';
import { agentsCaller, type ErrorBody, SUPPORT } from './agentsSupport';

const SPEC_FIELDS = [
  'id',
  'accountId',
  'agentId',
  'environment',
  'artifactVersion',
  'version',
  'createdBy',
  'createdAt',
  'metadata',
];

describe('Agents API: deployments (spec: Agents API publish, promote, rollback; Deployments states)', () => {
  const t = useLocalPlatform();
  const api = agentsCaller(t);
  const agentPath = `/v1/agents/${SUPPORT.agentId}`;
  const mainPath = `${agentPath}/branches/${SUPPORT.mainId}`;

  const publish = async (message?: string): Promise<DeploymentActionResult> => {
    const res = await api.post<DeploymentActionResult>(`${agentPath}/deployments/publish`, {
      environment: 'sandbox',
      ...(message !== undefined ? { deploymentMessage: message } : {}),
    });
    assert.equal(res.status, 200);
    return deploymentActionResultSchema.parse(res.body);
  };
  const promote = async (id: string): Promise<DeploymentActionResult> => {
    const res = await api.post<DeploymentActionResult>(`${agentPath}/deployments/${id}/promote`);
    assert.equal(res.status, 200);
    return deploymentActionResultSchema.parse(res.body);
  };
  const served = (env: 'sandbox' | 'pre-release' | 'live'): string =>
    servedContent(t.lp.platform, SUPPORT.agentId, env).behavior;

  it("[AGENT-6][AGENT-9] publish to sandbox freezes main's draft in a deployment with every spec field and test run ids", async () => {
    await api.patch(`${mainPath}/behavior`, { behavior: 'Draft v2' });
    const { deployment, testRunIds } = await publish('Second release');
    for (const field of SPEC_FIELDS) assert.ok(field in deployment, field);
    for (const field of SPEC_FIELDS.filter((f) => f !== 'metadata'))
      assert.equal(typeof (deployment as Record<string, unknown>)[field], 'string', field);
    assert.equal(typeof deployment.metadata, 'object');
    assert.equal(deployment.environment, 'sandbox');
    assert.equal(deployment.agentId, SUPPORT.agentId);
    assert.equal(deployment.accountId, 'ACCOUNT-a1b2c3d');
    assert.equal(deployment.version, '2', 'versions go on from the seeded release 1');
    assert.equal(deployment.metadata.message, 'Second release');
    assert.equal(deployment.active, true);
    assert.equal(testRunIds.length, 1);
    assert.equal(served('sandbox'), 'Draft v2');
    // Later drafts do not change what sandbox serves.
    await api.patch(`${mainPath}/behavior`, { behavior: 'Draft v3' });
    assert.equal(served('sandbox'), 'Draft v2');
    assert.equal(served('live'), SUPPORT_AGENT_CONTENT.behavior);
  });

  it('[AGENT-6][AGENT-13] publish takes sandbox: pre-release and live are 400 (promote instead), other values and a missing environment too', async () => {
    for (const body of [{ environment: 'live' }, { environment: 'pre-release' }, { environment: 'production' }, {}]) {
      const res = await api.post<ErrorBody>(`${agentPath}/deployments/publish`, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.errors[0]?.field, 'environment');
    }
  });

  it('[AGENT-7] promote moves a release from sandbox to pre-release, then to live, keeping its version and artifact', async () => {
    await api.patch(`${mainPath}/behavior`, { behavior: 'Release 2' });
    const sandbox = (await publish()).deployment;
    const pre = await promote(sandbox.id);
    assert.equal(pre.deployment.environment, 'pre-release');
    assert.deepEqual(
      [pre.deployment.version, pre.deployment.artifactVersion],
      [sandbox.version, sandbox.artifactVersion],
    );
    assert.equal(pre.deployment.metadata.promotedFrom, sandbox.id);
    assert.equal(pre.testRunIds.length, 1);
    assert.equal(served('pre-release'), 'Release 2');
    assert.equal(served('live'), SUPPORT_AGENT_CONTENT.behavior, 'live is untouched until promoted');
    const live = await promote(pre.deployment.id);
    assert.equal(live.deployment.environment, 'live');
    assert.equal(served('live'), 'Release 2');
    const liveList = await api.get<ListDeploymentsResponse>(`${agentPath}/deployments?environment=live`);
    listDeploymentsResponseSchema.parse(liveList.body);
    assert.deepEqual(
      liveList.body.deployments.map((d) => [d.id, d.active]),
      [
        [live.deployment.id, true],
        ['dep_support_3', false],
      ],
    );
  });

  it('[AGENT-7][AGENT-13] promoting a live deployment is 409', async () => {
    const res = await api.post<ErrorBody>(`${agentPath}/deployments/dep_support_3/promote`);
    assert.equal(res.status, 409);
    assert.equal(res.body.errors[0]?.field, 'deploymentId');
    assert.match(res.body.message, /already live/);
  });

  it('[AGENT-8] rollback re-activates the environment\'s previous deployment as a new version; deploymentMessage defaults to ""', async () => {
    await api.patch(`${mainPath}/behavior`, { behavior: 'Broken release' });
    const bad = (await publish()).deployment;
    assert.equal(served('sandbox'), 'Broken release');
    const res = await api.post<DeploymentActionResult>(`${agentPath}/deployments/${bad.id}/rollback`);
    assert.equal(res.status, 200);
    const { deployment, testRunIds } = deploymentActionResultSchema.parse(res.body);
    assert.equal(deployment.environment, 'sandbox');
    assert.equal(deployment.metadata.message, '');
    assert.equal(deployment.metadata.restoredFrom, 'dep_support_1');
    assert.equal(deployment.artifactVersion, 'art_support_1');
    assert.ok(Number(deployment.version) > Number(bad.version), 'a new, higher version');
    assert.deepEqual(testRunIds, []);
    assert.equal(served('sandbox'), SUPPORT_AGENT_CONTENT.behavior);
    const withMessage = await api.post<DeploymentActionResult>(`${agentPath}/deployments/${deployment.id}/rollback`, {
      deploymentMessage: 'Back to the fix',
    });
    assert.equal(withMessage.body.deployment.metadata.message, 'Back to the fix');
    assert.equal(served('sandbox'), 'Broken release', 'rolling back a rollback restores what it replaced');
  });

  it('[AGENT-8][AGENT-13] rolling back a deployment that is not active, or the first of its environment, is 409; a bad message is 400', async () => {
    const first = await api.post<ErrorBody>(`${agentPath}/deployments/dep_support_1/rollback`, {
      deploymentMessage: 'x',
    });
    assert.equal(first.status, 409);
    assert.match(first.body.message, /no earlier deployment/);
    await publish();
    const inactive = await api.post<ErrorBody>(`${agentPath}/deployments/dep_support_1/rollback`);
    assert.equal(inactive.status, 409);
    assert.match(inactive.body.message, /only the active deployment/);
    const badMessage = await api.post<ErrorBody>(`${agentPath}/deployments/dep_support_1/rollback`, {
      deploymentMessage: 5,
    });
    assert.equal(badMessage.status, 400);
    assert.equal(badMessage.body.errors[0]?.field, 'deploymentMessage');
  });

  it('[AGENT-9] deployments list newest first, filter by environment and get by id; versions increase per agent', async () => {
    const a = (await publish()).deployment;
    const b = (await publish()).deployment;
    assert.equal(Number(b.version), Number(a.version) + 1);
    const all = await api.get<ListDeploymentsResponse>(`${agentPath}/deployments`);
    assert.deepEqual(
      all.body.deployments.slice(0, 2).map((d) => d.id),
      [b.id, a.id],
    );
    assert.equal(all.body.deployments.length, 5);
    const sandbox = await api.get<ListDeploymentsResponse>(`${agentPath}/deployments?environment=sandbox`);
    assert.ok(sandbox.body.deployments.every((d) => d.environment === 'sandbox'));
    assert.deepEqual(
      sandbox.body.deployments.map((d) => d.active),
      [true, false, false],
    );
    const one = await api.get<Deployment>(`${agentPath}/deployments/${a.id}`);
    assert.deepEqual(deploymentSchema.parse(one.body), { ...a, active: false });
    const badEnv = await api.get<ErrorBody>(`${agentPath}/deployments?environment=prod`);
    assert.equal(badEnv.status, 400);
    // Another agent's versions start at 1.
    const other = await api.post<{ agentId: string }>('/v1/agents', { name: 'Fresh' });
    const fresh = await api.post<DeploymentActionResult>(`/v1/agents/${other.body.agentId}/deployments/publish`, {
      environment: 'sandbox',
    });
    assert.equal(fresh.body.deployment.version, '1');
  });

  it("[AGENT-6] an agent that was never published serves main's draft everywhere", async () => {
    const other = await api.post<{ agentId: string; defaultBranch: { branchId: string } }>('/v1/agents', {
      name: 'Draft only',
    });
    await api.patch(`/v1/agents/${other.body.agentId}/branches/${other.body.defaultBranch.branchId}/behavior`, {
      behavior: 'Just a draft',
    });
    assert.equal(servedContent(t.lp.platform, other.body.agentId, 'live').behavior, 'Just a draft');
    assert.throws(() => servedContent(t.lp.platform, 'ag_nobody', 'live'), /no main branch/);
  });
});
