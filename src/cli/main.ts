import type * as Server from '../localPlatform/server';
import type { LocalPlatform, LocalPlatformOptions } from '../localPlatform/server';
import { closestWord } from '../core/closest';
import { UsageError } from '../core/commandLine';
import { SUBCOMMANDS } from './subcommands';
import { cliVersion } from './version';

/**
 * Required rather than run, the bundle is the local platform as a library: a tool that runs the server in its own
 * process requires dist/cli.js and calls this. The server is imported on the call, so a command that does not
 * need it (lint) starts without loading it.
 */
export async function startLocalPlatform(options?: LocalPlatformOptions): Promise<LocalPlatform> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const server = require('../localPlatform/server') as typeof Server;
  return server.startLocalPlatform(options);
}

export function usage(): string {
  const width = Math.max(...Object.keys(SUBCOMMANDS).map((name) => name.length));
  return [
    'Agent Workbench on the command line.',
    '',
    'Usage: agent-workbench <command> [options]      (in a clone of Agent Workbench: node dist/cli.js <command>)',
    '',
    'Commands:',
    ...Object.entries(SUBCOMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    '',
    'Every command takes --help (its options) and --version.',
    'Exit codes: 0 success, 1 failures (a failed case, a lint error, a problem in a file), 2 a wrong command line.',
    '',
  ].join('\n');
}

/** Runs one command line; resolves to the exit code, or to undefined when the command keeps the process running. */
export async function runCli(argv: readonly string[]): Promise<number | undefined> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(usage());
    return 0;
  }
  // Before a command's own options (and before its module loads): `agent-workbench test --version` is quick too.
  const beforeOperands = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (
    name === '--version' ||
    name === '-v' ||
    (Object.hasOwn(SUBCOMMANDS, name) && beforeOperands.includes('--version'))
  ) {
    process.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  const command = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (!command) {
    const near = closestWord(name, Object.keys(SUBCOMMANDS));
    process.stderr.write(
      `"${name}" is not a command of Agent Workbench.${near ? ` Did you mean ${near}?` : ''}\n\n${usage()}`,
    );
    return 2;
  }
  try {
    return await command.run(args);
  } catch (err) {
    // A mistake in the command line that the command did not answer itself (serve's options).
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${err.message}\n\nRun \`agent-workbench ${name} --help\` for its options.\n`);
    return 2;
  }
}

// Run as a program (`node dist/cli.js ...`, `npm start`, or forked by the editor); required, it only exports.
if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
