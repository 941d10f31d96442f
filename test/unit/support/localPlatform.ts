import { after, before, beforeEach, type TestContext } from 'node:test';
import { RESPONSES_MODES, type ResponsesMode } from '../../../src/localPlatform/minimal';
import { type LocalPlatform, type LocalPlatformOptions, startLocalPlatform } from '../../../src/localPlatform/server';

/**
 * The answers mode the client suites run against: `AGENT_WORKBENCH_RESPONSES=minimal` runs them against a
 * platform that answers only what the spec shows, `AGENT_WORKBENCH_RESPONSES=spec-only` against one that also
 * has only the spec's endpoints and event names (npm test runs the client suites in all three modes).
 */
export const RESPONSES: ResponsesMode = RESPONSES_MODES.includes(process.env.AGENT_WORKBENCH_RESPONSES as ResponsesMode)
  ? (process.env.AGENT_WORKBENCH_RESPONSES as ResponsesMode)
  : 'full';

/**
 * Whether a test needs an endpoint or event the spec does not show (one of our assumptions, see
 * docs/api-assumptions.md): in the spec-only mode the platform does not have it, and this is the reason the test
 * is skipped; in the other modes it is false. Used as `describe(title, { skip: assumed('GET /v1/agents') }, ...)`,
 * or first thing in a test as `if (assumed('GET /v1/agents', t)) return;`, which marks that test skipped. Every
 * test the spec-only run leaves out is found by searching for `assumed(`.
 */
export function assumed(what: string, t?: TestContext): string | false {
  if (RESPONSES !== 'spec-only') return false;
  const reason = `needs ${what}, which the spec does not show (spec-only mode)`;
  t?.skip(reason);
  return reason;
}

/**
 * Starts a real local platform on a free loopback port for the tests of one file, and resets
 * it to the base seed before each test. Streaming has no delay.
 */
export function useLocalPlatform(options: LocalPlatformOptions = {}): { readonly lp: LocalPlatform } {
  const holder: { lp: LocalPlatform | undefined } = { lp: undefined };
  before(async () => {
    holder.lp = await startLocalPlatform({ streamDelayMs: 0, seed: 'base', responses: RESPONSES, ...options });
  });
  beforeEach(async () => {
    const res = await fetch(`${holder.lp!.urls.admin}/reset`, {
      method: 'POST',
      body: JSON.stringify({ seed: options.seed ?? 'base' }),
    });
    if (!res.ok) throw new Error(`reset failed: ${res.status}`);
  });
  after(async () => {
    await holder.lp?.close();
  });
  return {
    get lp() {
      if (!holder.lp) throw new Error('the local platform is not started yet');
      return holder.lp;
    },
  };
}

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A plain HTTP call that returns status, headers and the parsed body (or text when not JSON). */
export async function call<T = unknown>(
  method: string,
  url: string,
  opts: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = {
    ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...opts.headers,
  };
  const res = await fetch(url, {
    method,
    headers,
    body: opts.rawBody ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: body as T };
}
