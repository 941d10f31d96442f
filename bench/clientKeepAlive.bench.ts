// 1,000 sequential small GETs over keep-alive against the local platform: the product's client
// (AgentsClient.getAgent: transport, auth header, zod parsing, logging hook) against a bare undici
// Pool loop doing the same requests (the floor). The platform runs in its own process.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Pool } from 'undici';
import { AgentsClient } from '../src/client/agents';
import { Transport } from '../src/client/transport';
import { LOCAL_KEYS } from '../src/localPlatform/seed/credentials';
import { median } from '../test/support/median';
import { localContext } from '../test/support/localClient';
import type { LocalPlatform } from '../src/localPlatform/server';

const REQUESTS = 1000;
const TRIALS = 7;

async function main(): Promise<void> {
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--seed', 'base', '--json'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const [line] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
    const { urls } = JSON.parse(line) as { urls: LocalPlatform['urls'] };

    const pool = new Pool(urls.origin, { connections: 1, keepAliveTimeout: 30_000 });
    const path = '/build/v1/agents/ag_support';
    async function bare(): Promise<number> {
      const started = performance.now();
      for (let i = 0; i < REQUESTS; i++) {
        const res = await pool.request({
          method: 'GET',
          path,
          headers: { 'x-api-key': LOCAL_KEYS.agents, accept: 'application/json' },
        });
        const body = (await res.body.json()) as { agentId?: string };
        if (res.statusCode !== 200 || body.agentId !== 'ag_support')
          throw new Error(`bare GET answered ${res.statusCode}`);
      }
      return performance.now() - started;
    }

    const transport = new Transport({ connections: 1, onRequest: () => undefined });
    const agents = new AgentsClient(localContext({ urls }, { transport }));
    async function client(): Promise<number> {
      const started = performance.now();
      for (let i = 0; i < REQUESTS; i++) {
        const agent = await agents.getAgent('ag_support');
        if (agent.agentId !== 'ag_support') throw new Error('client GET returned another agent');
      }
      return performance.now() - started;
    }

    // Warm both paths up (JIT, connection) before measuring.
    for (let w = 0; w < 3; w++) {
      await bare();
      await client();
    }
    const bareTimes: number[] = [];
    const clientTimes: number[] = [];
    for (let t = 0; t < TRIALS; t++) {
      bareTimes.push(await bare());
      clientTimes.push(await client());
    }
    const b = median(bareTimes);
    const c = median(clientTimes);
    console.error(
      `bare undici: ${bareTimes.map((x) => x.toFixed(0)).join(', ')} ms; client: ${clientTimes.map((x) => x.toFixed(0)).join(', ')} ms`,
    );
    console.log(
      `BENCH ${JSON.stringify({ name: '1,000 sequential GETs, bare undici Pool (floor)', value: Math.round(b), unit: 'ms' })}`,
    );
    console.log(
      `BENCH ${JSON.stringify({ name: '1,000 sequential GETs, the client (AgentsClient.getAgent)', value: Math.round(c), unit: 'ms' })}`,
    );
    console.log(
      `BENCH ${JSON.stringify({ name: 'client time / bare undici time', value: Math.round((c / b) * 100) / 100, unit: 'x', target: '<= 1.3' })}`,
    );
    await pool.close();
    transport.dispose();
  } finally {
    server.kill('SIGTERM');
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
