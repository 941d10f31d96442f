import { lazyBundle } from '../bundles';
import type * as Runtime from './runtime';

export type AssistantRuntime = typeof Runtime;

/** The assistant tools and the editor's ToolContext, loaded from their own bundle on first use (never at activation). */
export const assistantRuntime = lazyBundle<AssistantRuntime>('assistantTools.js');
