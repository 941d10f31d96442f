import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, symlink, unlink } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SYSTEM_ERRORS } from '../../../src/contract/messaging';
import { LOCAL_CONNECTORS, LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { type LocalPlatform, startLocalPlatform } from '../../../src/localPlatform/server';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';
import { connect, EventClient, socketUrl } from '../../support/messaging';

const AGENTS = { 'x-api-key': LOCAL_KEYS.agents };
const CHAT = { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken };
const deepObject = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

type BuildError = { message: string; errors: Array<{ field: string; message: string }> };
type RuntimeError = { error_message: string };

/** A request with its path sent exactly as written (fetch would resolve `..` before sending). */
function rawGet(
  origin: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += String(c)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('local platform limits on what a request carries', () => {
  const t = useLocalPlatform({ wsFrameTimeoutMs: 300 });
  const chatBase = (): string => `${t.lp.urls.runtime}/v1/acme/support-desk/chat`;

  it('[AGENT-13] an Agents body nested 10,000 deep answers 400 in the build error shape', async () => {
    const res = await call<BuildError>('POST', `${t.lp.urls.build}/v1/agents`, {
      headers: { ...AGENTS, 'content-type': 'application/json' },
      rawBody: `{"name":"Deep","x":${deepObject(10_000)}}`,
    });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /deeper than 64/);
    assert.ok(Array.isArray(res.body.errors));
  });

  it('[CHAT-7] Chat integration_attributes nested 10,000 deep answer 400 with error_message; 60 levels are kept', async () => {
    const headers = { ...CHAT, 'content-type': 'application/json' };
    const deep = await call<RuntimeError>('POST', `${chatBase()}/create`, {
      headers,
      rawBody: `{"integration_attributes":${deepObject(10_000)}}`,
    });
    assert.equal(deep.status, 400);
    assert.match(deep.body.error_message, /deeper than 64/);
    const fine = await call('POST', `${chatBase()}/create`, {
      headers,
      rawBody: `{"integration_attributes":${deepObject(60)}}`,
    });
    assert.equal(fine.status, 200);
  });

  it('[DNI-1] DNI attributes nested 10,000 deep answer 400 with error_message, not 500', async () => {
    const res = await call<RuntimeError>('POST', `${t.lp.urls.runtime}/v1/conversations/dni-reservation`, {
      headers: { 'x-api-key': LOCAL_KEYS.dni, 'content-type': 'application/json' },
      rawBody: `{"attributes":${deepObject(10_000)}}`,
    });
    assert.equal(res.status, 400);
    assert.equal(typeof res.body.error_message, 'string');
  });

  it('[EXT-5] an External Events form field 10,000 levels deep answers 400 with error_message', async () => {
    const res = await call<RuntimeError>(
      'POST',
      `${t.lp.urls.runtime}/v1/external-events/webhook?event_id_location=payload&event_id_path=id&account_id=acme&project_id=support-desk`,
      {
        headers: { 'x-api-key': LOCAL_KEYS.externalEvents, 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: `id=1&a${'[x]'.repeat(10_000)}=1`,
      },
    );
    assert.equal(res.status, 400);
    assert.match(res.body.error_message, /deeper than 64/);
  });

  it('[MSG-20] a WebSocket message nested 10,000 deep gets the invalid-format system error; the session replays to a second socket', async () => {
    const { client, token, sessionId } = await connect(t.lp);
    client.send(
      `{"type":"EVENT_TYPE_USER_MESSAGE","payload":{"text":"hi"},"metadata":{"custom":${deepObject(10_000)}}}`,
    );
    const error = await client.systemError(SYSTEM_ERRORS.invalidFormat);
    assert.equal(error.payload.level, 'SYSTEM_MESSAGE_LEVEL_ERROR');
    const second = await EventClient.open(socketUrl(t.lp, { access_token: token, session_id: sessionId }));
    await second.type('EVENT_TYPE_EVENT_BATCH');
    assert.equal((await call('GET', `${t.lp.urls.admin}/health`)).status, 200);
    second.close();
    client.close();
  });

  it('drops a WebSocket whose frame announces 100 bytes and sends 3', async () => {
    const { client } = await connect(t.lp);
    const socket = (client.ws as unknown as { _socket: { write(b: Buffer): void } })._socket;
    // FIN + text, masked, length 100; a mask; then 3 of the 100 bytes.
    socket.write(Buffer.from([0x81, 0x80 | 100, 1, 2, 3, 4, 0x61, 0x62, 0x63]));
    const started = Date.now();
    await client.closed;
    assert.ok(Date.now() - started < 5_000);
  });

  it('[AGENT-13] Agents and Alerts answer a JSON body of another media type with 415 in the build error shape', async () => {
    for (const [url, key, body] of [
      [`${t.lp.urls.build}/v1/agents`, LOCAL_KEYS.agents, '{"name":"Typed"}'],
      [`${t.lp.urls.build}/v1/webhook-endpoints`, LOCAL_KEYS.alerts, '{"url":"https://example.com/hook"}'],
    ] as const) {
      for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', undefined]) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'x-api-key': key, ...(type ? { 'content-type': type } : {}) },
          body: new TextEncoder().encode(body),
        });
        const json = (await res.json()) as BuildError;
        assert.equal(res.status, 415, `${url} as ${type ?? 'no type'}`);
        assert.match(json.message, /application\/json/);
        assert.ok(Array.isArray(json.errors));
      }
    }
  });

  it('answers a messaging session request of another media type with 415 and the messaging shape', async () => {
    const token = await call<{ access_token: string }>('POST', `${t.lp.urls.messaging}/api/v1/access-token`, {
      headers: { 'x-token': LOCAL_CONNECTORS.webchatToken, 'x-host': LOCAL_CONNECTORS.webchatHost },
      body: {},
    });
    const res = await call<{ message: string }>('POST', `${t.lp.urls.messaging}/api/v1/sessions`, {
      headers: { authorization: `Bearer ${token.body.access_token}`, 'content-type': 'text/plain' },
      rawBody: '{}',
    });
    assert.equal(res.status, 415);
    assert.match(res.body.message, /application\/json/);
  });

  it('[AGENT-13] refuses `..` and `.` segments, plain or encoded, instead of resolving them', async () => {
    for (const path of [
      '/build/v1/agents/ag_support/branches/..',
      '/build/v1/agents/ag_support/branches/%2e%2E',
      '/build/v1/agents/./ag_support',
    ]) {
      const res = await rawGet(t.lp.urls.origin, path, AGENTS);
      assert.equal(res.status, 400, path);
      const body = JSON.parse(res.body) as BuildError;
      assert.match(body.message, /segment/);
      assert.ok(Array.isArray(body.errors));
    }
  });

  it('[AGENT-13] reads paging values as decimal integers only', async () => {
    for (const query of ['limit=0x10', 'limit=1e1', 'offset=0b1', 'limit=5.0', 'limit=%205']) {
      const res = await call<BuildError>('GET', `${t.lp.urls.build}/v1/agents?${query}`, { headers: AGENTS });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.errors[0]!.message, 'must be a decimal integer');
    }
    assert.equal(
      (await call('GET', `${t.lp.urls.build}/v1/agents?limit=16&offset=0`, { headers: AGENTS })).status,
      200,
    );
  });
});

