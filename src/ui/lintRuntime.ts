import { lazyBundle } from './bundles';
import type * as Runtime from '../lint/runtime';

export type LintRuntime = typeof Runtime;

/** The checks of agent folders, loaded from their own bundle the first time an agent's file is opened. */
export const lintRuntime = lazyBundle<LintRuntime>('lint.js');
