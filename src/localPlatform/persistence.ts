import {
  closeSync,
  fsync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IDisposable } from '../core/disposable';
import { applyChanges, type Change, ChangeTracker } from './persist/changes';
import type { Platform } from './platform';
import type { PlatformState } from './state';

const SNAPSHOT = 'state.json';
const journalFile = (generation: number): string => `journal-${generation}.log`;
/** Reserved ids per prefix: a crash skips at most this many, and never hands one out twice. */
const ID_BLOCK = 64;

interface Snapshot extends PlatformState {
  clockOffsetMs?: number;
  journalGeneration?: number;
}

/** One line of the journal: changes with the clock offset at the time, or an id reservation. */
interface JournalLine {
  t?: number;
  o?: Change[];
  r?: Record<string, number>;
}

export interface PersistenceOptions {
  /** How often the journal is synced to the disk, ms. */
  syncMs: number;
  /** The journal is folded into a new snapshot once it is this many bytes. */
  compactBytes: number;
}

/**
 * Keeps the platform's state in `--data-dir`: a snapshot (`state.json`) and an append-only journal
 * of the changes since. Each change is written to the journal (handed to the operating system)
 * before the answer that acknowledges it leaves, so a crash of the process loses nothing it
 * acknowledged; the journal is synced to the disk on a timer and at shutdown. On start the journal
 * is replayed onto the snapshot and both are folded into a new snapshot.
 */
