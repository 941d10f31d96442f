// A scripted OpenAI-compatible model server on a loopback port, for tests and benchmarks: a stand-in for the third
// party a judged test talks to (a hosted endpoint, Ollama, llama.cpp, vLLM, LM Studio). It speaks the part of the
// API the workbench uses: POST /v1/chat/completions (non-streaming, with `usage`) and GET /v1/models.
// What it answers is chosen by the test, as a function of the request; faults are queued or answered by that
// function: 429 with or without Retry-After, any status (500, 503), a body that is not JSON, a slow answer, a reset.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedMessage {
  readonly role: string;
  readonly content: string;
}

/** One chat request as the server received it. */
export interface ScriptedRequest {
  readonly model: string;
  readonly messages: readonly ScriptedMessage[];
  readonly headers: IncomingHttpHeaders;
  /** The request body as parsed, for anything else a test wants to look at (temperature, response_format). */
  readonly body: Record<string, unknown>;
  /** Every message's content, one after the other: for `includes` rules. */
  readonly text: string;
}

export type ScriptedFault =
  /** 429; `retryAfter` is the header's value as sent (seconds or an HTTP date), none when absent. */
  | { readonly fault: 'rate-limited'; readonly retryAfter?: string }
  /** Any status with an OpenAI-style error body, or `body` as given. */
  | { readonly fault: 'status'; readonly status: number; readonly body?: string }
  /** 200 with a body that is not JSON (an HTML page from a proxy in front of the model, say), as `contentType`. */
  | { readonly fault: 'not-json'; readonly contentType?: string }
  /** 200 with JSON that is not a chat completion. */
  | { readonly fault: 'wrong-shape' }
  /** The connection is destroyed without an answer. */
  | { readonly fault: 'reset' };

export type ScriptedAnswer =
  | string
  | {
      readonly text: string;
      /** Tokens to report; `none` leaves `usage` out of the answer. Default: about a token per four characters. */
      readonly usage?: { readonly input: number; readonly output: number } | 'none';
      /** Wait this long before answering (a slow model); overrides the server's delay. */
      readonly delayMs?: number;
    }
  | ScriptedFault;

export type ScriptedRule = (request: ScriptedRequest) => ScriptedAnswer | undefined;

export interface ScriptedModelOptions {
  /** What to answer; undefined from the rule is answered with a 500 that says no rule matched. */
  readonly answer?: ScriptedAnswer | ScriptedRule;
  /** Wait this long before every answer (a model that answers in 50 ms). */
  readonly delayMs?: number;
  /** Faults for the next requests, in order, before `answer` is asked. */
  readonly faults?: readonly ScriptedFault[];
  /** The models GET /v1/models lists. */
  readonly models?: readonly string[];
  /** When set, a request without `Authorization: Bearer <key>` is answered 401. */
  readonly key?: string;
}

export interface ScriptedModel {
  /** The base URL an OpenAI client takes: `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  /** Every chat request received, faulted ones included, in order of arrival. */
  readonly requests: readonly ScriptedRequest[];
  /** How many chat requests came. */
  calls(): number;
  /** How many were answered with a completion (no fault). */
  answered(): number;
  /** The most chat requests that were open at once. */
  peakConcurrency(): number;
  setAnswer(answer: ScriptedAnswer | ScriptedRule): void;
  setDelay(ms: number): void;
  queueFaults(...faults: ScriptedFault[]): void;
  /** Forgets the requests and counts (not the answer, delay or faults). */
  reset(): void;
  close(): Promise<void>;
}

