/** Something that holds a resource until disposed. Structurally compatible with vscode.Disposable. */
export interface IDisposable {
  dispose(): void;
}

/**
 * Told of every disposable the project's own code creates (subscriptions, stores) and of its disposal,
 * so a test can list what was never released. None is set outside tests.
 */
export interface DisposableTracker {
  created(item: IDisposable): void;
  disposed(item: IDisposable): void;
}

let tracker: DisposableTracker | undefined;

/** Sets (or with undefined, clears) the tracker; returns the one it replaces. */
export function setDisposableTracker(next: DisposableTracker | undefined): DisposableTracker | undefined {
  const previous = tracker;
  tracker = next;
  return previous;
}

/** The disposables created while it was set and not disposed since, each with where it was created. */
export class LeakTracker implements DisposableTracker {
  private readonly live = new Map<IDisposable, string>();

  created(item: IDisposable): void {
    this.live.set(item, new Error().stack?.split('\n').slice(3, 8).join('\n') ?? '');
  }

  disposed(item: IDisposable): void {
    this.live.delete(item);
  }

  undisposed(): string[] {
    return [...this.live.values()];
  }
}

/** Releases nothing; shared, so handing it out creates nothing to track. */
export const NONE: IDisposable = Object.freeze({ dispose: () => undefined });

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  const item: IDisposable = {
    dispose() {
      if (done) return;
      done = true;
      tracker?.disposed(item);
      fn();
    },
  };
  tracker?.created(item);
  return item;
}

/** Disposes every item even when one throws; rethrows the first error afterwards. */
export function disposeAll(items: Iterable<IDisposable>): void {
  let first: unknown;
  let failed = false;
  for (const item of items) {
    try {
      item.dispose();
    } catch (err) {
      if (!failed) first = err;
      failed = true;
    }
  }
  if (failed) throw first;
}

/** A set of disposables released together. Adding to a disposed store disposes the item at once. */
export class DisposableStore implements IDisposable {
  private readonly items = new Set<IDisposable>();
  private disposed = false;

  constructor() {
    tracker?.created(this);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  get size(): number {
    return this.items.size;
  }

  add<T extends IDisposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.add(item);
    }
    return item;
  }

  /** Disposes the item and forgets it. */
  delete(item: IDisposable): void {
    if (this.items.delete(item)) item.dispose();
  }

  clear(): void {
    const items = [...this.items];
    this.items.clear();
    disposeAll(items);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    tracker?.disposed(this);
    this.clear();
  }
}

/** Base class for long-lived objects that own other disposables. */
export abstract class Disposable implements IDisposable {
  protected readonly disposables = new DisposableStore();

  protected register<T extends IDisposable>(item: T): T {
    return this.disposables.add(item);
  }

  /** True from the start of dispose(): work that finishes later (an answer, a timer) checks it before acting. */
  get isDisposed(): boolean {
    return this.disposables.isDisposed;
  }

  dispose(): void {
    this.disposables.dispose();
  }
}

/** Holds at most one disposable; setting a new one disposes the old. */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
  private current: T | undefined;
  private disposed = false;

  get value(): T | undefined {
    return this.current;
  }

  set value(next: T | undefined) {
    if (this.disposed) {
      next?.dispose();
      return;
    }
    if (next === this.current) return;
    this.current?.dispose();
    this.current = next;
  }

  dispose(): void {
    this.disposed = true;
    this.current?.dispose();
    this.current = undefined;
  }
}
