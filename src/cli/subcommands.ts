import { lint, LINT_SUMMARY } from '../lint/lintCommand';
import { serve, SERVE_SUMMARY } from '../localPlatform/serveCommand';
import { mcpCommand, MCP_SUMMARY } from './mcpCommand';
import { testCommand, TEST_SUMMARY } from './testCommand';

/** One subcommand of `node dist/cli.js`: its run resolves to the process's exit code, or to undefined when it keeps the process running (serve). */
export interface Subcommand {
  readonly summary: string;
  run(args: string[]): Promise<number | undefined>;
}

/**
 * Every headless use of Agent Workbench is a subcommand of this one entry: the local platform, and the checks that
 * run in CI. Add one here; its own module parses its arguments and prints its own help for `--help`.
 */
export const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  serve: {
    summary: SERVE_SUMMARY,
    run: async (args) => {
      await serve(args);
      return undefined;
    },
  },
  lint: { summary: LINT_SUMMARY, run: lint },
  test: { summary: TEST_SUMMARY, run: (args) => testCommand(args) },
  mcp: { summary: MCP_SUMMARY, run: (args) => mcpCommand(args) },
};
