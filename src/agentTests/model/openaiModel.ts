/**
 * A `LanguageModel` over an OpenAI-compatible endpoint (hosted services and local servers such as Ollama,
 * llama.cpp, vLLM or LM Studio), through the `openai` package. Failures become `ModelCallError`s that say what
 * happened and what to do; a 429 is retried a bounded number of times, waiting as its Retry-After asks, and
 * nothing else is retried (the SDK's own retries are off). The key goes in the Authorization header only: it is
 * redacted from every message, and the model's id names the host and the model, never the key.
 */
import OpenAI from 'openai';
import { Redactor } from '../../core/redact';
import { backoffDelay, parseRetryAfter, sleep } from '../../core/retry';
import { type LanguageModel, ModelCallError, type ModelMessage, type ModelReply } from './types';

export interface OpenAiModelOptions {
  /** Where the API is: `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Undefined for a local server that takes none (no Authorization header is sent). */
  readonly key?: string;
  /** How long one attempt may take. Default 60 s. */
  readonly timeoutMs?: number;
  /** How many times a 429 is tried again. Default 2. */
  readonly rateLimitRetries?: number;
  /** A Retry-After longer than this is not waited for: the call fails saying how long to wait. Default 30 s. */
  readonly maxRetryAfterMs?: number;
  /** The wait before a retry when a 429 gives no Retry-After (doubled each time, with jitter). Default 1 s. */
  readonly rateLimitBackoffMs?: number;
  /** Sent as `temperature`; `null` sends none (for models that take only their default). Default 0. */
  readonly temperature?: number | null;
  /** Sent as `max_tokens` when set. */
  readonly maxOutputTokens?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** The model's id in cassette keys, prices and reports: `openai:<host>/<model>` (no key, no path, no query). */
export function openAiModelId(baseUrl: string, model: string): string {
  return `openai:${hostOf(baseUrl)}/${model}`;
}

/** Makes the model; throws `ModelCallError` (`refused`) when the base URL is not an http(s) URL. */
export function createOpenAiModel(options: OpenAiModelOptions): LanguageModel {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new ModelCallError(
      `the model endpoint "${options.baseUrl}" is not a URL: give the base URL of an OpenAI-compatible API, such as http://localhost:11434/v1`,
      'refused',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelCallError(
      `the model endpoint must be an http or https URL, not ${url.protocol}: give a base URL such as http://localhost:11434/v1`,
      'refused',
    );
  }
  const redactor = new Redactor();
  redactor.add(options.key);
  const key = options.key !== undefined && options.key !== '' ? options.key : undefined;
  const client = new OpenAI({
    baseURL: options.baseUrl,
    // The SDK insists on a key; a server that takes none gets no Authorization header at all (below).
    apiKey: key ?? 'none',
    // Named so the SDK reads none of them from the environment.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    defaultHeaders: key === undefined ? { Authorization: null } : {},
  });
  const where = `${hostOf(options.baseUrl)} (model ${options.model})`;
  const say = (text: string): string => redactor.redact(text);
  const retries = options.rateLimitRetries ?? 2;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
  const backoff = { retries, baseMs: options.rateLimitBackoffMs ?? 1_000, maxMs: maxRetryAfterMs };
  const temperature = options.temperature === undefined ? 0 : options.temperature;
  const timeoutS = Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 100) / 10;

  async function once(messages: readonly ModelMessage[], signal?: AbortSignal): Promise<ModelReply> {
    const completion: unknown = await client.chat.completions.create(
      {
        model: options.model,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        ...(temperature === null ? {} : { temperature }),
        ...(options.maxOutputTokens !== undefined ? { max_tokens: options.maxOutputTokens } : {}),
      },
      { signal },
    );
    return readCompletion(completion, where);
  }

  return {
    id: openAiModelId(options.baseUrl, options.model),
    async complete(messages, signal) {
      for (let attempt = 0; ; attempt++) {
        try {
          return await once(messages, signal);
        } catch (err) {
          if (signal?.aborted) throw new ModelCallError('the model call was cancelled', 'cancelled');
          if (err instanceof ModelCallError) throw new ModelCallError(say(err.message), err.kind);
          if (err instanceof OpenAI.RateLimitError) {
            const asked = retryAfterMs(err.headers);
            if (asked !== undefined && asked > maxRetryAfterMs) {
              throw new ModelCallError(
                `the model at ${where} is rate-limited (429) and asks to wait ${Math.ceil(asked / 1000)} s: run again after that, or run fewer cases at once`,
                'rate-limited',
              );
            }
            if (attempt < retries) {
              try {
                await sleep(asked ?? Math.max(1, backoffDelay(backoff, attempt + 1)), signal);
              } catch {
                throw new ModelCallError('the model call was cancelled', 'cancelled');
              }
              continue;
            }
            throw new ModelCallError(
              `the model at ${where} is still rate-limited (429) after ${retries + 1} tries: wait a while and run again, or run fewer cases at once`,
              'rate-limited',
            );
          }
          throw new ModelCallError(say(describe(err, where, timeoutS)), kindOf(err));
        }
      }
    },
  };
}

