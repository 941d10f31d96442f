import * as path from 'node:path';
import type * as Runtime from '../lint/runtime';

export type LintRuntime = typeof Runtime;

let loaded: LintRuntime | undefined;

/** The checks of agent folders, loaded from their own bundle the first time an agent's file is opened. */
export function lintRuntime(): LintRuntime {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require(path.join(__dirname, 'lint.js')) as LintRuntime;
  return loaded;
}
