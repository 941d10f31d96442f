// Runs the end-to-end suites (test/e2e/*.spec.mjs) with node's test runner: Chromium (playwright-core)
// drives the VS Code workbench served by code-server. Screenshots go to .test-output/e2e/; with
// --docs-images (npm run screenshots) the README's pictures in docs/images/ are refreshed too.
//   node test/host/runE2e.mjs [--no-build] [--docs-images] [substring...]
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, ensureHost, outputDir } from './workbench.mjs';

const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith('--'));
const started = Date.now();

if (!args.includes('--no-build')) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
await ensureHost();

const out = outputDir('e2e');
for (const f of readdirSync(out)) rmSync(join(out, f), { force: true, recursive: true });
const files = readdirSync(join(ROOT, 'test', 'e2e'))
  .filter((f) => f.endsWith('.spec.mjs') && (filters.length === 0 || filters.some((s) => f.includes(s))))
  .sort()
  .map((f) => join('test', 'e2e', f));
if (files.length === 0) {
  console.error(`No e2e suites match ${filters.join(', ')}`);
  process.exit(1);
}

const tap = join(out, 'results.tap');
const code = await new Promise((resolveExit) => {
  const child = spawn(
    process.execPath,
    [
      // tsx (as for the unit suites): specs import the TypeScript test support, such as the typed admin API client.
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...(args.includes('--docs-images') ? { AGENT_WORKBENCH_DOCS_IMAGES: '1' } : {}) },
    },
  );
  child.on('exit', (c, signal) => resolveExit(c ?? (signal ? 1 : 0)));
});

const summary = readFileSync(tap, 'utf8');
const count = (key) => Number(summary.match(new RegExp(`^# ${key} (\\d+)`, 'm'))?.[1] ?? 0);
const passed = count('pass');
const failed =
  count('fail') + count('cancelled') + (code !== 0 && count('fail') === 0 && count('cancelled') === 0 ? 1 : 0);
console.log(
  `\nEnd-to-end suites ran in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots and logs in ${out}`,
);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
