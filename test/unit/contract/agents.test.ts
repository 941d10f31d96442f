import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AGENT_ID_PATTERN,
  createAgentRequestSchema,
  deploymentActionResultSchema,
  deploymentSchema,
  mergeConflictBodySchema,
  phoneNumberSchema,
} from '../../../src/contract/agents';

const deployment = {
  id: 'dep_1',
  accountId: 'ACCOUNT-a1b2c3d',
  agentId: 'ag_x',
  environment: 'sandbox',
  artifactVersion: 'art_1',
  version: '1',
  createdBy: 'x',
  createdAt: '2026-01-05T09:00:00.000Z',
  metadata: {},
};

describe('Agents contract', () => {
  it('[AGENT-9] a deployment keeps fields it does not know and names a missing required field', () => {
    const parsed = deploymentSchema.parse({ ...deployment, region: 'eu' });
    assert.equal((parsed as Record<string, unknown>).region, 'eu');
    const { artifactVersion: _omit, ...missing } = deployment;
    const bad = deploymentActionResultSchema.safeParse({ deployment: missing, testRunIds: [] });
    assert.equal(bad.success, false);
    assert.deepEqual(
      bad.error?.issues.map((i) => i.path.join('.')),
      ['deployment.artifactVersion'],
    );
  });

  it('[AGENT-11] a phone number needs all five spec fields', () => {
    const bad = phoneNumberSchema.safeParse({ number: '+1', projectId: 'p', accountId: 'a', clientEnv: 'live' });
    assert.deepEqual(
      bad.error?.issues.map((i) => i.path.join('.')),
      ['connectorId'],
    );
  });

  it('[AGENT-1] the create request bounds the name and defaults the description', () => {
    assert.deepEqual(createAgentRequestSchema.parse({ name: 'A' }), { name: 'A', description: '' });
    assert.equal(createAgentRequestSchema.safeParse({ name: 'x'.repeat(129) }).success, false);
    assert.ok(AGENT_ID_PATTERN.test('ag_support') && !AGENT_ID_PATTERN.test('support'));
  });

  it('[AGENT-3] a 409 merge body carries conflicts with base, ours and theirs', () => {
    const body = mergeConflictBodySchema.parse({
      message: 'm',
      errors: [],
      conflicts: [
        {
          path: 'knowledge-base/topics/kt_a',
          base: { name: 'a', content: 'b' },
          ours: null,
          theirs: { name: 'a', content: 'c' },
        },
      ],
    });
    assert.equal(body.conflicts[0]!.ours, null);
  });
});
