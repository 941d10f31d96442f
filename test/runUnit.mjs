// Runs the unit suites with node's test runner (TypeScript through tsx).
// Usage: node test/runUnit.mjs [substring...]   only files whose path contains one of the substrings
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? find(p) : p.endsWith('.test.ts') ? [p] : [];
  });
}

const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = find('test/unit')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error(`No unit test files match ${filters.join(', ')}`);
  process.exit(1);
}
const reporter = process.env.UNIT_REPORTER ?? 'spec';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-reporter=${reporter}`, '--test-concurrency=2', ...files],
  { stdio: 'inherit' },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