/** The text and usage of a chat completion; `unreadable` when the answer is not one. */
function readCompletion(completion: unknown, where: string): ModelReply {
  const c = completion as
    | {
        choices?: Array<{ message?: { content?: unknown } }>;
        usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
      }
    | undefined;
  if (typeof c !== 'object' || c === null || !Array.isArray(c.choices)) {
    throw new ModelCallError(
      `the model at ${where} answered something that is not a chat completion: check that the base URL points at an OpenAI-compatible API (it usually ends in /v1)`,
      'unreadable',
    );
  }
  const text = c.choices[0]?.message?.content;
  if (typeof text !== 'string') {
    throw new ModelCallError(
      `the model at ${where} answered without any text (a refusal or a tool call): try another model`,
      'unreadable',
    );
  }
  const input = c.usage?.prompt_tokens;
  const output = c.usage?.completion_tokens;
  return typeof input === 'number' && typeof output === 'number'
    ? { text, usage: { inputTokens: input, outputTokens: output } }
    : { text };
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (headers?.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(headers?.get('retry-after'));
}

function kindOf(err: unknown): ModelCallError['kind'] {
  if (err instanceof OpenAI.APIUserAbortError) return 'cancelled';
  if (err instanceof OpenAI.APIConnectionTimeoutError) return 'timeout';
  if (err instanceof OpenAI.APIConnectionError) return 'unreachable';
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 0;
    if (status >= 500) return 'unreachable';
    return 'refused';
  }
  if (err instanceof SyntaxError) return 'unreadable';
  return 'other';
}

/** What happened and what to do, for every failure but a 429 (the caller words those). */
function describe(err: unknown, where: string, timeoutS: number): string {
  if (err instanceof OpenAI.APIUserAbortError) return 'the model call was cancelled';
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return `the model at ${where} did not answer within ${timeoutS} s: check that it is running and not overloaded, or allow it longer`;
  }
  if (err instanceof OpenAI.APIConnectionError) {
    const cause = (err.cause as { code?: unknown; cause?: { code?: unknown } } | undefined) ?? {};
    const code =
      typeof cause.code === 'string' ? cause.code : typeof cause.cause?.code === 'string' ? cause.cause.code : '';
    return `the model at ${where} could not be reached${code ? ` (${code})` : ''}: check the base URL and that the server is running`;
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 0;
    const detail = endpointMessage(err);
    if (status === 401 || status === 403) {
      return `the model at ${where} refused the key (${status}${detail}): set the endpoint key again (in the editor, or AGENT_WORKBENCH_MODEL_KEY on the command line)`;
    }
    if (status === 404) {
      return `the model at ${where} was not found (404${detail}): check the model name and the base URL (it usually ends in /v1)`;
    }
    if (status >= 500) {
      return `the model at ${where} failed (${status}${detail}): the server is down or overloaded; try again later or look at its logs`;
    }
    return `the model at ${where} refused the request (${status}${detail}): check the model name and that the endpoint takes chat completions`;
  }
  if (err instanceof SyntaxError) {
    return `the model at ${where} answered with JSON that could not be read: check that the base URL points at an OpenAI-compatible API`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `the model call to ${where} failed: ${message}`;
}

/** The endpoint's own words about a refusal, short: `: <message>` or nothing. */
function endpointMessage(err: InstanceType<typeof OpenAI.APIError>): string {
  const error = err.error as { message?: unknown } | undefined;
  const text = typeof error?.message === 'string' ? error.message : '';
  // Endpoints echo part of a wrong key ("Incorrect API key provided: sk-ab***yz"): none of it is shown.
  const short = text
    .replace(/\b(?:sk|pk|key)[-_][\w*.-]{3,}/gi, '‹redacted›')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return short ? `: ${short}` : '';
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    const authority = baseUrl.replace(/^[a-z]+:\/\//i, '').split(/[/?#]/)[0] ?? '';
    return authority.split('@').pop() ?? authority;
  }
}
