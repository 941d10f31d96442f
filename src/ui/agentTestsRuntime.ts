import * as path from 'node:path';
import type * as Runtime from '../agentTests/runtime';

export type AgentTestsRuntime = typeof Runtime;

let loaded: AgentTestsRuntime | undefined;

/** Conversation tests, loaded from their own bundle the first time the Testing view needs them (never at activation). */
export function agentTestsRuntime(): AgentTestsRuntime {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require(path.join(__dirname, 'agentTests.js')) as AgentTestsRuntime;
  return loaded;
}