export class Persistence implements IDisposable {
  private readonly tracker = new ChangeTracker();
  private readonly subs: IDisposable[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private fd: number | undefined;
  private generation = 0;
  private journalBytes = 0;
  private unsynced = false;
  private torn = false;
  private deferred = false;
  private needsSnapshot = false;
  private reserved: Record<string, number> = {};
  private failure: Error | undefined;
  private readonly options: PersistenceOptions;

  constructor(
    private readonly dir: string,
    private readonly platform: Platform,
    options: Partial<PersistenceOptions> = {},
  ) {
    this.options = { syncMs: 1000, compactBytes: 16 * 1024 * 1024, ...options };
  }

  /** Loads the snapshot and replays the journal; false when nothing was saved yet. */
  async load(): Promise<boolean> {
    const snapshot = await readOptional(join(this.dir, SNAPSHOT));
    if (snapshot === undefined) return false;
    const state = JSON.parse(snapshot) as Snapshot;
    if (state.version !== 1) throw new Error(`Unsupported state version in ${join(this.dir, SNAPSHOT)}`);
    let clockOffset = state.clockOffsetMs ?? 0;
    this.generation = state.journalGeneration ?? 0;
    delete state.clockOffsetMs;
    delete state.journalGeneration;
    const journal = (await readOptional(join(this.dir, journalFile(this.generation)))) ?? '';
    const reserved: Record<string, number> = {};
    for (const text of journal.split('\n')) {
      const line = parseLine(text);
      // A line cut short (a crash or a full disk in the middle of a write) was never acknowledged.
      if (!line) continue;
      if (line.o) applyChanges(state, line.o);
      if (typeof line.t === 'number') clockOffset = line.t;
      for (const [prefix, n] of Object.entries(line.r ?? {})) reserved[prefix] = Math.max(reserved[prefix] ?? 0, n);
    }
    // Ids handed out before a crash may be in answers that were never saved: start past them.
    for (const [prefix, n] of Object.entries(reserved))
      state.counters[prefix] = Math.max(state.counters[prefix] ?? 0, n);
    if (clockOffset) this.platform.clock.advance(clockOffset - this.platform.clock.offset);
    this.platform.replaceState(state);
    return true;
  }

  /** Writes a fresh snapshot and starts following changes. */
  start(): void {
    this.snapshot();
    this.subs.push(
      this.platform.onDidMutate(() => this.commit()),
      this.platform.onDidChangeConversation((c) => {
        this.tracker.announce(c);
        this.defer();
      }),
      this.platform.onDidReset(() => (this.needsSnapshot = true)),
      this.platform.onWillIssueId(({ prefix, n }) => this.reserve(prefix, n)),
    );
    this.timer = setInterval(() => this.tick(), this.options.syncMs);
    this.timer.unref();
  }

  /**
   * Writes what changed since the last save to the journal, now. A failure is kept and reported
   * by {@link check} until a later attempt succeeds.
   */
  commit(): void {
    this.deferred = false;
    try {
      if (this.needsSnapshot) {
        this.snapshot();
        return;
      }
      const found = this.tracker.changes(this.platform.state);
      if (!found) {
        this.snapshot();
        return;
      }
      if (found.changes.length > 0) {
        this.append(`{"t":${this.platform.clock.offset},"o":[${found.changes.join(',')}]}\n`);
      }
      found.saved();
      this.failure = undefined;
    } catch (err) {
      this.failure = err instanceof Error ? err : new Error(String(err));
    }
  }

  /** Retries a failed save; the reason when it still fails, for the family's 5xx answer. */
  check(): string | undefined {
    if (this.failure) this.commit();
    return this.failure
      ? `The local platform could not save its state in ${this.dir}: ${this.failure.message}`
      : undefined;
  }

  /** Saves everything and syncs it to the disk (at shutdown). */
  async flush(): Promise<void> {
    this.commit();
    this.snapshot();
    if (this.failure) throw this.failure;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.subs.length = 0;
    if (this.timer) clearInterval(this.timer);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Changes announced outside a request (timers, conversations) are saved once the current work is done. */
  private defer(): void {
    if (this.deferred) return;
    this.deferred = true;
    setImmediate(() => {
      if (this.deferred) this.commit();
    });
  }

  private reserve(prefix: string, n: number): void {
    if (n <= (this.reserved[prefix] ?? 0)) return;
    const upTo = n + ID_BLOCK - 1;
    // Written before the id is used; if it cannot be, the id is still unique within this run.
    try {
      this.append(`{"r":${JSON.stringify({ [prefix]: upTo })}}\n`);
      this.reserved[prefix] = upTo;
    } catch (err) {
      this.failure = err instanceof Error ? err : new Error(String(err));
    }
  }

  private append(text: string): void {
    if (this.fd === undefined) this.fd = openSync(join(this.dir, journalFile(this.generation)), 'a');
    // After a write that failed part way, a new line starts, so the cut one stands alone and is skipped.
    const buf = Buffer.from(this.torn ? `\n${text}` : text, 'utf8');
    this.torn = true;
    try {
      for (let done = 0; done < buf.length;) done += writeSync(this.fd, buf, done);
    } catch (err) {
      // Opened again on the next attempt, in case the file itself was the trouble.
      closeSync(this.fd);
      this.fd = undefined;
      throw err;
    }
    this.torn = false;
    this.journalBytes += buf.length;
    this.unsynced = true;
  }

  private tick(): void {
    if (this.deferred || this.failure) this.commit();
    if (this.journalBytes >= this.options.compactBytes) {
      this.safely(() => this.snapshot());
    } else if (this.unsynced && this.fd !== undefined) {
      this.unsynced = false;
      fsync(this.fd, () => undefined);
    }
  }

  private safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.failure = err instanceof Error ? err : new Error(String(err));
    }
  }

  /** Folds everything into a new snapshot with a new, empty journal, and drops the old journals. */
  private snapshot(): void {
    mkdirSync(this.dir, { recursive: true });
    const state = this.platform.state;
    const next = this.generation + 1;
    const text = JSON.stringify({ ...state, clockOffsetMs: this.platform.clock.offset, journalGeneration: next });
    const tmp = join(this.dir, `${SNAPSHOT}.${process.pid}.tmp`);
    writeFileSync(tmp, text, 'utf8');
    const fd = openSync(tmp, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, join(this.dir, SNAPSHOT));
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.generation = next;
    this.journalBytes = 0;
    this.unsynced = false;
    // The snapshot holds the counters; the next id of each prefix is reserved again.
    this.reserved = {};
    this.needsSnapshot = false;
    this.failure = undefined;
    this.tracker.rebase(state);
    for (const name of readdirSync(this.dir)) {
      if (/^journal-\d+\.log$/.test(name) && name !== journalFile(next)) unlinkSync(join(this.dir, name));
    }
  }
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function parseLine(text: string): JournalLine | undefined {
  if (text === '') return undefined;
  try {
    const line = JSON.parse(text) as unknown;
    return typeof line === 'object' && line !== null ? (line as JournalLine) : undefined;
  } catch {
    return undefined;
  }
}
