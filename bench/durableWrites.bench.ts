// Sequential acknowledged writes over HTTP keep-alive against the local platform, as people run it
// (the CLI in its own process): in memory, then with --data-dir, where every write is journaled
// before its answer. Each round creates an agent, creates a branch on it and updates that branch's
// behavior, one request after another; a fixed number of rounds, bounded in time.
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
async function rounds(pool: Pool, tag: string, count: number, deadline: number): Promise<number> {
  let writes = 0;
  for (let i = 0; i < count && performance.now() < deadline; i++) {
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

/** Starts the CLI (with --data-dir when given), runs the writes and returns writes per second. */
async function measure(dataDir: string | undefined): Promise<number> {
  const args = [
    '--import',
    'tsx',
    'src/localPlatform/cli.ts',
    '--port',
    '0',
    '--seed',
    'base',
    '--json',
    ...(dataDir ? ['--data-dir', dataDir] : []),
  ];
  const server = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
    const { origin } = (JSON.parse(line) as { urls: { origin: string } }).urls;
    const pool = new Pool(origin, { connections: 1, keepAliveTimeout: 30_000 });
    try {
      await rounds(pool, 'warm-up', WARMUP_ROUNDS, Infinity);
      const started = performance.now();
      const writes = await rounds(pool, 'run', ROUNDS, started + TIME_LIMIT_MS);
      return writes / ((performance.now() - started) / 1000);
    } finally {
      await pool.close();
    }
  } finally {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-durable-'));
  try {
    const memory = await measure(undefined);
    const durable = await measure(dir);
    bench(
      `sequential writes in memory (create agent, create branch, update behavior; ${ROUNDS} rounds)`,
      memory,
      'writes/s',
    );
    bench(`sequential writes with --data-dir (journaled before each answer; ${ROUNDS} rounds)`, durable, 'writes/s');
    bench('write time with --data-dir / write time in memory', memory / durable, 'x', '<= 2');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
