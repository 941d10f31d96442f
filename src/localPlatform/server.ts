import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { HttpError, makeContext, readBody, type Router, sendJson } from './http';
import type { Base, Family } from './family';
import { createAdminRouter } from './admin';
import { familyFactories } from './families';
import { minimalBody, registerResponsesRoute } from './minimal';
import { isThin, type ResponsesMode } from './responsesMode';
import { refuseUnshown } from './specOnly';
import type { Fault } from './faults';
import { type PlatformOptions, Platform } from './platform';
import { Persistence } from './persistence';
import { hasDotSegment } from './requestGuards';
import {
  LOCAL_ACCOUNT,
  LOCAL_CONNECTORS,
  LOCAL_KEYS,
  LOCAL_PROJECT,
  type LocalProjectCredentials,
} from './seed/credentials';
import { localProjects } from './seed/projects';
import { applySeed, type DemoAnchor, type SeedName } from './seed/seeds';

export interface LocalPlatformOptions extends Partial<PlatformOptions> {
  port?: number;
  host?: string;
  seed?: SeedName;
  /** Where the demo week ends: at the fixed seed date (default, for tests) or at the current hour. */
  demoAnchor?: DemoAnchor;
  dataDir?: string;
  /**
   * `minimal`: answers carry only what the spec shows, and case-sensitive headers are matched with their case
   * (see minimal.ts); `spec-only`: that, and only the spec's endpoints and event names (see specOnly.ts).
   */
  responses?: ResponsesMode;
}

export interface LocalPlatformUrls {
  origin: string;
  /** {base_url}: Chat, Conversations, Concurrent Calls, Outbound, External Events, DNI. */
  runtime: string;
  /** {build_base_url}: Agents, Alerts, webhook endpoints. */
  build: string;
  /** {messaging_url}: access token, sessions, WebSocket. */
  messaging: string;
  /** The admin API for tests and demos. */
  admin: string;
}

export const BASE_PREFIX: Record<Base, string> = {
  runtime: '/runtime',
  build: '/build',
  messaging: '/messaging',
};

/** The seeded account and its credentials; they open only this local platform. */
export interface LocalPlatformCredentials {
  accountId: string;
  projectId: string;
  keys: typeof LOCAL_KEYS;
  connectors: typeof LOCAL_CONNECTORS;
  /** The account's projects with their runtime keys and the agent each serves (older platforms do not say). */
  projects?: LocalProjectCredentials[];
}

/** A running local platform. */
export interface LocalPlatform {
  readonly platform: Platform;
  readonly urls: LocalPlatformUrls;
  readonly port: number;
  readonly credentials: LocalPlatformCredentials;
  close(): Promise<void>;
}

