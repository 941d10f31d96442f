import { lazyBundle } from './bundles';
import type * as Runtime from '../agentTests/runtime';

export type AgentTestsRuntime = typeof Runtime;

/** Conversation tests, loaded from their own bundle the first time the Testing view needs them (never at activation). */
export const agentTestsRuntime = lazyBundle<AgentTestsRuntime>('agentTests.js');
