import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { jsonTooDeep, TOO_DEEP } from './limits';

/** A JSON-answering error thrown anywhere in a handler. `body` is sent as is. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof body === 'object' && body !== null && 'message' in body
        ? String((body as { message: unknown }).message)
        : `HTTP ${status}`,
    );
  }
}

/** The build-API error body of the spec: `message` plus `errors[{field, message}]`. */
export function buildError(
  status: number,
  message: string,
  errors: Array<{ field: string; message: string }> = [],
): HttpError {
  return new HttpError(status, { message, errors });
}

/** The runtime-API error body (External Events, Concurrent Calls, ...): `error_message`. */
export function runtimeError(status: number, errorMessage: string, field?: string): HttpError {
  // `field` is ours: it names the request field at fault, so a form can point at the input.
  return new HttpError(status, field ? { error_message: errorMessage, field } : { error_message: errorMessage });
}

export interface RawBody {
  readonly text: string;
  readonly contentType: string;
}

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly method: string;
  /** Path below the family prefix, for example `/v1/agents/ag_1`. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  /** A parameter the route's pattern names (`:agentId`); a route that names none such is the platform's mistake (500). */
  param(name: string): string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** The raw body text and its media type (lower case, no parameters). */
  readonly raw: RawBody;
  /** The body parsed as JSON; throws the given error when it is not JSON. Empty body gives undefined. */
  json(onInvalid?: () => HttpError): unknown;
  header(name: string): string | undefined;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

interface Route {
  readonly method: string;
  readonly parts: readonly string[];
  readonly handler: Handler;
}

/** A small path router: `/v1/agents/:agentId/branches`. Literal segments win over parameters. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method: method.toUpperCase(), parts: pattern.split('/').filter(Boolean), handler });
    return this;
  }

  get(pattern: string, handler: Handler): this {
    return this.add('GET', pattern, handler);
  }
  post(pattern: string, handler: Handler): this {
    return this.add('POST', pattern, handler);
  }
  put(pattern: string, handler: Handler): this {
    return this.add('PUT', pattern, handler);
  }
  patch(pattern: string, handler: Handler): this {
    return this.add('PATCH', pattern, handler);
  }
  delete(pattern: string, handler: Handler): this {
    return this.add('DELETE', pattern, handler);
  }

  /** Every route as method and pattern, for checks that must reach each one. */
  list(): Array<{ method: string; pattern: string }> {
    return this.routes.map((r) => ({ method: r.method, pattern: `/${r.parts.join('/')}` }));
  }

  /** Finds the route for a path. `methodMismatch` is true when the path exists under another method. */
  match(
    method: string,
    path: string,
  ): { handler: Handler; params: Record<string, string> } | { methodMismatch: boolean } {
    const segs = path.split('/').filter(Boolean).map(safeDecode);
    let best: { handler: Handler; params: Record<string, string>; score: number } | undefined;
    let methodMismatch = false;
    for (const route of this.routes) {
      if (route.parts.length !== segs.length) continue;
      const params: Record<string, string> = {};
      let score = 0;
      let ok = true;
      for (const [i, seg] of segs.entries()) {
        const part = route.parts[i] ?? '';
        if (part.startsWith(':')) {
          params[part.slice(1)] = seg;
        } else if (part === seg) {
          score += 1;
        } else {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (route.method !== method) {
        methodMismatch = true;
        continue;
      }
      if (!best || score > best.score) best = { handler: route.handler, params, score };
    }
    return best ? { handler: best.handler, params: best.params } : { methodMismatch };
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<RawBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, { message: 'Request body too large' });
    chunks.push(buf);
  }
  const [mediaType = ''] = (req.headers['content-type'] ?? '').split(';', 1);
  const contentType = mediaType.trim().toLowerCase();
  return { text: Buffer.concat(chunks).toString('utf8'), contentType };
}

export function makeContext(
  req: IncomingMessage,
  path: string,
  query: URLSearchParams,
  params: Record<string, string>,
  raw: RawBody,
): RequestContext {
  let parsed: { value: unknown } | undefined;
  return {
    req,
    method: (req.method ?? 'GET').toUpperCase(),
    path,
    params,
    param(name) {
      const value = params[name];
      if (value === undefined) throw new HttpError(500, { message: `The route of ${path} has no :${name}` });
      return value;
    },
    query,
    headers: req.headers,
    raw,
    json(onInvalid) {
      if (parsed) return parsed.value;
      if (raw.text.trim() === '') {
        parsed = { value: undefined };
        return undefined;
      }
      const invalid = (): HttpError =>
        onInvalid
          ? onInvalid()
          : buildError(400, 'Request body is not valid JSON', [{ field: 'body', message: 'must be valid JSON' }]);
      // Too deep to keep: refused with the family's 400, like any body it cannot use.
      if (jsonTooDeep(raw.text)) throw withMessage(invalid(), `Request body ${TOO_DEEP}`);
      try {
        parsed = { value: JSON.parse(raw.text) };
      } catch {
        throw invalid();
      }
      return parsed.value;
    },
    header(name) {
      const v = req.headers[name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    },
  };
}

/** The same error with its message replaced, in whichever shape (`message` or `error_message`) it has. */
function withMessage(err: HttpError, message: string): HttpError {
  if (typeof err.body !== 'object' || err.body === null) return err;
  const body = { ...(err.body as Record<string, unknown>) };
  if ('error_message' in body) body.error_message = message;
  else body.message = message;
  return new HttpError(err.status, body, err.headers);
}

/** A reply body that is already JSON text, sent as is (large replies assembled from cached parts). */
export class JsonText {
  constructor(readonly text: string) {}
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  const text = body === undefined ? '' : body instanceof JsonText ? body.text : JSON.stringify(body);
  res.writeHead(status, {
    ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}
