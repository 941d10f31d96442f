import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach } from 'node:test';
import { ClientContext } from '../../src/client/context';
import type { ConnectionProfile } from '../../src/client/profile';
import { Transport } from '../../src/client/transport';
import { localCredentials } from './localClient';

/** A request as the spec server received it. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawHeaderNames: string[];
  /** The body text ('' when none was sent). */
  text: string;
}

/** An answer: status and body (a string is sent as is, undefined sends nothing). */
export interface Answer {
  status?: number;
  body?: unknown;
}

/**
 * A platform of another make, on loopback: it answers each request with what the test says (typically
 * only what the spec shows) and records what the client sent. It stands in for the real platform the
 * spec describes, to show what the client does with answers thinner than the local platform's own.
 */
export function useSpecServer(): {
  readonly received: Received[];
  answer(method: string, path: string | RegExp, answer: Answer | ((r: Received) => Answer)): void;
  context(): ClientContext;
  readonly origin: string;
} {
  let server: Server | undefined;
  let origin = '';
  const received: Received[] = [];
  const answers: Array<{ method: string; path: string | RegExp; answer: Answer | ((r: Received) => Answer) }> = [];
  before(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (text += c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://spec');
        const r: Received = {
          method: req.method ?? 'GET',
          path: url.pathname + url.search,
          headers: req.headers,
          rawHeaderNames: req.rawHeaders.filter((_, i) => i % 2 === 0),
          text,
        };
        received.push(r);
        const found = answers.find(
          (a) =>
            a.method === r.method &&
            (typeof a.path === 'string' ? url.pathname.endsWith(a.path) : a.path.test(url.pathname)),
        );
        const a = found
          ? typeof found.answer === 'function'
            ? found.answer(r)
            : found.answer
          : { status: 404, body: { message: 'no answer set' } };
        const body = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
        res.writeHead(
          a.status ?? 200,
          body && typeof a.body !== 'string' ? { 'content-type': 'application/json' } : {},
        );
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    received.length = 0;
    answers.length = 0;
  });
  after(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });
  return {
    received,
    answer: (method, path, answer) => void answers.unshift({ method, path, answer }),
    context: () => {
      const profile: ConnectionProfile = {
        id: 'spec',
        name: 'Spec',
        accountId: 'acme',
        projectId: 'support-desk',
        region: 'local',
        runtimeUrl: `${origin}/runtime`,
        buildUrl: `${origin}/build`,
        messagingUrl: `${origin}/messaging`,
      };
      return new ClientContext(
        profile,
        async (id) => localCredentials[id],
        new Transport({ backoff: { retries: 1, baseMs: 1, maxMs: 2 } }),
      );
    },
    get origin() {
      return origin;
    },
  };
}
