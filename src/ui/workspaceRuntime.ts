import * as path from 'node:path';
import type * as Runtime from '../workspace/runtime';

export type WorkspaceRuntime = typeof Runtime;

let loaded: WorkspaceRuntime | undefined;

/** The file mirror, loaded from its own bundle the first time a command needs it (never at activation). */
export function workspaceRuntime(): WorkspaceRuntime {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require(path.join(__dirname, 'workspace.js')) as WorkspaceRuntime;
  return loaded;
}
