// Where the test host (code-server, a real VS Code server and web workbench) lives.
// It sits in a cache folder outside the clone so a fresh clone reuses it instead of rebuilding it.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** code-server 4.100.3 is VS Code 1.100.3 and the last line that runs on Node 20. */
export const CODE_SERVER_VERSION = '4.100.3';
export const CHROMIUM_PATH = '/usr/bin/chromium';

export function cacheRoot() {
  if (process.env.AGENT_WORKBENCH_CACHE) return resolve(process.env.AGENT_WORKBENCH_CACHE);
  const xdg = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(xdg, 'agent-workbench');
}

export function codeServerDir() {
  return join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
}

/** The code-server entry script, run with this Node: `node <entry> ...`. */
export function codeServerEntry() {
  return join(codeServerDir(), 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/**
 * code-server's own config file, in the cache folder: every run of the code-server CLI names it, so
 * code-server never reads or writes ~/.config/code-server (whose first-run notice once broke the version check).
 */
export function hostConfigFile() {
  return join(codeServerDir(), 'config.yaml');
}

/** Written last by the installer, after the host answered; its absence means "install again". */
export function installedMarker() {
  return join(codeServerDir(), '.installed');
}

export function isHostInstalled() {
  return existsSync(installedMarker()) && existsSync(codeServerEntry());
}
