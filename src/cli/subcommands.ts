import type * as LintCommand from '../lint/lintCommand';
import type * as ServeCommand from '../localPlatform/serveCommand';
import type * as CompareCommand from './compareCommand';
import type * as McpCommand from './mcpCommand';
import type * as MergeReports from './mergeReports';
import type * as TestCommand from './testCommand';

/** One subcommand of `node dist/cli.js`: its run resolves to the process's exit code, or to undefined when it keeps the process running (serve). */
export interface Subcommand {
  readonly summary: string;
  run(args: string[]): Promise<number | undefined>;
}

// Each command's module is required when the command runs (the bundler keeps it in this bundle, evaluated on the
// first require), so `lint` in CI does not first load the local platform, zod and undici.
/* eslint-disable @typescript-eslint/no-require-imports */
const serveCommand = (): typeof ServeCommand => require('../localPlatform/serveCommand') as typeof ServeCommand;
const lintCommand = (): typeof LintCommand => require('../lint/lintCommand') as typeof LintCommand;
const testCommand = (): typeof TestCommand => require('./testCommand') as typeof TestCommand;
const compareCommand = (): typeof CompareCommand => require('./compareCommand') as typeof CompareCommand;
const mcpCommand = (): typeof McpCommand => require('./mcpCommand') as typeof McpCommand;
const mergeReports = (): typeof MergeReports => require('./mergeReports') as typeof MergeReports;
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Every headless use of Agent Workbench is a subcommand of this one entry: the local platform, and the checks that
 * run in CI. Add one here; its own module parses its arguments and prints its own help for `--help`.
 */
export const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  serve: {
    summary: 'run the local platform: the whole platform interface on a loopback port',
    run: async (args) => {
      await serveCommand().serve(args);
      return undefined;
    },
  },
  lint: {
    summary: 'check agent folders for problems before they are pushed (exit 1 on an error)',
    run: (args) => lintCommand().lint(args),
  },
  test: {
    summary: 'run conversation tests (tests/*.yaml) against the local platform or an environment',
    run: (args) => testCommand().testCommand(args),
  },
  compare: {
    summary: 'run the same tests against two environments and say what changed, and whether by more than chance',
    run: (args) => compareCommand().compareCommand(args),
  },
  'merge-reports': {
    summary: 'join the JSON reports of sharded test runs (test --shard I/N) into one JUnit, Markdown and summary',
    run: (args) => mergeReports().mergeReportsCommand(args),
  },
  mcp: {
    summary: 'serve the assistant tools over MCP (stdio) for Claude Code, Cursor and other assistants',
    run: (args) => mcpCommand().mcpCommand(args),
  },
};
