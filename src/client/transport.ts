import { Pool } from 'undici';
import type { z } from 'zod';
import type { IDisposable } from '../core/disposable';
import { type BackoffPolicy, backoffDelay, defaultBackoff, parseRetryAfter, sleep } from '../core/retry';
import { type ApiFamily, type Assumption, type FieldError, kindOfStatus, NOT_JSON, PlatformError } from './errors';
import { itemOfPath } from './itemWords';

export type QueryValue = string | number | boolean | undefined | null | readonly string[];

/** Whether a failed call may be sent again without asking the user. */
export type RetryMode = 'safe' | 'never';

/** An endpoint the spec does not show, as a request names it (see `Assumption` in errors.ts). */
export interface AssumedEndpoint extends Assumption {
  /** The path names one resource by id: a 404 is then about that resource, and only a 405 says the endpoint is missing. */
  item?: boolean;
}

export interface RequestSpec<S extends z.ZodType | undefined = z.ZodType | undefined> {
  family: ApiFamily;
  /** What the user is doing, for messages ("Publish to sandbox"); defaults to "METHOD path". */
  operation?: string;
  baseUrl: string;
  /** Who the request is made for (a connection profile's name), for the log only. */
  source?: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base URL, segments already encoded (use `encodePath`). */
  path: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** A JSON body. */
  body?: unknown;
  /** A non-JSON body (External Events accepts form, XML and text). */
  rawBody?: { text: string; contentType: string };
  /**
   * Parses the success body. A mismatch is an `unexpectedResponse` error naming the field on a read; on a
   * write the platform has accepted, it is an `acceptedUnreadable` error: done, only the answer is unknown.
   */
  schema?: S;
  /**
   * What the client sent, read under the answer: where the spec describes an answer only in words ("new
   * branch", "topic"), a field the answer leaves out (or sets to null) is taken from the request.
   */
  fill?: Record<string, unknown>;
  retry: RetryMode;
  /** Set on endpoints the spec does not show: a 404 or 405 then names the assumption (see errors.ts). */
  assumption?: AssumedEndpoint;
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface Target {
  origin: string;
  pathname: string;
  search: string;
}

/** A call as a family module describes it; the module adds family, base address and credential. */
export type FamilyCall<S extends z.ZodType | undefined> = Pick<
  RequestSpec<S>,
  'method' | 'path' | 'retry' | 'query' | 'body' | 'assumption' | 'signal' | 'fill'
> & {
  operation: string;
  schema: S;
};

export interface RequestLog {
  family: ApiFamily;
  method: string;
  /** The origin the request went to (scheme, host and port). */
  origin: string;
  /** Who the request was made for (a connection profile's name), when the caller said. */
  source?: string;
  path: string;
  status: number | undefined;
  ms: number;
  retries: number;
  error?: string;
  /** Nothing answered at the origin (refused, reset, not resolved): no HTTP answer came at all. */
  unreachable?: boolean;
  /** The answer as received (secret-looking fields masked, shortened) when it could not be read. */
  answer?: string;
}

export interface TransportOptions {
  timeoutMs: number;
  backoff: BackoffPolicy;
  /** Longest Retry-After the client waits by itself; longer ones are returned to the caller. */
  maxRetryAfterMs: number;
  /**
   * Keep-alive connections per origin. Requests beyond them wait for one to be free, and their timeout starts only
   * then: on a slow platform each wave of requests waits a whole answer more.
   */
  connections: number;
  onRequest?: (log: RequestLog) => void;
}

export interface Response<T> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown;

/** HTTP for every family: a keep-alive undici Pool per origin, timeouts, retries, typed errors. */
export class Transport implements IDisposable {
  private readonly pools = new Map<string, Pool>();
  private readonly bases = new Map<string, { origin: string; prefix: string }>();
  readonly options: TransportOptions;

  constructor(options: Partial<TransportOptions> = {}) {
    this.options = { timeoutMs: 30_000, backoff: defaultBackoff, maxRetryAfterMs: 30_000, connections: 32, ...options };
  }

