import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestWord } from './closest';

/** A wrong command line: the message says what to fix; the command exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * node's parseArgs, whose mistakes are usage errors that name the closest valid option: `--reporer` is answered
 * with "Did you mean --reporter?".
 */
export function parseCommandLine<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError(explained(err, Object.keys(config.options ?? {})));
  }
}

function explained(err: unknown, names: readonly string[]): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return message;
  const given = /'(-[^']*)'/.exec(message)?.[1] ?? '';
  const bare = given.replace(/^-+/, '').split('=')[0] ?? '';
  const near = closestWord(bare, names);
  return `Unknown option ${given}.${near ? ` Did you mean --${near}?` : ''}`;
}

/** A flag's whole number of 1 or more, or undefined when not given; anything else is a usage error. */
export function wholeFlag(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} must be a whole number of 1 or more, got "${text}"`);
  return n;
}
