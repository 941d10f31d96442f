import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Set by esbuild (`define`) to the extension's version when it bundles the command line; absent in the source.
declare const AGENT_WORKBENCH_VERSION: string | undefined;

/** The command line's version: the extension's, which the package of the command line takes too. */
export function cliVersion(): string {
  if (typeof AGENT_WORKBENCH_VERSION === 'string') return AGENT_WORKBENCH_VERSION;
  // Run from the source (through tsx): the extension's package.json, two folders up from src/cli.
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}
