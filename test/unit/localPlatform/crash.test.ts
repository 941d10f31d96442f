import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { LOCAL_CONNECTORS, LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { startLocalPlatform } from '../../../src/localPlatform/server';

const CLI = resolve(__dirname, '../../../src/cli/main.ts');
const MIN_KILLS = 20;
const MIN_WRITES = 1000;
const AGENTS = { 'x-api-key': LOCAL_KEYS.agents, 'content-type': 'application/json' };
const CHAT = {
  'X-API-KEY': LOCAL_KEYS.chat,
  'X-TOKEN': LOCAL_CONNECTORS.chatToken,
  'content-type': 'application/json',
};

/** What an answer acknowledged: the agent, conversation or turn it created. */
type Acknowledged =
  | { kind: 'agent'; id: string; name: string }
  | { kind: 'conversation'; id: string }
  | { kind: 'turn'; conversationId: string; message: string };

/** Starts the CLI as its own process (as people run it) and resolves with its addresses. */
function startProcess(dir: string): Promise<{ child: ChildProcess; build: string; runtime: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CLI,
      'serve',
      '--port',
      '0',
      '--seed',
      'base',
      '--data-dir',
      dir,
      '--json',
      '--stream-delay',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolveStart, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += String(chunk);
      const line = out.split('\n')[0]!;
      if (out.includes('\n')) {
        const { urls } = JSON.parse(line) as { urls: { build: string; runtime: string } };
        resolveStart({ child, build: urls.build, runtime: urls.runtime });
      }
    });
    child.once('exit', (code) => reject(new Error(`the local platform exited with ${code} before it listened`)));
  });
}

async function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Writes one after another until the process is gone; records what each 2xx acknowledged. */
async function writer(
  urls: { build: string; runtime: string },
  tag: string,
  acknowledged: Acknowledged[],
  onAcknowledged: () => void,
): Promise<void> {
  const chat = `${urls.runtime}/v1/acme/support-desk/chat`;
  let conversationId: string | undefined;
  for (let i = 0; ; i++) {
    try {
      if (i % 3 === 0) {
        const name = `Crash ${tag}-${i}`;
        const res = await post(`${urls.build}/v1/agents`, AGENTS, { name });
        assert.equal(res.status, 201);
        acknowledged.push({ kind: 'agent', id: String(res.body.agentId), name });
      } else if (i % 3 === 1 || !conversationId) {
        const res = await post(`${chat}/create`, CHAT, {});
        assert.equal(res.status, 200);
        conversationId = String(res.body.conversation_id);
        acknowledged.push({ kind: 'conversation', id: conversationId });
      } else {
        const message = `Turn ${tag}-${i}: what are your opening hours?`;
        const res = await post(`${chat}/respond`, CHAT, { conversation_id: conversationId, message });
        assert.equal(res.status, 200);
        acknowledged.push({ kind: 'turn', conversationId, message });
      }
    } catch (err) {
      if (err instanceof assert.AssertionError) throw err;
      return; // the process was killed: this write was never acknowledged
    }
    onAcknowledged();
  }
}

describe('local platform crash safety with --data-dir', () => {
  it(`keeps every acknowledged write through ${MIN_KILLS} or more SIGKILLs at random moments, and never uses an id twice`, async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'lp-crash-'));
    const acknowledged: Acknowledged[] = [];
    let kills = 0;
    try {
      while (kills < MIN_KILLS || acknowledged.length < MIN_WRITES) {
        const server = await startProcess(dir);
        const exited = new Promise((r) => server.child.once('exit', r));
        // Killed at a random moment once writes flow (a cold process answers its first ones slowly).
        let killer: ReturnType<typeof setTimeout> | undefined;
        const armKiller = (): void => {
          killer ??= setTimeout(() => server.child.kill('SIGKILL'), 150 + Math.random() * 850);
        };
        await Promise.all(['a', 'b', 'c'].map((w) => writer(server, `${kills}${w}`, acknowledged, armKiller)));
        clearTimeout(killer);
        server.child.kill('SIGKILL');
        await exited;
        kills += 1;
      }
      const lp = await startLocalPlatform({ dataDir: dir, seed: 'empty', streamDelayMs: 0 });
      try {
        const state = lp.platform.state;
        for (const w of acknowledged) {
          if (w.kind === 'agent')
            assert.equal(state.agents.agents[w.id]?.name, w.name, `agent ${w.id} (${w.name}) after restart`);
          else if (w.kind === 'conversation')
            assert.ok(lp.platform.findConversation(w.id), `conversation ${w.id} after restart`);
          else
            assert.ok(
              lp.platform.findConversation(w.conversationId)?.turns.some((turn) => turn.user_input === w.message),
              `turn "${w.message}" after restart`,
            );
        }
        for (const kind of ['agent', 'conversation'] as const) {
          const ids = acknowledged.filter((w) => w.kind === kind).map((w) => (w as { id: string }).id);
          assert.equal(new Set(ids).size, ids.length, `a ${kind} id was handed out twice`);
        }
      } finally {
        await lp.close();
      }
      t.diagnostic(`${kills} kills, ${acknowledged.length} acknowledged writes checked after restart`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
