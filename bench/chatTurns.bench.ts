// Chat API respond turns per second over HTTP keep-alive on loopback: 4 concurrent clients, each
// with its own conversation, send a fixed number of turns (bounded in time). The local platform
// runs in a child process, as it runs apart from its clients in the product, so the client's
// work does not share the server's event loop. Prints BENCH lines: the rate, and the server's CPU
// time per turn (on a busy machine the rate also counts waiting for a core).
// BENCH_CPU_PROF=<dir> writes a CPU profile of the server process there (see platformProcess.ts).
import { Pool } from 'undici';
import { LOCAL_ACCOUNT, LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from '../src/localPlatform/seed/credentials';
import { bench, type PlatformProcess, withPlatformProcess } from './platformProcess';

const CLIENTS = 4;
const TURNS_PER_CLIENT = 3000;
const WARMUP_TURNS = 200;
const TIME_LIMIT_MS = 60_000;
const QUESTIONS = [
  'What are your opening hours on Sunday?',
  'Can I return an item I bought last week?',
  'How long does express delivery take?',
  'Is there anything about parking?',
  '',
  'Hello there',
];
const HEADERS = {
  'X-API-KEY': LOCAL_KEYS.chat,
  'X-TOKEN': LOCAL_CONNECTORS.chatToken,
  'content-type': 'application/json',
};

async function post(pool: Pool, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await pool.request({ method: 'POST', path, headers: HEADERS, body: JSON.stringify(body) });
  const json = JSON.parse(await res.body.text()) as Record<string, unknown>;
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

/** One client: a conversation and `turns` respond calls one after the other. */
async function client(pool: Pool, base: string, turns: number, deadline: number): Promise<number> {
  const created = await post(pool, `${base}/create`, {});
  let done = 0;
  for (let i = 0; i < turns && performance.now() < deadline; i++) {
    const reply = await post(pool, `${base}/respond`, {
      conversation_id: created.conversation_id,
      message: QUESTIONS[i % QUESTIONS.length],
    });
    if (typeof reply.response !== 'string') throw new Error('a reply without response');
    done += 1;
  }
  return done;
}

async function main(server: PlatformProcess): Promise<void> {
  const url = new URL(server.urls.runtime);
  const pool = new Pool(url.origin, { connections: CLIENTS, pipelining: 1 });
  const base = `${url.pathname}/v1/${LOCAL_ACCOUNT.slug}/${LOCAL_PROJECT.slug}/chat`;
  try {
    await Promise.all(Array.from({ length: CLIENTS }, () => client(pool, base, WARMUP_TURNS / CLIENTS, Infinity)));
    await server.mark();
    const t0 = performance.now();
    const deadline = t0 + TIME_LIMIT_MS;
    const counts = await Promise.all(
      Array.from({ length: CLIENTS }, () => client(pool, base, TURNS_PER_CLIENT, deadline)),
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpuMs = await server.cpuMs();
    const turns = counts.reduce((a, b) => a + b, 0);
    bench('chat respond turns per second', turns / seconds, 'turns/s', '>= 2000');
    // The server's own CPU time per turn: on a busy machine the wall-clock rate also counts waiting for a core.
    bench('chat respond server CPU per turn', (cpuMs * 1000) / turns, 'us/turn', '< 500');
  } finally {
    await pool.close();
  }
}

withPlatformProcess({ seed: 'base', streamDelayMs: 0 }, main);
