/**
 * The two file operations cassettes and labels need, so the editor (workspace.fs) and the command line (node:fs)
 * can each give their own, and tests can give a folder of their own. Writes are atomic: a crash leaves the old
 * text or the new one, never half of each, since a cassette or labels file is reviewed in git.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

export interface TextFiles {
  /** The file's text, or undefined when there is no such file. */
  read(file: string): Promise<string | undefined>;
  /** Writes atomically, making folders as needed. */
  write(file: string, text: string): Promise<void>;
}

/** The real file system; paths as given (absolute, or relative to the working folder). */
export const nodeTextFiles: TextFiles = {
  async read(file) {
    try {
      return await fsp.readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  },
  async write(file, text) {
    // The temporary file sits in the same folder, so the rename never crosses file systems.
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await fsp.writeFile(temp, text, 'utf8');
      await fsp.rename(temp, file);
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  },
};

/** The real file system, with relative paths read in `root` (a command serving another folder than its own). */
export function nodeTextFilesIn(root: string): TextFiles {
  const at = (file: string) => path.resolve(root, file);
  return { read: (file) => nodeTextFiles.read(at(file)), write: (file, text) => nodeTextFiles.write(at(file), text) };
}

/** The file beside a test file with another ending: `tests/returns.yaml` -> `tests/returns.cassette.json`. */
export function besideTestFile(testFile: string, ending: string): string {
  return `${testFile.replace(/\.ya?ml$/i, '')}${ending}`;
}
