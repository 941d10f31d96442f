// The command line bundled from its source once per test process (the same entry dist/cli.js bundles, in one file),
// so a unit run needs no build first and each call starts as the installed command does, without compiling
// TypeScript again: exit code and output, whatever the code.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

let bundled: Promise<string> | undefined;

/** The command line as one CommonJS file for Node 20, with the extension's version as the build sets it. */
function cliBundle(): Promise<string> {
  bundled ??= (async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), 'aw-cli-')), 'cli.js');
    const { version } = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { version: string };
    await build({
      entryPoints: [resolve('src/cli/main.ts')],
      outfile,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // ESM builds where a library has one: jsonc-parser's main is a UMD file that requires its parts at run time.
      mainFields: ['module', 'main'],
      define: { AGENT_WORKBENCH_VERSION: JSON.stringify(version) },
      logLevel: 'silent',
    });
    return outfile;
  })();
  return bundled;
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `agent-workbench <args>` in `cwd` (default: this folder) with `env` (default: this process's). */
export async function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [await cliBundle(), ...args], {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}