describe('local platform saves with --data-dir', () => {
  async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), 'lp-save-'));
    try {
      await run(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const start = (dir: string, seed: 'base' | 'empty' = 'base'): Promise<LocalPlatform> =>
    startLocalPlatform({ dataDir: dir, seed, streamDelayMs: 0 });
  const createAgent = async (lp: LocalPlatform, name: string) =>
    call<{ agentId: string } & BuildError>('POST', `${lp.urls.build}/v1/agents`, { headers: AGENTS, body: { name } });

  it('writes each acknowledged change to the journal before answering', async () => {
    await withDir(async (dir) => {
      const lp = await start(dir);
      const created = await createAgent(lp, 'Journaled');
      assert.equal(created.status, 201);
      // Read while the platform runs: the snapshot is from the start, the agent is in the journal already.
      const files = await readdir(dir);
      const journal = files.find((f) => /^journal-\d+\.log$/.test(f))!;
      const { readFile } = await import('node:fs/promises');
      assert.match(await readFile(join(dir, journal), 'utf8'), new RegExp(created.body.agentId));
      await lp.close();
    });
  });

  it('reports a failed save on the next request in the family shape, retries it, and keeps the change once it succeeds', async () => {
    await withDir(async (dir) => {
      const lp = await start(dir);
      // The snapshot written at start is generation 1; its journal is opened by the first change.
      const journal = 'journal-1.log';
      // Every write to /dev/full fails with "no space left on device".
      await symlink('/dev/full', join(dir, journal));
      const failed = await createAgent(lp, 'Unsaved');
      assert.equal(failed.status, 503);
      assert.match(failed.body.message, /could not save/);
      assert.ok(Array.isArray(failed.body.errors));
      const runtime = await call<RuntimeError>('GET', `${lp.urls.runtime}/v3/acme/support-desk/conversations`, {
        headers: { 'x-api-key': LOCAL_KEYS.conversations },
      });
      assert.equal(runtime.status, 503);
      assert.match(runtime.body.error_message, /could not save/);
      await unlink(join(dir, journal));
      const list = await call<{ agents: Array<{ name: string }> }>('GET', `${lp.urls.build}/v1/agents`, {
        headers: AGENTS,
      });
      assert.equal(list.status, 200);
      assert.ok(list.body.agents.some((a) => a.name === 'Unsaved'));
      const later = await createAgent(lp, 'Saved later');
      assert.equal(later.status, 201);
      await lp.close();
      const again = await start(dir, 'empty');
      const names = (
        await call<{ agents: Array<{ name: string }> }>('GET', `${again.urls.build}/v1/agents`, { headers: AGENTS })
      ).body.agents.map((a) => a.name);
      assert.ok(names.includes('Unsaved') && names.includes('Saved later'));
      await again.close();
    });
  });

  it('keeps the clock, conversations and counters across a restart, and never hands out an id twice', async () => {
    await withDir(async (dir) => {
      const lp = await start(dir);
      await call('POST', `${lp.urls.admin}/clock`, { body: { advanceMs: 3_600_000 } });
      const conv = await call<{ conversation_id: string }>(
        'POST',
        `${lp.urls.runtime}/v1/acme/support-desk/chat/create`,
        { headers: CHAT, body: {} },
      );
      await call('POST', `${lp.urls.runtime}/v1/acme/support-desk/chat/respond`, {
        headers: CHAT,
        body: { conversation_id: conv.body.conversation_id, message: 'What are your opening hours?' },
      });
      const first = await createAgent(lp, 'First');
      const clock = (await call<{ offsetMs: number }>('GET', `${lp.urls.admin}/clock`)).body.offsetMs;
      await lp.close();
      const again = await start(dir, 'empty');
      assert.ok(
        Math.abs((await call<{ offsetMs: number }>('GET', `${again.urls.admin}/clock`)).body.offsetMs - clock) < 1000,
      );
      const stored = again.platform.findConversation(conv.body.conversation_id);
      assert.equal(stored?.turns.length, 2);
      const second = await createAgent(again, 'Second');
      assert.notEqual(second.body.agentId, first.body.agentId);
      await again.close();
    });
  });
});
