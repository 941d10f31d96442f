import { randomBytes } from 'node:crypto';
import { promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The few file operations the file mirror needs, on paths relative to one agent folder and
 * written with forward slashes (`knowledge/returns.md`). Writes are atomic: the text goes to a
 * temporary file next to the target, then a rename puts it in place, so a crash leaves either
 * the old text or the new one, never half of each.
 */
export interface MirrorFileSystem {
  /** The file's text, or undefined when there is no such file. */
  read(relPath: string): Promise<string | undefined>;
  /** Many files at once, in order (undefined for each one missing). */
  readMany(relPaths: readonly string[]): Promise<(string | undefined)[]>;
  /** Writes atomically, making folders as needed. */
  write(relPath: string, text: string): Promise<void>;
  /** Removes a file; nothing happens when it is already gone. */
  remove(relPath: string): Promise<void>;
  /** Names of the files (not folders) directly in a folder; empty when the folder does not exist. */
  list(relDir: string): Promise<string[]>;
}

/** Runs `fn` over the items, at most `limit` at a time (file writes of a large pull overlap). */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const READ_BATCH = 50;

/** The real file system, below one folder. */
export class NodeFileSystem implements MirrorFileSystem {
  constructor(readonly root: string) {}

  private abs(relPath: string): string {
    const abs = path.resolve(this.root, ...relPath.split('/'));
    if (abs !== this.root && !abs.startsWith(this.root.endsWith(path.sep) ? this.root : this.root + path.sep))
      throw new Error(`${relPath} is outside the agent folder`);
    return abs;
  }

  async read(relPath: string): Promise<string | undefined> {
    try {
      return await fsp.readFile(this.abs(relPath), 'utf8');
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /**
   * Reads synchronously in small batches, yielding between them: Node's asynchronous readFile
   * costs several thread-pool round trips per file, which made status of 1,000 files five times
   * slower, while a batch of 50 small files blocks for about a millisecond.
   */
  async readMany(relPaths: readonly string[]): Promise<(string | undefined)[]> {
    const out: (string | undefined)[] = [];
    for (let i = 0; i < relPaths.length; i++) {
      if (i > 0 && i % READ_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
      try {
        out.push(readFileSync(this.abs(relPaths[i]!), 'utf8'));
      } catch (err) {
        if (!isMissing(err)) throw err;
        out.push(undefined);
      }
    }
    return out;
  }

  async write(relPath: string, text: string): Promise<void> {
    const target = this.abs(relPath);
    // The temporary file sits in the same folder, so the rename never crosses file systems.
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      try {
        await fsp.writeFile(temp, text, 'utf8');
      } catch (err) {
        // Folders are made only when missing (one system call less per file of a large pull).
        if (!isMissing(err)) throw err;
        await fsp.mkdir(path.dirname(target), { recursive: true });
        await fsp.writeFile(temp, text, 'utf8');
      }
      await fsp.rename(temp, target);
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  }

  async remove(relPath: string): Promise<void> {
    await fsp.rm(this.abs(relPath), { force: true });
  }

  async list(relDir: string): Promise<string[]> {
    try {
      const entries = await fsp.readdir(this.abs(relDir), { withFileTypes: true });
      return entries
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort();
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Files in memory, for tests. `failAfter(n)` makes the write or remove after the next n fail
 * (as when the editor closes mid-pull), leaving everything written before it in place.
 */
export class MemoryFileSystem implements MirrorFileSystem {
  readonly files = new Map<string, string>();
  private changesLeft: number | undefined;

  constructor(initial: Record<string, string> = {}) {
    for (const [p, text] of Object.entries(initial)) this.files.set(p, text);
  }

  /** The next n changes succeed, the one after fails; undefined stops failing. */
  failAfter(n: number | undefined): void {
    this.changesLeft = n;
  }

  private change(relPath: string): void {
    if (this.changesLeft === undefined) return;
    if (this.changesLeft <= 0) {
      this.changesLeft = undefined;
      throw new Error(`Could not write ${relPath}: the disk went away`);
    }
    this.changesLeft -= 1;
  }

  async read(relPath: string): Promise<string | undefined> {
    return this.files.get(relPath);
  }

  async readMany(relPaths: readonly string[]): Promise<(string | undefined)[]> {
    return relPaths.map((p) => this.files.get(p));
  }

  async write(relPath: string, text: string): Promise<void> {
    this.change(relPath);
    this.files.set(relPath, text);
  }

  async remove(relPath: string): Promise<void> {
    if (!this.files.has(relPath)) return;
    this.change(relPath);
    this.files.delete(relPath);
  }

  async list(relDir: string): Promise<string[]> {
    const prefix = relDir === '' || relDir === '.' ? '' : `${relDir.replace(/\/$/, '')}/`;
    const names: string[] = [];
    for (const p of this.files.keys()) {
      if (p.startsWith(prefix) && !p.slice(prefix.length).includes('/')) names.push(p.slice(prefix.length));
    }
    return names.sort();
  }
}
