// Conversations API over real HTTP on loopback: a v3 page of 5,000 conversations with turns and
// latency from a store of 6,000, a semantic search over them, and a week of concurrency.
// Prints BENCH lines (median of several runs after a warm-up). Server and client share this
// process, so its CPU time per request is also given: on a busy machine it shows the work done,
// where the wall time also counts waiting for a core.
import { Pool } from 'undici';
import { type DemoCall, demoConversation, DemoRandom } from '../src/localPlatform/conversations/demoConversation';
import { demoScript } from '../src/localPlatform/conversations/demoScript';
import { LOCAL_KEYS } from '../src/localPlatform/seed/credentials';
import { SEED_EPOCH } from '../src/localPlatform/seed/supportAgent';
import { startLocalPlatform } from '../src/localPlatform/server';
import { median } from '../test/support/median';
import { bench } from './platformProcess';

const STORE_SIZE = 6000;
const PAGE = 5000;
const RUNS = 7;
const WEEK_MS = 7 * 24 * 3600_000;

/** Median wall and CPU milliseconds of a GET whose JSON body is read and parsed. */
async function timed(
  pool: Pool,
  url: string,
  runs: number,
  check: (body: unknown) => void,
): Promise<{ wall: number; cpu: number; first: number }> {
  const { pathname, search } = new URL(url);
  const walls: number[] = [];
  const cpus: number[] = [];
  let first = 0;
  for (let i = 0; i < runs + 1; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    // As the product's client reads a reply: an undici keep-alive pool, the body as text, then JSON.
    const res = await pool.request({
      method: 'GET',
      path: pathname + search,
      headers: { 'x-api-key': LOCAL_KEYS.conversations },
    });
    const body: unknown = JSON.parse(await res.body.text());
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${JSON.stringify(body)}`);
    check(body);
    // The first run warms up (and renders the records the later runs take from the cache).
    if (i === 0) first = wall;
    else {
      walls.push(wall);
      cpus.push((c.user + c.system) / 1000);
    }
  }
  return { wall: median(walls), cpu: median(cpus), first };
}

async function main(): Promise<void> {
  const lp = await startLocalPlatform({ seed: 'base', streamDelayMs: 0 });
  const pool = new Pool(lp.urls.origin, { connections: 1 });
  try {
    const rng = new DemoRandom(42);
    const script = demoScript();
    const from = SEED_EPOCH - WEEK_MS;
    const channels = ['VOICE-SIP', 'WEBCHAT', 'CHAT'] as const;
    for (let i = 0; i < STORE_SIZE; i++) {
      const call: DemoCall = {
        id: `conv_bench_${i}`,
        startMs: from + Math.floor((i / STORE_SIZE) * (WEEK_MS - 600_000)),
        channel: channels[i % 3]!,
        environment: 'live',
        variant: i % 4 === 0 ? { id: 'var_friendly', name: 'Friendly Tone' } : { id: 'var_default', name: 'Default' },
        language: 'en-US',
        incident: false,
        inProgress: false,
      };
      lp.platform.state.conversations.push(demoConversation(rng, script, call, SEED_EPOCH));
    }
    const base = `${lp.urls.runtime}/v3/acme/support-desk/conversations`;
    const range = `start_time=${new Date(from).toISOString()}&end_time=${new Date(SEED_EPOCH).toISOString()}`;

    // Warms the code with another rendering (without latency), so the first timed run measures
    // rendering with nothing cached rather than start-up.
    await timed(pool, `${base}?limit=${PAGE}`, 1, () => undefined);
    const page = await timed(pool, `${base}?limit=${PAGE}&include_latency=true`, RUNS, (body) => {
      const n = (body as { conversations: unknown[] }).conversations.length;
      if (n !== PAGE) throw new Error(`expected ${PAGE} conversations, got ${n}`);
    });
    bench('conversations v3 page of 5000 with turns (HTTP round trip)', page.wall, 'ms', '< 300');
    bench('conversations v3 page of 5000 with turns (CPU time per request)', page.cpu, 'ms', '< 300');
    bench(
      'conversations v3 page of 5000 with turns, first request (records not cached yet)',
      page.first,
      'ms',
      '< 500',
    );

    const semantic = await timed(
      pool,
      `${base}?query_type=semantic&query=${encodeURIComponent('refund for a late parcel')}&${range}&limit=100`,
      RUNS,
      () => undefined,
    );
    bench('conversations semantic search over 6000 conversations', semantic.wall, 'ms', '< 300');

    const week = await timed(
      pool,
      `${lp.urls.runtime}/v1/acme/support-desk/conversations/concurrency?${range}&slice_by=variant`,
      RUNS,
      () => undefined,
    );
    bench('concurrency of a week by variant (6000 conversations)', week.wall, 'ms', '< 200');
  } finally {
    await pool.close();
    await lp.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