/** About a token per four characters: what the server reports when a rule gives no usage. */
export function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** The last user message of a request ('' when none). */
export function lastUser(request: ScriptedRequest): string {
  return [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

/** The system message of a request ('' when none). */
export function systemOf(request: ScriptedRequest): string {
  return request.messages.find((m) => m.role === 'system')?.content ?? '';
}

/** Starts the server on 127.0.0.1 with a free port. */
export async function startScriptedModel(options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  let answer: ScriptedAnswer | ScriptedRule | undefined = options.answer;
  let delayMs = options.delayMs ?? 0;
  const faults: ScriptedFault[] = [...(options.faults ?? [])];
  const models = options.models ?? ['scripted-model'];
  const requests: ScriptedRequest[] = [];
  let answered = 0;
  let open = 0;
  let peak = 0;
  let sequence = 0;
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      if (options.key !== undefined && req.headers.authorization !== `Bearer ${options.key}`) {
        // As some endpoints do, the refusal names the key it was given: what shows it is the caller's fault.
        const given = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        return sendError(res, 401, 'invalid_api_key', `Incorrect API key provided: ${given}.`);
      }
      if (req.method === 'GET' && path === '/v1/models') {
        return sendJson(res, 200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'scripted' })),
        });
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        return sendError(res, 404, 'not_found', `no route ${req.method ?? ''} ${path ?? ''}`);
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return sendError(res, 400, 'invalid_request_error', 'the request body is not JSON');
      }
      const messages = Array.isArray(body.messages)
        ? (body.messages as Array<{ role?: unknown; content?: unknown }>).map((m) => ({
            role: String(m.role),
            content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
          }))
        : [];
      const request: ScriptedRequest = {
        model: String(body.model),
        messages,
        headers: req.headers,
        body,
        text: messages.map((m) => m.content).join('\n'),
      };
      requests.push(request);
      open++;
      peak = Math.max(peak, open);
      let settled = false;
      const done = (): void => {
        if (!settled) {
          settled = true;
          open--;
        }
      };
      res.on('close', done);
      if (body.stream === true) {
        done();
        return sendError(res, 400, 'invalid_request_error', 'the scripted model does not stream');
      }
      const chosen = faults.shift() ?? (typeof answer === 'function' ? answer(request) : answer);
      const wait = typeof chosen === 'object' && 'text' in chosen ? (chosen.delayMs ?? delayMs) : delayMs;
      const timer = setTimeout(() => {
        if (res.destroyed) return;
        if (typeof chosen === 'object' && 'fault' in chosen) {
          sendFault(res, chosen);
        } else if (chosen === undefined) {
          sendError(res, 500, 'server_error', 'scripted model: no rule answers this request');
        } else {
          const text = typeof chosen === 'string' ? chosen : chosen.text;
          const usage = typeof chosen === 'string' ? undefined : chosen.usage;
          answered++;
          sendJson(res, 200, {
            id: `chatcmpl-scripted-${++sequence}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: request.model,
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            ...(usage === 'none'
              ? {}
              : {
                  usage: {
                    prompt_tokens: usage?.input ?? roughTokens(request.text),
                    completion_tokens: usage?.output ?? roughTokens(text),
                    total_tokens: (usage?.input ?? roughTokens(request.text)) + (usage?.output ?? roughTokens(text)),
                  },
                }),
          });
        }
      }, wait);
      res.on('close', () => clearTimeout(timer));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    calls: () => requests.length,
    answered: () => answered,
    peakConcurrency: () => peak,
    setAnswer(a) {
      answer = a;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    queueFaults(...more) {
      faults.push(...more);
    },
    reset() {
      requests.length = 0;
      answered = 0;
      peak = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { message, type: code, code } }, headers);
}

function sendFault(res: ServerResponse, fault: ScriptedFault): void {
  switch (fault.fault) {
    case 'rate-limited':
      return sendError(
        res,
        429,
        'rate_limit_exceeded',
        'Rate limit reached for requests',
        fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {},
      );
    case 'status':
      if (fault.body !== undefined) {
        res.writeHead(fault.status, { 'content-type': 'text/plain' });
        res.end(fault.body);
        return;
      }
      return sendError(res, fault.status, 'server_error', `scripted fault ${fault.status}`);
    case 'not-json':
      res.writeHead(200, { 'content-type': fault.contentType ?? 'text/html' });
      res.end('<html><body>502 Bad Gateway: upstream model unavailable</body></html>');
      return;
    case 'wrong-shape':
      return sendJson(res, 200, { hello: 'this is not a chat completion' });
    case 'reset':
      res.socket?.destroy();
      return;
  }
}
