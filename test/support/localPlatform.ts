import { after, before, beforeEach, type TestContext } from 'node:test';
import { RESPONSES_MODES, type ResponsesMode } from '../../src/localPlatform/responsesMode';
import { type LocalPlatform, type LocalPlatformOptions, startLocalPlatform } from '../../src/localPlatform/server';
import { LocalAdmin } from './localAdmin';

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
 * Starts a real local platform on a free loopback port for the tests of one file (node:test hooks), and resets
 * it to the base seed before each test. Streaming has no delay. `admin` is its admin API.
 */
export function useLocalPlatform(options: LocalPlatformOptions = {}): {
  readonly lp: LocalPlatform;
  readonly admin: LocalAdmin;
} {
  const holder: { lp: LocalPlatform | undefined } = { lp: undefined };
  before(async () => {
    holder.lp = await startLocalPlatform({ streamDelayMs: 0, seed: 'base', responses: RESPONSES, ...options });
  });
  beforeEach(async () => {
    await new LocalAdmin(holder.lp!.urls.admin).reset(options.seed ?? 'base');
  });
  after(async () => {
    await holder.lp?.close();
  });
  const started = (): LocalPlatform => {
    if (!holder.lp) throw new Error('the local platform is not started yet');
    return holder.lp;
  };
  return {
    get lp() {
      return started();
    },
    get admin() {
      return new LocalAdmin(started().urls.admin);
    },
  };
}
