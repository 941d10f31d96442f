// Starts code-server (VS Code 1.100.3 server + web workbench) on a loopback port, in its own
// process group so it can be stopped with everything it spawned.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codeServerDir, codeServerEntry, hostConfigFile, isHostInstalled } from './hostPaths.mjs';
import { freePort, prefixLines, stopProcessGroup, waitForHttp } from './processes.mjs';

/**
 * @param {object} o
 * @param {string} o.workspace       folder opened by default
 * @param {string} o.userDataDir     fresh per run, so no state leaks between runs
 * @param {string} o.extensionsDir   installed extensions (empty unless a test installs a .vsix)
 * @param {number} [o.port]          0 or absent: a free port
 * @param {(line: string) => void} [o.log]  receives code-server's output lines
 * @param {Record<string,string>} [o.env]
 */
/**
 * code-server also writes logs, a heartbeat and a device id under the XDG folders of the home folder; these
 * variables give it folders of its own under `root`, so it never reads or writes the person's own.
 */
function ownFolders(root) {
  return {
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CACHE_HOME: join(root, 'cache'),
  };
}

export async function startCodeServer({ workspace, userDataDir, extensionsDir, port, log, env, trustedOrigins = [] }) {
  if (!isHostInstalled()) throw new Error('code-server is not installed: run `node scripts/installHost.mjs`');
  mkdirSync(userDataDir, { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'code-server.yaml'), 'auth: none\ncert: false\n');
  const chosen = port || (await freePort());
  const args = [
    codeServerEntry(),
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${chosen}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--extensions-dir',
    extensionsDir,
    '--user-data-dir',
    userDataDir,
    // Its own config file, so nothing is written to ~/.config/code-server.
    '--config',
    join(userDataDir, 'code-server.yaml'),
    // Hosts (host:port) whose pages may open sockets here besides the workbench's own.
    ...trustedOrigins.flatMap((origin) => ['--trusted-origins', origin]),
    workspace,
  ];
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // No extension gallery: these machines are offline and the workbench would keep asking for it.
    env: {
      EXTENSIONS_GALLERY: '{}',
      ...process.env,
      ...ownFolders(resolve(userDataDir, '..', 'code-server-home')),
      ...env,
    },
  });
  const write = log ?? (() => {});
  prefixLines(child.stdout, '', (line) => write(line.trimEnd()));
  prefixLines(child.stderr, '', (line) => write(line.trimEnd()));
  const url = `http://127.0.0.1:${chosen}`;
  try {
    await waitForHttp(`${url}/healthz`, { timeoutMs: 60_000, isAlive: () => child.exitCode === null });
  } catch (err) {
    await stopProcessGroup(child);
    throw err;
  }
  return {
    url,
    port: chosen,
    pid: child.pid,
    child,
    stop: () => stopProcessGroup(child),
  };
}

/** code-server's config file for CLI calls (written on demand): never the one in ~/.config. */
function cliConfigArgs() {
  const file = hostConfigFile();
  if (!existsSync(file)) writeFileSync(file, 'auth: none\ncert: false\n');
  return ['--config', file];
}

/** Runs the code-server CLI (e.g. --install-extension) and resolves with its output. */
export function codeServerCli(args, { timeoutMs = 120_000 } = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [codeServerEntry(), ...cliConfigArgs(), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...ownFolders(join(codeServerDir(), 'home')) },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolveRun(out);
      else reject(new Error(`code-server ${args.join(' ')} exited with ${code}:\n${out}`));
    });
  });
}
