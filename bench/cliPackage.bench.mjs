// The agent-workbench package as a team installs it (`npm pack` of dist/cli-package/, installed offline from the
// tarball into an empty folder): its unpacked size as npm reports it, and how long `agent-workbench --version`
// takes through the installed bin, beside a bare `node -e 0` on the same machine (the floor any Node command
// line stands on). bench/run.mjs builds the production bundles first, which build the package folder too.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = 21;
const round = (n) => Math.round(n * 10) / 10;
const bench = (name, value, unit, target) =>
  console.log(`BENCH ${JSON.stringify({ name, value, unit, ...(target ? { target } : {}) })}`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!existsSync('dist/cli-package/package.json'))
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: ['ignore', 'ignore', 'inherit'] });
const sandbox = mkdtempSync(join(tmpdir(), 'aw-bench-cli-'));
try {
  const env = { ...process.env, HOME: join(sandbox, 'home'), npm_config_cache: join(sandbox, 'npm-cache') };
  mkdirSync(env.HOME);
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', sandbox], {
      cwd: 'dist/cli-package',
      env,
      encoding: 'utf8',
    }),
  );
  const app = join(sandbox, 'app');
  mkdirSync(app);
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(sandbox, packed.filename)], {
    cwd: app,
    env,
    stdio: 'ignore',
  });
  const bin = join(app, 'node_modules', '.bin', 'agent-workbench');

  /** Wall time of one run of a command, in ms, from spawn to exit. */
  const time = (command, args) => {
    const started = process.hrtime.bigint();
    const run = spawnSync(command, args, { cwd: app, env, stdio: 'ignore' });
    if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  // Taken in turns, so a busy moment of the machine falls on both alike; the first of each warms the disk cache.
  const version = [];
  const bare = [];
  time(bin, ['--version']);
  time(process.execPath, ['-e', '0']);
  for (let i = 0; i < RUNS; i++) {
    version.push(time(bin, ['--version']));
    bare.push(time(process.execPath, ['-e', '0']));
  }
  bench(
    'agent-workbench package, unpacked (npm pack)',
    round((packed.unpackedSize / 1024 / 1024) * 100) / 100,
    'MB',
    '< 2',
  );
  bench('agent-workbench package, tarball', round(packed.size / 1024), 'KB');
  bench('agent-workbench --version (installed bin, median of 21)', round(median(version)), 'ms', '< 150');
  bench('node -e 0 beside it (median of 21)', round(median(bare)), 'ms');
} finally {
  rmSync(sandbox, { recursive: true, force: true });
}
