import type * as Server from '../localPlatform/server';
import type { LocalPlatform, LocalPlatformOptions } from '../localPlatform/server';
import { SUBCOMMANDS } from './subcommands';

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
    'Usage: node dist/cli.js <command> [options]',
    '',
    'Commands:',
    ...Object.entries(SUBCOMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    '',
    'Run `node dist/cli.js <command> --help` for the options of one command.',
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
  const command = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`"${name}" is not a command of Agent Workbench.\n\n${usage()}`);
    return 2;
  }
  return command.run(args);
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
