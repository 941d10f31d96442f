// A copy of this repository in a temporary folder, for the suites that build, package or start it as a person does
// (`npm run package`, `npm pack`, `npm start`): they build there, so the bundles in this folder's dist/, which the
// editor suites running at the same time load, are never rewritten or emptied under them.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { ROOT } from '../host/workbench.mjs';

/** What is made here, not kept: installed packages (linked instead), builds, test output, git's own folder. */
const LEFT_OUT = new Set(['node_modules', '.git', 'dist', 'out', '.test-output']);

/** Copies the repository (sources, manifest, media, docs, scripts) and links its installed packages. */
export function stageRepository(name) {
  const dir = mkdtempSync(join(tmpdir(), `aw-${name}-repo-`));
  cpSync(ROOT, dir, {
    recursive: true,
    filter: (source) => {
      const rel = relative(ROOT, source);
      return rel === '' || !LEFT_OUT.has(rel.split(sep)[0]);
    },
  });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
