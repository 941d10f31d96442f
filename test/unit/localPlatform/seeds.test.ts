import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shiftTimestamps } from '../../../src/localPlatform/seed/seeds';
import { SEED_EPOCH } from '../../../src/localPlatform/seed/supportAgent';
import { startLocalPlatform } from '../../../src/localPlatform/server';

describe('demo seed anchoring', () => {
  it('moves every instant and nothing else', () => {
    const state = {
      a: '2026-01-05T09:00:00.000Z',
      nested: [{ at: '2026-01-04T09:00:00Z', text: 'on 2026-01-04T09:00:00Z' }],
      n: 3,
    };
    shiftTimestamps(state, 3_600_000);
    assert.deepEqual(state, {
      a: '2026-01-05T10:00:00.000Z',
      nested: [{ at: '2026-01-04T10:00:00.000Z', text: 'on 2026-01-04T09:00:00Z' }],
      n: 3,
    });
  });

  it('ends the demo week at the current hour when anchored now, with the clock on real time', async () => {
    const lp = await startLocalPlatform({
      seed: 'demo',
      demoAnchor: 'now',
      streamDelayMs: 0,
      alertEvaluationIntervalMs: 0,
    });
    try {
      const starts = lp.platform.state.conversations.map((c) => Date.parse(c.started_at));
      const newest = Math.max(...starts);
      const oldest = Math.min(...starts);
      const now = Date.now();
      assert.ok(now - newest < 2 * 3_600_000, 'the newest demo conversation is from the last hours');
      assert.ok(newest - oldest > 6 * 24 * 3_600_000 && newest - oldest <= 7 * 24 * 3_600_000, 'the demo spans a week');
      assert.ok(Math.abs(lp.platform.clock.now() - now) < 5_000, 'the clock is on real time');
      const deployed = Object.values(lp.platform.state.agents.deployments).map((d) => Date.parse(d.createdAt));
      assert.ok(
        deployed.every((t) => t <= now + 60_000),
        'no deployment is in the future',
      );
    } finally {
      await lp.close();
    }
  });

  it('keeps the fixed seed date by default, for tests', async () => {
    const lp = await startLocalPlatform({ seed: 'demo', streamDelayMs: 0, alertEvaluationIntervalMs: 0 });
    try {
      const newest = Math.max(...lp.platform.state.conversations.map((c) => Date.parse(c.started_at)));
      assert.ok(newest < SEED_EPOCH);
    } finally {
      await lp.close();
    }
  });
});