  async request<S extends z.ZodType | undefined>(spec: RequestSpec<S>): Promise<Response<Parsed<S>>> {
    const url = this.target(spec);
    const operation = spec.operation ?? `${spec.method} ${spec.path}`;
    const started = performance.now();
    let retries = 0;
    for (;;) {
      let status: number | undefined;
      try {
        const res = await this.once(url, spec);
        status = res.status;
        if (res.status >= 300 && res.status < 400) throw redirectError(spec, operation, res.status, res.headers);
        if (res.status < 300) {
          // A read answered with text (a proxy's sign-in page, say) is not the API, even without a schema to check.
          if (!spec.schema && spec.method === 'GET' && typeof res.body === 'string') {
            throw new PlatformError({
              family: spec.family,
              kind: 'unexpectedResponse',
              operation,
              status: res.status,
              serverMessage: NOT_JSON,
              body: res.body,
            });
          }
          const body = spec.schema
            ? parseBody(spec, spec.schema, operation, res.status, withFill(res.body, spec.fill))
            : res.body;
          this.log(spec, url, status, started, retries);
          return { status: res.status, body: body as Parsed<S>, headers: res.headers };
        }
        const error = errorFromResponse(spec, operation, res.status, res.body, res.headers);
        const wait = this.retryWait(spec, error, retries);
        if (wait === undefined) throw error;
        retries += 1;
        await sleep(wait, spec.signal);
      } catch (err) {
        const error =
          err instanceof PlatformError
            ? err
            : fromThrown(spec, operation, err, spec.timeoutMs ?? this.options.timeoutMs);
        if (!(err instanceof PlatformError) && error.kind === 'network') {
          const wait = this.retryWait(spec, error, retries);
          if (wait !== undefined) {
            retries += 1;
            try {
              await sleep(wait, spec.signal);
            } catch (abort) {
              const cancelled = fromThrown(spec, operation, abort, 0);
              this.log(spec, url, status, started, retries, cancelled);
              throw cancelled;
            }
            continue;
          }
        }
        this.log(spec, url, error.status ?? status, started, retries, error);
        throw error;
      }
    }
  }

  /** Origin and path of a request; the base URL is parsed once per base, not once per request. */
  private target(spec: RequestSpec): Target {
    let base = this.bases.get(spec.baseUrl);
    if (!base) {
      const parsed = new URL(spec.baseUrl);
      base = { origin: parsed.origin, prefix: parsed.pathname.replace(/\/+$/, '') };
      this.bases.set(spec.baseUrl, base);
    }
    const pathname = base.prefix + (spec.path.startsWith('/') ? spec.path : `/${spec.path}`);
    if (!spec.query) return { origin: base.origin, pathname, search: '' };
    const params = new URLSearchParams();
    appendQuery(params, spec.query);
    // Spaces as %20, not the form encoding's "+": the Conversations API asks for it (variant_name),
    // and it is valid everywhere. A literal "+" is already %2B here.
    const query = params.toString().replace(/\+/g, '%20');
    return { origin: base.origin, pathname, search: query ? `?${query}` : '' };
  }

  /** How long to wait before retrying, or undefined when this error is final. */
  private retryWait(spec: RequestSpec, error: PlatformError, retries: number): number | undefined {
    if (spec.retry !== 'safe' || retries >= this.options.backoff.retries) return undefined;
    // A 429 or a 503 may say when to come back: a short wait is waited, a long one is the caller's.
    if (error.kind === 'rateLimited' || (error.kind === 'unavailable' && error.retryAfterMs !== undefined)) {
      const ms = error.retryAfterMs ?? backoffDelay(this.options.backoff, retries + 1);
      return ms <= this.options.maxRetryAfterMs ? ms : undefined;
    }
    if (['server', 'badGateway', 'unavailable', 'network'].includes(error.kind))
      return backoffDelay(this.options.backoff, retries + 1);
    return undefined;
  }

