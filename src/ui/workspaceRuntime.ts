import { lazyBundle } from './bundles';
import type * as Runtime from '../workspace/runtime';

export type WorkspaceRuntime = typeof Runtime;

/** The file mirror, loaded from its own bundle the first time a command needs it (never at activation). */
export const workspaceRuntime = lazyBundle<WorkspaceRuntime>('workspace.js');
