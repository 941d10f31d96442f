import { type IDisposable, NONE, toDisposable } from './disposable';

/** A subscription function, structurally compatible with vscode.Event. */
export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: IDisposable[]) => IDisposable;

/** Fires events to listeners; a throwing listener does not stop the others. */
export class Emitter<T> implements IDisposable {
  private listeners: Array<(e: T) => unknown> = [];
  private readonly subscriptions = new Set<IDisposable>();
  private disposed = false;
  private eventFn: Event<T> | undefined;

  constructor(
    private readonly onListenerError: (err: unknown) => void = (err) =>
      queueMicrotask(() => {
        throw err;
      }),
  ) {}

  get event(): Event<T> {
    this.eventFn ??= (listener, thisArgs, disposables) => {
      if (this.disposed) return NONE;
      const bound = thisArgs ? listener.bind(thisArgs) : listener;
      this.listeners.push(bound);
      const sub = toDisposable(() => {
        this.listeners = this.listeners.filter((l) => l !== bound);
        this.subscriptions.delete(sub);
      });
      this.subscriptions.add(sub);
      disposables?.push(sub);
      return sub;
    };
    return this.eventFn;
  }

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  /** Ends every subscription, so none outlives the emitter. */
  dispose(): void {
    this.disposed = true;
    for (const sub of [...this.subscriptions]) sub.dispose();
    this.listeners = [];
  }
}

export const Event = {
  None: (() => NONE) as Event<never>,

  /** Fires once, then unsubscribes. */
  once<T>(event: Event<T>): Event<T> {
    return (listener, thisArgs, disposables) => {
      let fired = false;
      const sub = event(
        (e) => {
          if (fired) return;
          fired = true;
          sub.dispose();
          listener.call(thisArgs, e);
        },
        undefined,
        disposables,
      );
      if (fired) sub.dispose();
      return sub;
    };
  },

  map<I, O>(event: Event<I>, fn: (i: I) => O): Event<O> {
    return (listener, thisArgs, disposables) => event((i) => listener.call(thisArgs, fn(i)), undefined, disposables);
  },

  filter<T>(event: Event<T>, predicate: (e: T) => boolean): Event<T> {
    return (listener, thisArgs, disposables) =>
      event(
        (e) => {
          if (predicate(e)) listener.call(thisArgs, e);
        },
        undefined,
        disposables,
      );
  },

  /** Fires the last value once no event has come for `delayMs`. */
  debounce<T>(event: Event<T>, delayMs: number): Event<T> {
    return (listener, thisArgs, disposables) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const sub = event((e) => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          timer = undefined;
          listener.call(thisArgs, e);
        }, delayMs);
      });
      const whole = toDisposable(() => {
        if (timer) clearTimeout(timer);
        sub.dispose();
      });
      disposables?.push(whole);
      return whole;
    };
  },

  /** Resolves with the next event. */
  toPromise<T>(event: Event<T>): Promise<T> {
    return new Promise((resolve) => {
      Event.once(event)(resolve);
    });
  },
};
