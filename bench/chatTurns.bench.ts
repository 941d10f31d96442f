// Chat API respond turns per second over HTTP keep-alive on loopback: 4 concurrent clients, each
// with its own conversation, send a fixed number of turns (bounded in time). The local platform
// runs in a child process, as it runs apart from its clients in the product, so the client's
// work does not share the server's event loop. Prints BENCH lines: the rate, and the server's CPU
// time per turn (on a busy machine the rate also counts waiting for a core).
// BENCH_CPU_PROF=<dir> writes a CPU profile of the server process there.
import { type ChildProcess, fork } from 'node:child_process';
import { Pool } from 'undici';
import { LOCAL_ACCOUNT, LOCAL_CONNECTORS, LOCAL_KEYS, LOCAL_PROJECT } from '../src/localPlatform/seed/credentials';
import { startLocalPlatform } from '../src/localPlatform/server';

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

function bench(name: string, value: number, unit: string, target: string): void {
  console.log(`BENCH ${JSON.stringify({ name, value: Math.round(value * 10) / 10, unit, target })}`);
}

async function serve(): Promise<void> {
  const lp = await startLocalPlatform({ seed: 'base', streamDelayMs: 0 });
  process.send!({ runtime: lp.urls.runtime });
  let mark = process.cpuUsage();
  process.on('message', (m) => {
    if (m === 'mark') {
      mark = process.cpuUsage();
      process.send!({ marked: true });
    } else if (m === 'cpu') {
      const used = process.cpuUsage(mark);
      process.send!({ cpuMs: (used.user + used.system) / 1000 });
    } else {
      void lp.close().then(() => process.exit(0));
    }
  });
}

function ask<T>(server: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    server.once('message', (m) => resolve(m as T));
    server.send(message);
  });
}

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

async function main(): Promise<void> {
  const server = fork(__filename, ['--serve'], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
  });
  const { runtime } = await new Promise<{ runtime: string }>((resolve, reject) => {
    server.once('message', (m) => resolve(m as { runtime: string }));
    server.once('error', reject);
  });
  const url = new URL(runtime);
  const pool = new Pool(url.origin, { connections: CLIENTS, pipelining: 1 });
  const base = `${url.pathname}/v1/${LOCAL_ACCOUNT.slug}/${LOCAL_PROJECT.slug}/chat`;
  try {
    await Promise.all(Array.from({ length: CLIENTS }, () => client(pool, base, WARMUP_TURNS / CLIENTS, Infinity)));
    await ask(server, 'mark');
    const t0 = performance.now();
    const deadline = t0 + TIME_LIMIT_MS;
    const counts = await Promise.all(
      Array.from({ length: CLIENTS }, () => client(pool, base, TURNS_PER_CLIENT, deadline)),
    );
    const seconds = (performance.now() - t0) / 1000;
    const { cpuMs } = await ask<{ cpuMs: number }>(server, 'cpu');
    const turns = counts.reduce((a, b) => a + b, 0);
    bench('chat respond turns per second', turns / seconds, 'turns/s', '>= 2000');
    // The server's own CPU time per turn: on a busy machine the wall-clock rate also counts waiting for a core.
    bench('chat respond server CPU per turn', (cpuMs * 1000) / turns, 'us/turn', '< 500');
  } finally {
    await pool.close();
    server.send('stop');
    await new Promise((resolve) => server.once('exit', resolve));
  }
}

if (process.argv.includes('--serve')) {
  void serve();
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
