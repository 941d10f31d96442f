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

/** What a run that found no test file says: where it looked and what it looked for. */
export function noTestFiles(searched: readonly string[], cwd: string, passWithNoTests: boolean): string {
  const places = searched
    .map((p) => {
      const near = relative(cwd, p);
      return near === '' ? `the current folder, ${p}` : near.startsWith('..') ? p : near;
    })
    .join(', ');
  return `No test files found: looked for tests/*.yaml and tests/*.yml at any depth below ${places} (hidden folders and node_modules skipped).${passWithNoTests ? '' : ' Give the folders or files to run, or --pass-with-no-tests to pass anyway.'}\n`;
}
