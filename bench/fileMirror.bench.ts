// The file mirror with an agent of 1,000 knowledge topics, against the local platform in its own process:
// - pull (check out into an empty folder in memory) against a bare undici script that fetches the same
//   documents (behavior, topic list, real-time configs) at the same concurrency, three at once: the floor;
//   the same pull onto disk, for the record
// - status of the 1,000 files on disk (no platform read)
// - a push after editing one file of the 1,000: what it sends
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { AgentsClient } from '../src/client/agents';
import { type RequestLog, Transport } from '../src/client/transport';
import { LOCAL_KEYS } from '../src/localPlatform/seed/credentials';
import { MemoryFileSystem, NodeFileSystem } from '../src/workspace/fileSystem';
import { AgentMirror } from '../src/workspace/mirror';
import { fetchRemote } from '../src/workspace/remote';
import { median } from '../test/support/median';
import { LocalAdmin } from '../test/support/localAdmin';
import { localContext } from '../test/support/localClient';

const TOPICS = 1000;
const TRIALS = 15;
const AGENT = 'ag_support';
const MAIN = { branchId: 'br_support_main', name: 'main' };
const MANIFEST = { agentId: AGENT, name: 'Support Desk', profile: 'bench', branch: MAIN };

async function main(): Promise<void> {
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--seed', 'base', '--json'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const dirs: string[] = [];
  try {
    const [line] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
    const urls = (
      JSON.parse(line) as { urls: { origin: string; build: string; runtime: string; messaging: string; admin: string } }
    ).urls;
    const paragraph =
      'Customers can return any item within 30 days of delivery. Bring the receipt, or start the return from the order page. ';
    const upsertTopics = Array.from({ length: TOPICS - 3 }, (_, i) => ({
      name: `Topic ${String(i).padStart(4, '0')}`,
      content: `${paragraph.repeat(4)}\nLine two of topic ${i}.`,
    }));
    await new LocalAdmin(urls.admin).editBranch(AGENT, MAIN.branchId, { upsertTopics });

    const pool = new Pool(urls.origin, { connections: 3, keepAliveTimeout: 30_000 });
    const base = `/build/v1/agents/${AGENT}`;
    const paths = [
      `${base}/branches/${MAIN.branchId}/behavior`,
      `${base}/branches/${MAIN.branchId}/knowledge-base/topics`,
      `${base}/real-time-configs`,
    ];
    async function bare(): Promise<number> {
      const started = performance.now();
      const bodies = await Promise.all(
        paths.map(async (path) => {
          const res = await pool.request({
            method: 'GET',
            path,
            headers: { 'x-api-key': LOCAL_KEYS.agents, accept: 'application/json' },
          });
          if (res.statusCode !== 200) throw new Error(`bare GET ${path} answered ${res.statusCode}`);
          return res.body.json();
        }),
      );
      if ((bodies[1] as { topics: unknown[] }).topics.length !== TOPICS)
        throw new Error('bare fetch saw another number of topics');
      return performance.now() - started;
    }

    const logs: RequestLog[] = [];
    const transport = new Transport({ connections: 3, onRequest: (l) => logs.push(l) });
    const client = new AgentsClient(localContext({ urls }, { transport }));
    async function pullInMemory(): Promise<number> {
      const fs = new MemoryFileSystem();
      const started = performance.now();
      await new AgentMirror(fs, client).checkout(MANIFEST);
      const ms = performance.now() - started;
      if ([...fs.files.keys()].filter((p) => p.startsWith('knowledge/')).length !== TOPICS)
        throw new Error('the pull wrote another number of topic files');
      return ms;
    }
    async function pullOnDisk(): Promise<{ ms: number; mirror: AgentMirror; fs: NodeFileSystem }> {
      const dir = await mkdtemp(join(tmpdir(), 'mirror-bench-'));
      dirs.push(dir);
      const fs = new NodeFileSystem(dir);
      const mirror = new AgentMirror(fs, client);
      const started = performance.now();
      await mirror.checkout(MANIFEST);
      return { ms: performance.now() - started, mirror, fs };
    }

    for (let w = 0; w < 3; w++) {
      await bare();
      await pullInMemory();
    }
    async function clientFetch(): Promise<number> {
      const started = performance.now();
      await fetchRemote(client, { agentId: AGENT, branchId: MAIN.branchId });
      return performance.now() - started;
    }
    const bareTimes: number[] = [];
    const pullTimes: number[] = [];
    const fetchTimes: number[] = [];
    for (let t = 0; t < TRIALS; t++) {
      bareTimes.push(await bare());
      pullTimes.push(await pullInMemory());
      fetchTimes.push(await clientFetch());
    }
    const diskTimes: number[] = [];
    let onDisk: { mirror: AgentMirror; fs: NodeFileSystem } | undefined;
    for (let t = 0; t < 3; t++) {
      const run = await pullOnDisk();
      diskTimes.push(run.ms);
      onDisk = run;
    }
    const statusTimes: number[] = [];
    for (let t = 0; t < TRIALS + 2; t++) {
      const started = performance.now();
      const status = await onDisk!.mirror.status();
      statusTimes.push(performance.now() - started);
      if (status.length !== TOPICS + 2 || status.some((f) => f.state !== 'unchanged'))
        throw new Error('status of an untouched folder is not all unchanged');
    }
    statusTimes.splice(0, 2);

    const file = join(onDisk!.fs.root, 'knowledge', 'topic-0500.md');
    await writeFile(file, (await onDisk!.fs.read('knowledge/topic-0500.md'))!.replace('Line two', 'Line 2'));
    logs.length = 0;
    const pushStarted = performance.now();
    const report = await onDisk!.mirror.push();
    const pushMs = performance.now() - pushStarted;
    const writes = logs.filter((l) => l.method !== 'GET');
    if (report.sent.length !== 1 || report.sent[0]!.path !== 'knowledge/topic-0500.md')
      throw new Error(`the push sent ${report.sent.map((a) => a.path).join(', ')}`);

    const b = median(bareTimes);
    const p = median(pullTimes);
    console.error(
      `bare: ${bareTimes.map((x) => x.toFixed(0)).join(', ')} ms; pull in memory: ${pullTimes.map((x) => x.toFixed(0)).join(', ')} ms; on disk: ${diskTimes.map((x) => x.toFixed(0)).join(', ')} ms; status: ${statusTimes.map((x) => x.toFixed(1)).join(', ')} ms`,
    );
    const bench = (name: string, value: number, unit: string, target?: string): void =>
      console.log(`BENCH ${JSON.stringify({ name, value, unit, ...(target ? { target } : {}) })}`);
    bench(
      `fetching the documents of ${TOPICS.toLocaleString('en')} topics, bare undici, 3 at once (floor)`,
      Math.round(b * 10) / 10,
      'ms',
    );
    bench(
      `pull of an agent with ${TOPICS.toLocaleString('en')} topics into an empty folder (in memory)`,
      Math.round(p * 10) / 10,
      'ms',
    );
    bench('pull time / bare fetch time', Math.round((p / b) * 100) / 100, 'x', '<= 1.5');
    bench(
      "the same three reads through the client alone / bare fetch time (the client's share)",
      Math.round((median(fetchTimes) / b) * 100) / 100,
      'x',
    );
    bench(
      `pull of an agent with ${TOPICS.toLocaleString('en')} topics onto disk (atomic writes, median of 3)`,
      Math.round(median(diskTimes)),
      'ms',
    );
    bench(
      `status of ${TOPICS.toLocaleString('en')} files on disk (median of ${TRIALS})`,
      Math.round(median(statusTimes) * 10) / 10,
      'ms',
      '< 100',
    );
    bench(
      `requests a push sends after editing one file of ${TOPICS.toLocaleString('en')} (besides the 3 reads)`,
      writes.length,
      'requests',
      '<= 1',
    );
    bench(`push after editing one file of ${TOPICS.toLocaleString('en')}`, Math.round(pushMs), 'ms');
    await pool.close();
    transport.dispose();
  } finally {
    server.kill('SIGTERM');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