/** Starts the local platform on a loopback port (0 picks a free one). */
export async function startLocalPlatform(options: LocalPlatformOptions = {}): Promise<LocalPlatform> {
  const platform = new Platform(options);
  const persistence = options.dataDir ? new Persistence(options.dataDir, platform) : undefined;
  const loaded = persistence ? await persistence.load() : false;
  platform.demoAnchor = options.demoAnchor ?? 'fixed';
  if (!loaded) applySeed(platform, options.seed ?? 'base', platform.demoAnchor);

  const admin = createAdminRouter(platform);
  const responses = platform.responses;
  responses.mode = options.responses ?? 'full';
  registerResponsesRoute(admin, responses);
  const families: Family[] = familyFactories.map((make) => make({ platform, admin }));
  const byBase = new Map<Base, Family[]>();
  for (const f of families) byBase.set(f.base, [...(byBase.get(f.base) ?? []), f]);

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      sendJson(res, 500, { message: 'Internal error in the local platform', detail: String(err) });
    });
  });

  /** An error body in the shape of the base the path is under. */
  function errorFor(
    base: Base | 'admin',
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ): HttpError {
    if (base === 'build') return new HttpError(status, { message, errors: [] }, headers);
    if (base === 'runtime') return new HttpError(status, { error_message: message }, headers);
    return new HttpError(status, { message }, headers);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = parseRequestUrl(req.url);
    if (!url) {
      sendJson(res, 400, { message: 'The request address could not be read' });
      return;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const split = splitBase(url.pathname);
    if (!split) {
      sendJson(res, 404, {
        message: `No such address on the local platform: ${url.pathname}. Use ${Object.values(BASE_PREFIX).join(', ')} or /_local.`,
      });
      return;
    }
    const { base, path } = split;
    // `..` and `.` segments are refused, not resolved: `branches/..` must not answer the agent.
    if (hasDotSegment(req.url)) {
      sendError(res, errorFor(base, 400, 'The address has a "." or ".." segment; send the address without them'));
      return;
    }
    // A save that failed is retried first and reported (in the family's shape) while it still fails.
    const unsaved = persistence?.check();
    if (unsaved) {
      sendError(res, errorFor(base, 503, unsaved));
      return;
    }
    if (base !== 'admin') platform.requests.record(platform.now(), method, base, path, url.searchParams);
    const routers: Router[] = base === 'admin' ? [admin] : (byBase.get(base) ?? []).map((f) => f.router);
    /** What a fault does to the real answer (see Fault.replyBody, rawBody and reset). */
    let replaced: Replacement | undefined;
    try {
      const raw = await readBody(req).catch((err: unknown) => {
        // The rest of the body is never read, so this connection cannot carry another request.
        throw err instanceof HttpError ? errorFor(base, err.status, err.message, { connection: 'close' }) : err;
      });
      if (base !== 'admin') {
        const fault = platform.faults.take(base, method, path, answersHttp);
        if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
        if (fault?.reset === 'before') {
          res.socket?.destroy();
          return;
        }
        if (fault?.status) {
          const headers: Record<string, string> =
            fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {};
          if (fault.rawBody !== undefined) {
            sendText(res, fault.status, fault.rawBody, fault.contentType, headers);
            return;
          }
          throw errorFor(base, fault.status, `Injected fault: HTTP ${fault.status}`, headers);
        }
        replaced = fault && replacementOf(fault);
      }
      // After the faults (a gateway in front fails on any path), before the routes: on a spec-only platform an
      // endpoint the spec does not show does not exist.
      const unshown =
        base !== 'admin' && responses.mode === 'spec-only' ? refuseUnshown(base, method, path) : undefined;
      if (unshown) throw unshown;
      const minimal = base !== 'admin' && isThin(responses.mode);
      let methodMismatch = false;
      for (const router of routers) {
        const m = router.match(method, path);
        if ('handler' in m) {
          const ctx = makeContext(req, path, url.searchParams, m.params, raw);
          const reply = await m.handler(ctx);
          // With --data-dir the change is in the journal (handed to the OS) before the answer leaves.
          if (method !== 'GET') platform.mutated();
          const failed = persistence?.check();
          if (failed) throw errorFor(base, 503, failed);
          const status = reply.status ?? 200;
          const body = minimal ? minimalBody(base, method, path, status, reply.body) : reply.body;
          if (replaced?.kind === 'reset') res.socket?.destroy();
          else if (replaced?.kind === 'text') sendText(res, status, replaced.text, replaced.contentType);
          else sendJson(res, status, replaced ? replaced.body : body, reply.headers);
          return;
        }
        methodMismatch ||= m.methodMismatch;
      }
      if (methodMismatch) throw errorFor(base, 405, `Method ${method} is not allowed on ${path}`);
      throw errorFor(base, 404, `Not found: ${path}`);
    } catch (err) {
      // A lost answer is lost whatever it would have said.
      if (replaced?.kind === 'reset') {
        res.socket?.destroy();
        return;
      }
      // Anything unforeseen still answers in the family's shape, and the server keeps serving.
      sendError(
        res,
        err instanceof HttpError ? err : errorFor(base, 500, `Internal error in the local platform: ${String(err)}`),
      );
    }
  }

  function sendError(res: ServerResponse, err: HttpError): void {
    sendJson(res, err.status, err.body, err.headers);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = parseRequestUrl(req.url);
    if (!url) {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const split = splitBase(url.pathname);
    if (split && split.base !== 'admin') {
      for (const f of byBase.get(split.base) ?? []) {
        if (f.handleUpgrade?.(req, socket, head, split.path, url.searchParams)) return;
      }
    }
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
  });

  server.keepAliveTimeout = 65_000;
  const host = options.host ?? '127.0.0.1';
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host}:${port}`;
  persistence?.start();

  return {
    platform,
    port,
    credentials: {
      accountId: LOCAL_ACCOUNT.slug,
      projectId: LOCAL_PROJECT.slug,
      keys: LOCAL_KEYS,
      connectors: LOCAL_CONNECTORS,
      projects: localProjects(platform),
    },
    urls: {
      origin,
      runtime: origin + BASE_PREFIX.runtime,
      build: origin + BASE_PREFIX.build,
      messaging: origin + BASE_PREFIX.messaging,
      admin: `${origin}/_local`,
    },
    async close() {
      for (const f of families) f.dispose?.();
      await persistence?.flush();
      persistence?.dispose();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** What a fault puts in place of a carried-out request's answer. */
type Replacement =
  | { kind: 'json'; body: unknown }
  | { kind: 'text'; text: string; contentType?: string | undefined }
  | { kind: 'reset' };

/** Whether a fault changes an HTTP answer (the others act on WebSockets and messaging events). */
function answersHttp(f: Fault): boolean {
  return (
    f.status !== undefined ||
    f.delayMs !== undefined ||
    f.replyBody !== undefined ||
    f.rawBody !== undefined ||
    f.reset !== undefined
  );
}

/** What a fault without a status does to the answer of the request, once carried out; undefined leaves it. */
function replacementOf(fault: Fault): Replacement | undefined {
  if (fault.reset === 'after') return { kind: 'reset' };
  if (fault.rawBody !== undefined) return { kind: 'text', text: fault.rawBody, contentType: fault.contentType };
  if ('replyBody' in fault) return { kind: 'json', body: fault.replyBody };
  return undefined;
}

/** An answer that is not JSON: text of the given type (text/html unless given). */
function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType = 'text/html; charset=utf-8',
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** The request's address, or undefined when it cannot be read (a malformed request line). */
function parseRequestUrl(raw: string | undefined): URL | undefined {
  try {
    return new URL(raw ?? '/', 'http://local');
  } catch {
    return undefined;
  }
}

function splitBase(pathname: string): { base: Base | 'admin'; path: string } | undefined {
  if (pathname === '/_local' || pathname.startsWith('/_local/'))
    return { base: 'admin', path: pathname.slice('/_local'.length) || '/' };
  for (const [base, prefix] of Object.entries(BASE_PREFIX) as Array<[Base, string]>) {
    if (pathname === prefix || pathname.startsWith(prefix + '/'))
      return { base, path: pathname.slice(prefix.length) || '/' };
  }
  return undefined;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