  private async once(
    url: Target,
    spec: RequestSpec,
  ): Promise<{ status: number; body: unknown; headers: Record<string, string | string[] | undefined> }> {
    // undici's own timers bound the wait for headers and for the body: cheaper than a timeout
    // signal per request, and the caller's signal still cancels.
    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs;
    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    let payload: string | undefined;
    if (spec.rawBody) {
      payload = spec.rawBody.text;
      headers['content-type'] = spec.rawBody.contentType;
    } else if (spec.body !== undefined) {
      payload = JSON.stringify(spec.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.pool(url.origin).request({
      method: spec.method,
      path: url.pathname + url.search,
      headers,
      body: payload,
      signal: spec.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    let body: unknown = text;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the schema of a 2xx answer then says it could not be read, and the text is shown.
      }
    } else {
      body = undefined;
    }
    return { status: res.statusCode, body, headers: res.headers };
  }

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: this.options.connections, keepAliveTimeout: 30_000, pipelining: 1 });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  private log(
    spec: RequestSpec,
    url: Target,
    status: number | undefined,
    started: number,
    retries: number,
    error?: PlatformError,
  ): void {
    if (!this.options.onRequest) return;
    const unreadable = error?.kind === 'unexpectedResponse' || error?.kind === 'acceptedUnreadable';
    this.options.onRequest({
      family: spec.family,
      method: spec.method,
      origin: url.origin,
      ...(spec.source ? { source: spec.source } : {}),
      path: url.pathname,
      status,
      ms: Math.round(performance.now() - started),
      retries,
      ...(error ? { error: error.message } : {}),
      ...(error?.kind === 'network' && !error.closed ? { unreachable: true } : {}),
      ...(unreadable && error.body !== undefined ? { answer: rawAnswer(error.body) } : {}),
    });
  }

  dispose(): void {
    for (const pool of this.pools.values()) void pool.close().catch(() => undefined);
    this.pools.clear();
  }
}

/**
 * The shared transport seen through one caller: every request it makes is marked with `source` (a
 * connection profile's name) for the log. Pools, options and everything else stay the shared ones.
 */
export function transportFor(shared: Transport, source: string): Transport {
  const view = Object.create(shared) as Transport;
  view.request = (spec) => shared.request({ ...spec, source });
  return view;
}

/** Encodes each path segment: encodePath`/v1/agents/${id}`. */
export function encodePath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  return strings.reduce((acc, s, i) => acc + s + (i < values.length ? encodeURIComponent(String(values[i])) : ''), '');
}

function appendQuery(params: URLSearchParams, query: Record<string, QueryValue> | undefined): void {
  if (!query) return;
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) params.append(k, item);
    else params.append(k, String(v));
  }
}

function parseBody(
  spec: RequestSpec,
  schema: NonNullable<RequestSpec['schema']>,
  operation: string,
  status: number,
  body: unknown,
): unknown {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const fieldErrors: FieldError[] = result.error.issues
    .slice(0, 5)
    .map((i) => ({ field: i.path.length ? i.path.join('.') : '(body)', message: i.message }));
  // A 2xx to a write means the platform did it: only its answer is unknown, so it is never reported as a failure.
  const accepted = spec.method !== 'GET';
  throw new PlatformError({
    family: spec.family,
    kind: accepted ? 'acceptedUnreadable' : 'unexpectedResponse',
    operation,
    status,
    serverMessage:
      typeof body === 'string' ? NOT_JSON : `${spec.method} ${spec.path} answered without the expected fields`,
    fieldErrors,
    body,
  });
}

/** The answer with what the client sent filling the fields it leaves out or sets to null. */
function withFill(body: unknown, fill: Record<string, unknown> | undefined): unknown {
  if (!fill) return body;
  if (body === undefined || body === '') return { ...fill };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const [k, v] of Object.entries(fill)) if (out[k] === undefined || out[k] === null) out[k] = v;
  return out;
}

const SECRET_FIELD = /secret|token|key|password|authorization/i;

/**
 * An answer as text for the log: fields whose names suggest a secret are masked (a one-time signing
 * secret must not reach a log even when the answer around it could not be read), long text shortened.
 */
