import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The first `count` requests, once they came; fails after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 with a free port (the local platform delivers only to loopback), at `path`.
 * It answers each request with the next status of `statuses` (then 200) and keeps what it received.
 */
export async function startReceiver(
  options: { statuses?: readonly number[]; path?: string } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: Array<() => void> = [];
  const queue = [...(options.statuses ?? [])];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/' });
      res.writeHead(queue.shift() ?? 200).end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/hooks'}`,
    received,
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} webhook requests, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
