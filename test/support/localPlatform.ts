import { after, before, beforeEach } from 'node:test';
import type { ResponsesMode } from '../../src/localPlatform/minimal';
import { type LocalPlatform, type LocalPlatformOptions, startLocalPlatform } from '../../src/localPlatform/server';
import { LocalAdmin } from './localAdmin';

/**
 * The answers mode the client suites run against: `AGENT_WORKBENCH_RESPONSES=minimal` runs them against a
 * platform that answers only what the spec shows (npm test runs the client suites in both modes).
 */
export const RESPONSES: ResponsesMode = process.env.AGENT_WORKBENCH_RESPONSES === 'minimal' ? 'minimal' : 'full';

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
