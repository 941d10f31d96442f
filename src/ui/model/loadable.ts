import { Disposable } from '../../core/disposable';
import { Emitter, type Event } from '../../core/event';

/**
 * One piece of what the editor knows of the platform: loaded on first use, kept until invalidated,
 * and announced when it changes. Loads that overlap are settled here once for every reader: a load
 * started before an invalidation never overwrites what came after it, and its readers get the newer
 * value. A failed load is not kept, so the next read tries again. No 'vscode' here.
 */
export class Loadable<T> extends Disposable {
  private value: { readonly v: T } | undefined;
  private pending: Promise<T> | undefined;
  /** Counts invalidations and sets, so a load can tell it was overtaken. */
  private generation = 0;
  /** A failure kept (see `missing`): when it happened, and what it was. */
  private missing: { at: number; err: unknown } | undefined;
  private readonly _onDidChange = this.register(new Emitter<void>());
  /** Fires after invalidate() and set(): readers should read again. */
  readonly onDidChange: Event<void> = this._onDidChange.event;

  /**
   * `keep` marks a failure that reading again soon would only repeat (an endpoint the platform does not have):
   * it is kept for `keepMs`, through invalidations, and read again only after that or on `refresh()`.
   */
  constructor(
    private readonly load: () => Promise<T>,
    private readonly keep?: { failure: (err: unknown) => boolean; keepMs: number; now?: () => number },
  ) {
    super();
  }

  /** The value, loading it when not known. */
  get(): Promise<T> {
    if (this.value) return Promise.resolve(this.value.v);
    const missing = this.missing;
    if (missing && this.keep && this.clock() - missing.at < this.keep.keepMs) return Promise.reject(missing.err);
    if (this.pending) return this.pending;
    const started = this.generation;
    const pending: Promise<T> = this.load().then(
      (v) => {
        if (this.generation !== started) return this.get();
        this.pending = undefined;
        this.value = { v };
        return v;
      },
      (err: unknown) => {
        if (this.generation !== started) return this.get();
        this.pending = undefined;
        if (this.keep?.failure(err)) this.missing = { at: this.clock(), err };
        throw err;
      },
    );
    this.pending = pending;
    return pending;
  }

  /** The value when known, without loading. */
  peek(): T | undefined {
    return this.value?.v;
  }

  get isLoaded(): boolean {
    return this.value !== undefined;
  }

  /** Forgets the value (the platform changed it); the next read loads again. */
  invalidate(): void {
    this.generation++;
    this.value = undefined;
    this.pending = undefined;
    this._onDidChange.fire();
  }

  /** Reads the platform again now (invalidate, then read): every reader gets the fresh value. */
  refresh(): Promise<T> {
    this.forgetFailure();
    this.invalidate();
    return this.get();
  }

  /** Forgets a kept failure, so the next read asks the platform again (a refresh the person asked for). */
  forgetFailure(): void {
    this.missing = undefined;
  }

  private clock(): number {
    return (this.keep?.now ?? Date.now)();
  }

  /** Takes a value the platform just answered with, instead of asking again. */
  set(v: T): void {
    this.generation++;
    this.missing = undefined;
    this.value = { v };
    this.pending = undefined;
    this._onDidChange.fire();
  }
}

/** Loadables by key, made on first use (the branches of each agent, the topics of each branch). */
export class LoadableMap<T> extends Disposable {
  private readonly items = new Map<string, Loadable<T>>();
  private readonly _onDidChange = this.register(new Emitter<string>());
  /** Fires with the key of the piece that changed. */
  readonly onDidChange: Event<string> = this._onDidChange.event;

  constructor(private readonly load: (key: string) => Promise<T>) {
    super();
  }

  get(key: string): Loadable<T> {
    let item = this.items.get(key);
    if (!item) {
      const made = this.register(new Loadable(() => this.load(key)));
      this.register(made.onDidChange(() => this._onDidChange.fire(key)));
      this.items.set(key, made);
      item = made;
    }
    return item;
  }

  /** Forgets one piece, or every piece. */
  invalidate(key?: string): void {
    if (key !== undefined) this.items.get(key)?.invalidate();
    else for (const item of this.items.values()) item.invalidate();
  }
}

/** What the platform lists or, where it cannot, what was kept here for it, with the failure of the list. */
export type Known<T> =
  | { readonly listed: true; readonly items: readonly T[] }
  | { readonly listed: false; readonly items: readonly T[]; readonly failure: unknown };

/**
 * "Listed and kept" as one value: the platform's list (`listed`), or where that read fails, what the editor kept
 * (the agents created or added by id, branch ids from create answers, the deployments actions returned). Follows
 * the list: when it changes (a write invalidated it) this is read again. `refresh()` reads the platform's list
 * afresh too, so every view showing either hears.
 */
export class ListedOrKept<T> extends Loadable<Known<T>> {
  constructor(
    private readonly list: Loadable<T[]>,
    kept: () => Promise<readonly T[]> | readonly T[],
  ) {
    super(async () => {
      try {
        return { listed: true, items: await list.get() };
      } catch (failure) {
        return { listed: false, items: await kept(), failure };
      }
    });
    this.register(list.onDidChange(() => this.invalidate()));
  }

  override refresh(): Promise<Known<T>> {
    // Invalidating the list invalidates this too.
    this.list.forgetFailure();
    this.list.invalidate();
    return this.get();
  }
}
