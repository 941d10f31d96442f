import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { probeConnection } from '../../../src/client/probe';
import { localContext } from '../../support/localClient';
import { RESPONSES, useLocalPlatform } from '../../support/localPlatform';

describe('client: test connection', () => {
  const t = useLocalPlatform();

  it('[AUTH-1] reports every family as working with the seeded credentials', async () => {
    const results = await probeConnection(localContext(t.lp));
    for (const r of results) assert.equal(r.outcome, 'works', `${r.label}: ${r.detail ?? ''}`);
    assert.equal(results.length, 8);
  });

  it('[AUTH-1] tells rejected, not configured and working apart, per family, with why', async () => {
    const results = await probeConnection(
      localContext(t.lp, {
        overrides: {
          agentsApiKey: 'not-a-real-key',
          dniApiKey: undefined,
          outboundAuthToken: 'lp_voice_inbound_only_token',
          messagingHost: 'evil.example.org',
        },
      }),
    );
    const by = Object.fromEntries(results.map((r) => [r.family, r]));
    assert.equal(by.agents!.outcome, 'rejected');
    assert.match(by.agents!.detail!, /Agents API key/);
    assert.equal(by.dni!.outcome, 'notConfigured');
    assert.match(by.dni!.detail!, /DNI key/);
    assert.equal(by.outbound!.outcome, 'rejected');
    assert.equal(by.messaging!.outcome, 'rejected');
    assert.match(by.messaging!.detail!, /Failed to validate connector/);
    assert.equal(by.conversations!.outcome, 'works');
  });

  it('does not call a wrong runtime address working (every probe there answers 404)', async () => {
    const ctx = localContext(t.lp);
    (ctx.profile as { runtimeUrl: string }).runtimeUrl = `${t.lp.urls.origin}/nothing-here`;
    const results = await probeConnection(ctx);
    for (const family of ['chat', 'conversations', 'outbound', 'externalEvents', 'dni']) {
      assert.notEqual(results.find((r) => r.family === family)!.outcome, 'works', family);
    }
  });

  it('reports an unreachable platform as unreachable', async () => {
    const ctx = localContext(t.lp);
    (ctx.profile as { buildUrl: string }).buildUrl = 'http://127.0.0.1:9/build';
    const results = await probeConnection(ctx);
    assert.equal(results.find((r) => r.family === 'agents')!.outcome, 'unreachable');
  });

  it('[AUTH-1] reads only what the spec shows: the current alerts and the phone numbers of an agent', async () => {
    await t.admin.setResponses('spec-only');
    try {
      const results = await probeConnection(localContext(t.lp));
      const by = Object.fromEntries(results.map((r) => [r.family, r]));
      assert.equal(by.agents!.outcome, 'works', by.agents!.detail);
      assert.equal(by.alerts!.outcome, 'works', by.alerts!.detail);
    } finally {
      await t.admin.setResponses(RESPONSES);
    }
  });

  it('does not count a gateway 404 on the agent read as working', async () => {
    await t.admin.addFault({ family: 'build', method: 'GET', path: '/telephony/phone-numbers', status: 404 });
    const results = await probeConnection(localContext(t.lp));
    assert.equal(results.find((r) => r.family === 'agents')!.outcome, 'unknown');
  });

  it('sends a probe that posts only once, even after a 503', async () => {
    await t.admin.addFault({ family: 'runtime', method: 'POST', path: '/v1/outbound-calling', status: 503 });
    await t.admin.clearRequests();
    const results = await probeConnection(localContext(t.lp));
    assert.equal(results.find((r) => r.family === 'outbound')!.outcome, 'unknown');
    const log = await t.admin.requests();
    assert.equal(log.filter((r) => r.method === 'POST' && r.path.endsWith('/v1/outbound-calling')).length, 1);
  });
});
