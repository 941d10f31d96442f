// Sequential acknowledged writes over HTTP keep-alive against the local platform, as people run it
// (the CLI in its own process): in memory, and with --data-dir, where every write is journaled
// before its answer. Each round creates an agent, creates a branch on it and updates that branch's
// behavior, one request after another; a fixed number of rounds, bounded in time. Both platforms run
// side by side and take turns, a block of rounds each, so a busy machine slows both alike.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { LOCAL_KEYS } from '../src/localPlatform/seed/credentials';

const ROUNDS = 300;
const WARMUP_ROUNDS = 30;
const BLOCK_ROUNDS = 10;
const TIME_LIMIT_MS = 60_000;
const HEADERS = { 'x-api-key': LOCAL_KEYS.agents, 'content-type': 'application/json', accept: 'application/json' };

function bench(name: string, value: number, unit: string, target = ''): void {
  console.log(`BENCH ${JSON.stringify({ name, value: Math.round(value * 100) / 100, unit, target })}`);
}

async function write(
  pool: Pool,
  method: 'POST' | 'PATCH',
  path: string,
  body: unknown,
  expected: number,
): Promise<Record<string, unknown>> {
  const res = await pool.request({ method, path, headers: HEADERS, body: JSON.stringify(body) });
  const json = (await res.body.json()) as Record<string, unknown>;
  if (res.statusCode !== expected) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

/** Rounds of three writes; returns how many writes were acknowledged. */
async function rounds(pool: Pool, tag: string, from: number, to: number): Promise<number> {
  let writes = 0;
  for (let i = from; i < to; i++) {
    const agent = await write(pool, 'POST', '/build/v1/agents', { name: `Bench ${tag} ${i}` }, 201);
    const agentPath = `/build/v1/agents/${String(agent.agentId)}/branches`;
    const branch = await write(pool, 'POST', agentPath, { name: 'draft' }, 201);
    await write(
      pool,
      'PATCH',
      `${agentPath}/${String(branch.branchId)}/behavior`,
      { behavior: `Answer politely (${tag} ${i}).` },
      200,
    );
    writes += 3;
  }
  return writes;
}

interface Running {
  pool: Pool;
  stop(): Promise<void>;
}

/** Starts the CLI (with --data-dir when given) and opens one keep-alive connection to it. */
async function start(dataDir: string | undefined): Promise<Running> {
  const args = [
    '--import',
    'tsx',
    'src/cli/main.ts',
    'serve',
    '--port',
    '0',
    '--seed',
    'base',
    '--json',
    ...(dataDir ? ['--data-dir', dataDir] : []),
  ];
  const server = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = async (): Promise<void> => {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  };
  try {
    const [line] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
    const { origin } = (JSON.parse(line) as { urls: { origin: string } }).urls;
    const pool = new Pool(origin, { connections: 1, keepAliveTimeout: 30_000 });
    return {
      pool,
      stop: async () => {
        await pool.close();
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-durable-'));
  const running: Running[] = [];
  try {
    const memory = await start(undefined);
    running.push(memory);
    const durable = await start(dir);
    running.push(durable);
    const platforms = [
      { running: memory, writes: 0, ms: 0 },
      { running: durable, writes: 0, ms: 0 },
    ];
    for (const p of platforms) await rounds(p.running.pool, 'warm-up', 0, WARMUP_ROUNDS);
    const deadline = performance.now() + TIME_LIMIT_MS;
    for (let done = 0; done < ROUNDS && performance.now() < deadline; done += BLOCK_ROUNDS) {
      for (const p of platforms) {
        const started = performance.now();
        p.writes += await rounds(p.running.pool, 'run', done, Math.min(ROUNDS, done + BLOCK_ROUNDS));
        p.ms += performance.now() - started;
      }
    }
    const [inMemory, withDataDir] = platforms.map((p) => p.writes / (p.ms / 1000)) as [number, number];
    bench(
      `sequential writes in memory (create agent, create branch, update behavior; ${ROUNDS} rounds)`,
      inMemory,
      'writes/s',
    );
    bench(
      `sequential writes with --data-dir (journaled before each answer; ${ROUNDS} rounds)`,
      withDataDir,
      'writes/s',
    );
    bench('write time with --data-dir / write time in memory', inMemory / withDataDir, 'x', '<= 2');
  } finally {
    for (const r of running) await r.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
