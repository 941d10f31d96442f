import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IDisposable } from '../core/disposable';
import type { Platform } from './platform';
import type { PlatformState } from './state';

const FILE = 'state.json';

/** Keeps the platform's state in `--data-dir`: loaded at start, written atomically after changes. */
export class Persistence implements IDisposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private sub: IDisposable | undefined;
  private dirty = false;

  constructor(private readonly dir: string, private readonly platform: Platform, private readonly debounceMs = 100) {}

  /** Loads saved state; false when there is none yet. */
  async load(): Promise<boolean> {
    let text: string;
    try {
      text = await readFile(join(this.dir, FILE), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
    const state = JSON.parse(text) as PlatformState & { clockOffsetMs?: number };
    if (state.version !== 1) throw new Error(`Unsupported state version in ${join(this.dir, FILE)}`);
    if (typeof state.clockOffsetMs === 'number') this.platform.clock.advance(state.clockOffsetMs);
    delete state.clockOffsetMs;
    this.platform.replaceState(state);
    return true;
  }

  start(): void {
    this.sub = this.platform.onDidMutate(() => this.schedule());
    this.schedule();
  }

  private schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((err: unknown) => {
        // Keep serving; the next change tries again.
        this.dirty = true;
        process.stderr.write(`The local platform could not save its state in ${this.dir}: ${err instanceof Error ? err.message : String(err)}\n`);
      });
    }, this.debounceMs);
  }

  /** Writes pending changes now. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty) return this.writing;
    this.dirty = false;
    const text = JSON.stringify({ ...this.platform.state, clockOffsetMs: this.platform.clock.offset });
    this.writing = this.writing.catch(() => undefined).then(async () => {
      await mkdir(this.dir, { recursive: true });
      const tmp = join(this.dir, `${FILE}.${process.pid}.tmp`);
      await writeFile(tmp, text, 'utf8');
      await rename(tmp, join(this.dir, FILE));
    });
    return this.writing;
  }

  dispose(): void {
    this.sub?.dispose();
    if (this.timer) clearTimeout(this.timer);
  }
}
