// Installs the test host: Debian's Chromium, the build needs of VS Code's native modules, and
// code-server (a real VS Code server + web workbench) into a cache folder outside the clone.
// Idempotent: each step is skipped when its result is already there.
//   node scripts/installHost.mjs [--force]
//   node scripts/installHost.mjs --verify   only check the installed host
// Environment: AGENT_WORKBENCH_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/agent-workbench).
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeServerCli, startCodeServer } from './lib/codeServer.mjs';
import {
  CODE_SERVER_VERSION,
  codeServerDir,
  codeServerEntry,
  installedMarker,
  isHostInstalled,
} from './lib/hostPaths.mjs';

/** Debian package → a file that shows it is installed. */
const DEBIAN_PACKAGES = [
  { name: 'chromium', probe: '/usr/bin/chromium' },
  { name: 'ripgrep', probe: '/usr/bin/rg' },
  { name: 'libkrb5-dev', probe: '/usr/bin/krb5-config' },
  { name: 'g++', probe: '/usr/bin/g++' },
  { name: 'make', probe: '/usr/bin/make' },
  { name: 'python3', probe: '/usr/bin/python3' },
];

const say = (line) => console.log(`[host] ${line}`);

/**
 * Runs a step of the install. With `logFile`, its output (hundreds of lines of native module builds, and
 * prebuilt downloads that fail before a build from source succeeds) goes to that file, and only a failed
 * step prints its last lines.
 */
function run(cmd, args, { logFile, ...options } = {}) {
  say(`$ ${cmd} ${args.join(' ')}${logFile ? `  (output in ${logFile})` : ''}`);
  const out = logFile ? openSync(logFile, 'a') : undefined;
  let r;
  try {
    r = spawnSync(cmd, args, { stdio: out === undefined ? 'inherit' : ['ignore', out, out], ...options });
  } finally {
    if (out !== undefined) closeSync(out);
  }
  if (r.status === 0) return;
  if (logFile) {
    const tail = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-40);
    console.error(tail.map((l) => `[host] | ${l}`).join('\n'));
  }
  throw new Error(
    `${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})${logFile ? `; its output is in ${logFile}` : ''}`,
  );
}

export function installDebianPackages() {
  const missing = DEBIAN_PACKAGES.filter((p) => !existsSync(p.probe)).map((p) => p.name);
  if (missing.length === 0) {
    say(`Debian packages present: ${DEBIAN_PACKAGES.map((p) => p.name).join(', ')}`);
    return;
  }
  say(`Installing Debian packages: ${missing.join(', ')}`);
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) =>
    asRoot.length ? run(asRoot[0], [...asRoot.slice(1), 'apt-get', ...args], { env }) : run('apt-get', args, { env });
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', ...missing]);
}

/** @vscode/ripgrep downloads rg from GitHub; it first looks in this cache, so give it Debian's rg. */
function seedRipgrepCache(tmp, ripgrepVersion) {
  const cache = join(tmp, `vscode-ripgrep-cache-${ripgrepVersion}`);
  const archive = join(cache, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (existsSync(archive)) return;
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(tmpdir(), 'rg-'));
  execFileSync('cp', ['/usr/bin/rg', join(staging, 'rg')]);
  execFileSync('tar', ['czf', archive, '-C', staging, 'rg']);
  rmSync(staging, { recursive: true, force: true });
  say(`Seeded ${archive} with /usr/bin/rg`);
}

