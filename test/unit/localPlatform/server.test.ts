import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startLocalPlatform } from '../../../src/localPlatform/server';
import { call, useLocalPlatform } from '../support/localPlatform';

describe('local platform server', () => {
  const t = useLocalPlatform();

  it('serves the three bases and the admin API on one loopback port', async () => {
    const { urls } = t.lp;
    assert.match(urls.runtime, /^http:\/\/127\.0\.0\.1:\d+\/runtime$/);
    assert.match(urls.build, /\/build$/);
    assert.match(urls.messaging, /\/messaging$/);
    const health = await call<{ ok: boolean }>('GET', `${urls.admin}/health`);
    assert.equal(health.status, 200);
    assert.equal(health.body.ok, true);
  });

  it('answers an unknown address with 404 and a message naming the valid prefixes', async () => {
    const res = await call<{ message: string }>('GET', `${t.lp.urls.origin}/nowhere`);
    assert.equal(res.status, 404);
    assert.match(res.body.message, /\/runtime/);
  });

  it('injects a fault with Retry-After and clears it after the given count', async () => {
    const admin = t.lp.urls.admin;
    await call('POST', `${admin}/faults`, { body: { family: 'build', path: '/v1/nothing', status: 429, retryAfter: 2, times: 1 } });
    const first = await call<{ message: string }>('GET', `${t.lp.urls.build}/v1/nothing`);
    assert.equal(first.status, 429);
    assert.equal(first.headers.get('retry-after'), '2');
    const second = await call('GET', `${t.lp.urls.build}/v1/nothing`);
    assert.equal(second.status, 404);
  });

  it('moves the clock forward', async () => {
    const before = await call<{ now: string }>('GET', `${t.lp.urls.admin}/clock`);
    const after = await call<{ now: string }>('POST', `${t.lp.urls.admin}/clock`, { body: { advanceMs: 3_600_000 } });
    assert.ok(Date.parse(after.body.now) - Date.parse(before.body.now) >= 3_600_000);
  });
});

describe('local platform persistence', () => {
  it('keeps state in --data-dir with an atomic write and reloads it after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lp-data-'));
    try {
      const first = await startLocalPlatform({ dataDir: dir, seed: 'base', streamDelayMs: 0 });
      first.platform.state.accounts[0]!.name = 'Renamed Account';
      first.platform.mutated();
      await first.close();
      const saved = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { accounts: Array<{ name: string }> };
      assert.equal(saved.accounts[0]!.name, 'Renamed Account');
      const second = await startLocalPlatform({ dataDir: dir, seed: 'empty', streamDelayMs: 0 });
      assert.equal(second.platform.state.accounts[0]!.name, 'Renamed Account');
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