export function rawAnswer(body: unknown, max = 2000): string {
  const text =
    typeof body === 'string'
      ? body
      : JSON.stringify(body, (k, v: unknown) => (k && SECRET_FIELD.test(k) && typeof v === 'string' ? '[hidden]' : v));
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

function errorFromResponse(
  spec: RequestSpec,
  operation: string,
  status: number,
  body: unknown,
  headers: Record<string, string | string[] | undefined>,
): PlatformError {
  const { family, assumption: assumed, path } = spec;
  const obj = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const serverMessage =
    typeof obj.message === 'string'
      ? obj.message
      : typeof obj.error_message === 'string'
        ? obj.error_message
        : typeof body === 'string'
          ? wordsOfText(body)
          : undefined;
  const fieldErrors = Array.isArray(obj.errors)
    ? obj.errors.filter(
        (e): e is FieldError =>
          typeof e === 'object' &&
          e !== null &&
          typeof (e as FieldError).field === 'string' &&
          typeof (e as FieldError).message === 'string',
      )
    : [];
  const retryAfter = headers['retry-after'];
  // A 404 that names a field is about a resource (an unknown agent id), not about the endpoint.
  const assumptionFailed =
    assumed !== undefined && (status === 405 || (status === 404 && !assumed.item && fieldErrors.length === 0));
  // One named item's 404 without a field: the item or the endpoint is missing, and the answer cannot tell which.
  const unconfirmed = assumed?.item === true && status === 404 && fieldErrors.length === 0;
  return new PlatformError({
    family,
    kind: kindOfStatus(status),
    operation,
    status,
    once: spec.retry === 'never',
    ...(serverMessage ? { serverMessage } : {}),
    fieldErrors,
    ...(status === 429 || status === 503
      ? { retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) }
      : {}),
    ...(assumptionFailed
      ? { assumption: { row: assumed.row, ...(assumed.manualPath ? { manualPath: assumed.manualPath } : {}) } }
      : {}),
    ...(unconfirmed
      ? {
          unconfirmed: {
            row: assumed.row,
            resource: itemOfPath(path),
            ...(assumed.manualPath ? { manualPath: assumed.manualPath } : {}),
          },
        }
      : {}),
    body,
  });
}

/** The platform's APIs do not redirect: a 3xx means the base address points somewhere else (a proxy, a sign-in page). */
function redirectError(
  spec: RequestSpec,
  operation: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
): PlatformError {
  const location = headers.location;
  const where = Array.isArray(location) ? location[0] : location;
  return new PlatformError({
    family: spec.family,
    kind: 'unexpectedResponse',
    operation,
    status,
    serverMessage: `The address answered with a redirect (HTTP ${status}${where ? ` to ${where.split('?')[0]}` : ''}) instead of the API: check the base address of the connection profile, or a proxy in between`,
  });
}

/** Codes of a connection closed after the request went out: the platform was reached, its answer lost. */
const CLOSED_CODES: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

function fromThrown(spec: RequestSpec, operation: string, err: unknown, timeoutMs: number): PlatformError {
  const name = (err as { name?: string } | undefined)?.name;
  if (spec.signal?.aborted) return new PlatformError({ family: spec.family, kind: 'cancelled', operation, cause: err });
  const code = (err as { code?: string } | undefined)?.code;
  const once = spec.retry === 'never';
  if (
    name === 'TimeoutError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    (name === 'AbortError' && !spec.signal?.aborted)
  ) {
    return new PlatformError({ family: spec.family, kind: 'timeout', operation, once, timeoutMs, cause: err });
  }
  return new PlatformError({
    family: spec.family,
    kind: 'network',
    operation,
    once,
    ...(code !== undefined && CLOSED_CODES.has(code) ? { closed: true } : {}),
    serverMessage: code ?? (err instanceof Error ? err.message : String(err)),
    ...hostOf(spec.baseUrl),
    cause: err,
  });
}

/**
 * The words of an answer that is not JSON, for a message: a page's title (or its text without markup), shortened;
 * nothing when there are none.
 */
function wordsOfText(text: string): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
  const words = (title ?? (/<[a-z!/]/i.test(text) ? text.replace(/<[^>]*>/g, ' ') : text)).replace(/\s+/g, ' ').trim();
  if (!words) return undefined;
  return words.length > 200 ? `${words.slice(0, 197)}…` : words;
}

/** The host (and port) of a base address, for messages; nothing when it is not an address. */
function hostOf(baseUrl: string): { host?: string } {
  try {
    return { host: new URL(baseUrl).host };
  } catch {
    return {};
  }
}
