import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { type TestFile, withAgent } from '../agentTests/format';
import { parseTestFile } from '../agentTests/parse';
import { folderAgentOf } from '../workspace/testFolderAgent';

const TEST_FILE = /\.ya?ml$/;

/**
 * The test files of the paths given: a file as it is, a folder searched for `tests/*.yaml` (an agent folder's
 * tests) at any depth, skipping node_modules and hidden folders. Sorted, so runs and reports keep one order.
 */
export function findTestFiles(paths: readonly string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (TEST_FILE.test(entry.name) && basename(dir) === 'tests') found.add(p);
    }
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new Error(`No such file or folder: ${p}`);
    if (statSync(p).isDirectory()) walk(p);
    else found.add(p);
  }
  return [...found].sort();
}

/** Reads a test file; a case naming no agent reaches the agent of its folder. */
export function readTestFile(path: string, cwd: string): TestFile {
  return withAgent(parseTestFile(relative(cwd, path) || path, readFileSync(path, 'utf8')), folderAgentOf(path));
}
