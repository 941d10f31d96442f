import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startLocalPlatform } from '../../../src/localPlatform/server';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

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
    await call('POST', `${admin}/faults`, {
      body: { family: 'build', path: '/v1/nothing', status: 429, retryAfter: 2, times: 1 },
    });
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

describe('local platform robustness', () => {
  const t = useLocalPlatform();

  it('answers a WebSocket upgrade with an unreadable address with 400 and keeps serving', async () => {
    const { connect } = await import('node:net');
    const answer = await new Promise<string>((resolve, reject) => {
      const sock = connect(t.lp.port, '127.0.0.1', () =>
        sock.write('GET //[ HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'),
      );
      let data = '';
      sock.on('data', (d) => (data += d.toString()));
      sock.on('close', () => resolve(data));
      sock.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.equal((await call('GET', `${t.lp.urls.admin}/health`)).status, 200);
  });

  it('refuses faults, clock moves and project settings that would break it, saying which field', async () => {
    const badFault = await call<{ errors: Array<{ field: string }> }>('POST', `${t.lp.urls.admin}/faults`, {
      body: { path: '/(/', status: 500 },
    });
    assert.equal(badFault.status, 400);
    assert.equal(badFault.body.errors[0]!.field, 'path');
    assert.equal((await call('POST', `${t.lp.urls.admin}/clock`, { body: { advanceMs: 1e16 } })).status, 400);
    const badSettings = await call<{ errors: Array<{ field: string }> }>(
      'PATCH',
      `${t.lp.urls.admin}/projects/support-desk/settings`,
      { body: { responseMetrics: 'CALL_TURN' } },
    );
    assert.equal(badSettings.status, 400);
    assert.equal(badSettings.body.errors[0]!.field, 'responseMetrics');
    const conversations = await call('GET', `${t.lp.urls.runtime}/v3/acme/support-desk/conversations`, {
      headers: { 'x-api-key': 'lp_conversations_key' },
    });
    assert.equal(conversations.status, 200);
  });

  it('answers a body over 5 MB with 413 in the error shape of its base', async () => {
    const res = await call<{ error_message?: string }>('POST', `${t.lp.urls.runtime}/v1/outbound-calling`, {
      rawBody: 'x'.repeat(6 * 1024 * 1024),
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(res.status, 413);
    assert.match(res.body.error_message ?? '', /too large/);
  });

  it('answers a wrong method on a messaging path with the messaging error shape', async () => {
    const res = await call<{ message?: string; error_message?: string }>(
      'GET',
      `${t.lp.urls.messaging}/api/v1/sessions`,
    );
    assert.equal(res.status, 405);
    assert.match(res.body.message ?? '', /not allowed/);
    assert.equal(res.body.error_message, undefined);
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
      const saved = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as {
        accounts: Array<{ name: string }>;
      };
      assert.equal(saved.accounts[0]!.name, 'Renamed Account');
      const second = await startLocalPlatform({ dataDir: dir, seed: 'empty', streamDelayMs: 0 });
      assert.equal(second.platform.state.accounts[0]!.name, 'Renamed Account');
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says which data it holds: the same id after a restart with its data folder, another after a reset or without one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lp-data-'));
    const dataId = async (admin: string) => (await call<{ dataId: string }>('GET', `${admin}/connection`)).body.dataId;
    try {
      const first = await startLocalPlatform({ dataDir: dir, seed: 'base', streamDelayMs: 0 });
      const kept = await dataId(first.urls.admin);
      assert.match(kept, /^[0-9a-f-]{36}$/);
      first.platform.mutated();
      await first.close();
      const second = await startLocalPlatform({ dataDir: dir, seed: 'base', streamDelayMs: 0 });
      assert.equal(await dataId(second.urls.admin), kept, 'the same data, read back from its folder');
      await call('POST', `${second.urls.admin}/reset`, { body: { seed: 'base' } });
      assert.notEqual(await dataId(second.urls.admin), kept, 'a reset makes the data afresh');
      await second.close();
      const inMemory = await startLocalPlatform({ seed: 'base', streamDelayMs: 0 });
      const again = await startLocalPlatform({ seed: 'base', streamDelayMs: 0 });
      assert.notEqual(
        await dataId(inMemory.urls.admin),
        await dataId(again.urls.admin),
        'no folder: new data each start',
      );
      await inMemory.close();
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