/** Packages in a lock file whose install scripts build native modules; npm 11 blocks them unless listed. */
function packagesWithInstallScripts(lockFile) {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
  const names = Object.entries(lock.packages ?? {})
    .filter(([path, p]) => path.startsWith('node_modules/') && p.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  return [...new Set(names)];
}

export async function installCodeServer({ force = false } = {}) {
  const dir = codeServerDir();
  if (!force && isHostInstalled()) {
    say(`code-server ${CODE_SERVER_VERSION} already installed in ${dir}`);
    return;
  }
  const started = Date.now();
  say(`Installing code-server ${CODE_SERVER_VERSION} into ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The host is its own little project, so its install-script approvals stay out of the extension's package.json.
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'agent-workbench-test-host',
        private: true,
        description: 'code-server used by Agent Workbench tests; safe to delete, it is reinstalled on demand.',
        dependencies: { 'code-server': CODE_SERVER_VERSION },
        allowScripts: { 'code-server': true, argon2: true },
      },
      null,
      2,
    ),
  );

  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const env = {
    ...process.env,
    TMPDIR: tmp,
    npm_config_unsafe_perm: 'true', // code-server's post-install refuses to run as root without it
    npm_config_yes: 'true', // a nested `npx node-gyp` would otherwise wait for an answer
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    ...(existsSync('/usr/include/node/node.h') ? { npm_config_nodedir: '/usr' } : {}), // headers without a download
  };

  // 1. Fetch without running scripts, so the nested projects can be prepared first.
  const logFile = join(dir, 'install.log');
  rmSync(logFile, { force: true });
  run('npm', ['install', '--ignore-scripts', '--no-package-lock'], { cwd: dir, env, logFile });
  const pkgDir = join(dir, 'node_modules', 'code-server');
  const vscodeDir = join(pkgDir, 'lib', 'vscode');
  const shrinkwrap = join(vscodeDir, 'npm-shrinkwrap.json');
  const ripgrep = JSON.parse(readFileSync(shrinkwrap, 'utf8')).packages['node_modules/@vscode/ripgrep'].version;
  seedRipgrepCache(tmp, ripgrep);

  // 2. code-server's post-install runs `npm install` inside lib/vscode (and its extensions folder): separate
  //    projects, whose native modules need their install scripts approved there.
  for (const project of [vscodeDir, join(vscodeDir, 'extensions')]) {
    const lock = join(project, 'npm-shrinkwrap.json');
    const allowed = existsSync(lock) ? packagesWithInstallScripts(lock) : [];
    if (allowed.length) {
      writeFileSync(join(project, '.npmrc'), `allow-scripts=${allowed.join(',')}\n`);
      say(`Approved install scripts in ${project.slice(dir.length + 1)}: ${allowed.join(', ')}`);
    }
  }

  // 3. Run the approved install scripts (argon2 and code-server's post-install, which builds VS Code's modules).
  run('npm', ['rebuild', '--ignore-scripts=false', '--foreground-scripts'], { cwd: dir, env, logFile });

  writeFileSync(installedMarker(), `${new Date().toISOString()}\n`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    await verifyHost();
  } catch (err) {
    rmSync(installedMarker(), { force: true });
    throw err;
  }
  say(`code-server ${CODE_SERVER_VERSION} installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** VS Code's native modules must load in this Node, and code-server must report its version and serve the workbench. */
export async function verifyHost() {
  const vscodeDir = join(dirname(codeServerEntry()), '..', '..', 'lib', 'vscode');
  const probe = `
    const { createRequire } = require('node:module');
    const req = createRequire(${JSON.stringify(join(vscodeDir, 'package.json'))});
    for (const m of ['@vscode/spdlog', 'node-pty', 'kerberos', 'native-watchdog', '@parcel/watcher']) req(m);
    require('node:fs').accessSync(req('@vscode/ripgrep').rgPath, require('node:fs').constants.X_OK);
    createRequire(${JSON.stringify(codeServerEntry())})('argon2');`;
  execFileSync(process.execPath, ['-e', probe], { stdio: 'inherit' });
  say('Native modules load: @vscode/spdlog, node-pty, kerberos, native-watchdog, @parcel/watcher, ripgrep, argon2');
  const output = await codeServerCli(['--version']);
  // The version line is "4.100.3 <commit> with Code 1.100.3"; anything else code-server prints is not read.
  const versionLine = output.split('\n').find((line) => /^\d+\.\d+\.\d+ [0-9a-f]+ with Code /.test(line.trim()));
  say(`code-server --version: ${versionLine?.trim() ?? '(no version line)'}`);
  if (versionLine?.trim().split(' ')[0] !== CODE_SERVER_VERSION) {
    throw new Error(`expected code-server ${CODE_SERVER_VERSION}, got: ${versionLine?.trim() ?? output.trim()}`);
  }

  const scratch = mkdtempSync(join(tmpdir(), 'aw-verify-'));
  const server = await startCodeServer({
    workspace: scratch,
    userDataDir: join(scratch, 'data'),
    extensionsDir: join(scratch, 'ext'),
  });
  try {
    const html = await (await fetch(`${server.url}/`)).text();
    if (!html.includes('workbench'))
      throw new Error(`code-server answered on ${server.url} but not with the workbench page`);
    say(`code-server serves the workbench on ${server.url}`);
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function installHost(options = {}) {
  installDebianPackages();
  await installCodeServer(options);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv.includes('--verify')) await verifyHost();
    else await installHost({ force: process.argv.includes('--force') });
  } catch (err) {
    console.error(`[host] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
