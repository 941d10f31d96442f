import * as path from 'node:path';
import type * as Runtime from '../client/runtime';

export type ClientRuntime = typeof Runtime;

let loaded: ClientRuntime | undefined;

/** The platform client, loaded from its own bundle the first time something needs it. */
export function clientRuntime(): ClientRuntime {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require(path.join(__dirname, 'client.js')) as ClientRuntime;
  return loaded;
}
