// Runs the unit suites with node's test runner (TypeScript through tsx).
// Usage: node test/runUnit.mjs [--isolated] [substring...]   only files whose path contains one of the substrings
// The files are grouped into a few processes, two at a time: starting a process with tsx for each of a hundred
// files cost more than the tests themselves. The suites keep no state between files (no top-level beforeEach,
// no environment or working folder changed); --isolated runs each file in a process of its own, as a check.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

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
const SHARDS = 4;
let entries = files;
if (!process.argv.includes('--isolated') && files.length > SHARDS) {
  // Longest first into the lightest group; a file's size stands for its time.
  const groups = Array.from({ length: SHARDS }, () => ({ weight: 0, files: [] }));
  const sized = files.map((f) => ({ f, size: statSync(f).size })).sort((a, b) => b.size - a.size);
  for (const { f, size } of sized) {
    const lightest = groups.reduce((min, g) => (g.weight < min.weight ? g : min));
    lightest.files.push(f);
    lightest.weight += size;
  }
  const dir = mkdtempSync(join(tmpdir(), 'aw-unit-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  entries = groups.map((g, i) => {
    const entry = join(dir, `group-${i + 1}.test.mjs`);
    const lines = g.files.sort().map((f) => `import ${JSON.stringify(pathToFileURL(resolve(f)).href)};`);
    writeFileSync(entry, `${lines.join('\n')}\n`);
    return entry;
  });
}
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-reporter=${reporter}`, '--test-concurrency=2', ...entries],
  { stdio: 'inherit' },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
