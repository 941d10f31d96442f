import * as path from 'node:path';
import type * as Runtime from './runtime';

export type AssistantRuntime = typeof Runtime;

let loaded: AssistantRuntime | undefined;

/** The assistant tools and the editor's ToolContext, loaded from their own bundle on first use (never at activation). */
export function assistantRuntime(): AssistantRuntime {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require(path.join(__dirname, 'assistantTools.js')) as AssistantRuntime;
  return loaded;
}
