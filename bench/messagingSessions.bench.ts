// Messaging: 500 concurrent sessions over real WebSockets on loopback. All connect and have the
// agent join (timed), then all ask a few questions with streaming on (the platform's default
// stream delay between chunks) while server-to-client event latency is measured: receive time
// minus the event's timestamp (server and client read the same clock; it is not moved). The
// local platform runs in a child process, apart from the clients. Bounded in count and time.
// Prints BENCH lines.
// BENCH_CPU_PROF=<dir> writes a CPU profile of the server process there (see platformProcess.ts).
import { Pool } from 'undici';
import WebSocket from 'ws';
import type { ServerEvent } from '../src/contract/messaging';
import { LOCAL_CONNECTORS } from '../src/localPlatform/seed/credentials';
import { bench, type PlatformProcess, withPlatformProcess } from './platformProcess';

const SESSIONS = 500;
const QUESTIONS = [
  'What are your opening hours on Sunday?',
  'Can I return an item I bought last week?',
  'How long does express delivery take?',
];
const TIME_LIMIT_MS = 90_000;
/** Session starts are spread over this long, as real visitors do not arrive in lockstep. */
const RAMP_MS = 1000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function json(
  pool: Pool,
  path: string,
  headers: Record<string, string>,
  body: unknown = {},
): Promise<Record<string, unknown>> {
  const res = await pool.request({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const reply = JSON.parse(await res.body.text()) as Record<string, unknown>;
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(reply)}`);
  return reply;
}

/** A visitor's socket, joined and greeted; then asks questions one after the other. */
class Visitor {
  private constructor(private readonly ws: WebSocket) {}

  /** Connects, asks the agent to join and resolves once the greeting has arrived. */
  static join(url: string): Promise<Visitor> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const onMessage = (data: WebSocket.RawData) => {
        const event = JSON.parse(String(data)) as ServerEvent;
        if (event.type === 'EVENT_TYPE_EVENT_BATCH')
          ws.send(JSON.stringify({ type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', payload: {} }));
        if (event.type === 'EVENT_TYPE_SYSTEM_MESSAGE') reject(new Error(String(event.payload.text)));
        if (event.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE') {
          ws.off('message', onMessage);
          resolve(new Visitor(ws));
        }
      };
      ws.on('message', onMessage);
      ws.on('error', reject);
    });
  }

  /** Asks every question, each after the previous complete answer; records every event's latency. */
  converse(latencies: number[], deadline: number): Promise<number> {
    return new Promise((resolve, reject) => {
      let asked = 0;
      const ask = () =>
        this.ws.send(JSON.stringify({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: QUESTIONS[asked++]! } }));
      this.ws.on('message', (data) => {
        const received = Date.now();
        const event = JSON.parse(String(data)) as ServerEvent;
        latencies.push(received - Date.parse(event.timestamp));
        if (event.type === 'EVENT_TYPE_SYSTEM_MESSAGE') reject(new Error(String(event.payload.text)));
        if (event.type !== 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE') return;
        if (asked < QUESTIONS.length && performance.now() < deadline) return ask();
        this.ws.close();
        resolve(asked);
      });
      ask();
    });
  }
}

function ramped<T>(count: number, start: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise<T>((resolve, reject) => {
          setTimeout(() => start(i).then(resolve, reject), (i * RAMP_MS) / count);
        }),
    ),
  );
}

async function main(server: PlatformProcess): Promise<void> {
  const { messaging } = server.urls;
  const base = new URL(messaging);
  const pool = new Pool(base.origin, { connections: 8 });
  try {
    const { access_token: token } = await json(pool, `${base.pathname}/api/v1/access-token`, {
      'x-token': LOCAL_CONNECTORS.webchatToken,
      'x-host': LOCAL_CONNECTORS.webchatHost,
    });
    const auth = { authorization: `Bearer ${String(token)}` };
    const streaming: string[] = [];
    for (let i = 0; i < SESSIONS; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, SESSIONS - i) }, () =>
          json(pool, `${base.pathname}/api/v1/sessions`, auth, { streaming_enabled: true }),
        ),
      );
      streaming.push(...batch.map((b) => String(b.session_id)));
    }
    const wsBase = `${messaging.replace(/^http/, 'ws')}/ws?access_token=${String(token)}&session_id=`;
    const t0 = performance.now();
    const visitors = await ramped(SESSIONS, (i) => Visitor.join(wsBase + streaming[i]!));
    bench('messaging 500 sessions connected, joined and greeted', (performance.now() - t0) / 1000, 's', '< 5');

    const latencies: number[] = [];
    const t1 = performance.now();
    const answered = await ramped(SESSIONS, (i) => visitors[i]!.converse(latencies, t1 + TIME_LIMIT_MS));
    const seconds = (performance.now() - t1) / 1000;
    latencies.sort((a, b) => a - b);
    const total = answered.reduce((a, b) => a + b, 0);
    bench(
      'messaging p99 server-to-client event latency (500 streaming sessions)',
      percentile(latencies, 99),
      'ms',
      '< 50',
    );
    bench(
      'messaging p50 server-to-client event latency (500 streaming sessions)',
      percentile(latencies, 50),
      'ms',
      '< 10',
    );
    bench(
      'messaging events delivered per second (500 streaming sessions)',
      latencies.length / seconds,
      'events/s',
      '>= 1000',
    );
    if (total < SESSIONS * QUESTIONS.length)
      console.error(`only ${total} of ${SESSIONS * QUESTIONS.length} questions asked within the time limit`);
  } finally {
    await pool.close();
  }
}

// The HTTP rate limit is per client; all sessions here share one token, so it is lifted.
withPlatformProcess({ seed: 'base', messagingHttpPerMinute: 1_000_000 }, main);
