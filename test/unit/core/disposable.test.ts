import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  Disposable,
  DisposableStore,
  LeakTracker,
  MutableDisposable,
  setDisposableTracker,
  toDisposable,
} from '../../../src/core/disposable';
import { Emitter } from '../../../src/core/event';
import { ObservableDisposable } from '../../../src/core/observableDisposable';

describe('DisposableStore', () => {
  it('disposes everything it holds, once', () => {
    const store = new DisposableStore();
    let a = 0;
    let b = 0;
    store.add(toDisposable(() => a++));
    store.add(toDisposable(() => b++));
    store.dispose();
    store.dispose();
    assert.equal(a, 1);
    assert.equal(b, 1);
    assert.equal(store.isDisposed, true);
  });

  it('disposes at once what is added after it was disposed', () => {
    const store = new DisposableStore();
    store.dispose();
    let n = 0;
    store.add(toDisposable(() => n++));
    assert.equal(n, 1);
    assert.equal(store.size, 0);
  });

  it('keeps disposing when one item throws, then rethrows the first error', () => {
    const store = new DisposableStore();
    let after = 0;
    store.add(
      toDisposable(() => {
        throw new Error('first');
      }),
    );
    store.add(
      toDisposable(() => {
        throw new Error('second');
      }),
    );
    store.add(toDisposable(() => after++));
    assert.throws(() => store.dispose(), /first/);
    assert.equal(after, 1);
  });

  it('delete disposes one item and forgets it', () => {
    const store = new DisposableStore();
    let n = 0;
    const d = store.add(toDisposable(() => n++));
    store.delete(d);
    store.dispose();
    assert.equal(n, 1);
  });
});

describe('MutableDisposable', () => {
  it('disposes the old value when replaced and the current one when disposed', () => {
    const m = new MutableDisposable();
    const log: string[] = [];
    m.value = toDisposable(() => log.push('a'));
    m.value = toDisposable(() => log.push('b'));
    assert.deepEqual(log, ['a']);
    m.dispose();
    assert.deepEqual(log, ['a', 'b']);
    m.value = toDisposable(() => log.push('c'));
    assert.deepEqual(log, ['a', 'b', 'c']);
    assert.equal(m.value, undefined);
  });
});

describe('LeakTracker', () => {
  it('lists what was created while tracking and not disposed, and nothing once it is', () => {
    const leaks = new LeakTracker();
    const previous = setDisposableTracker(leaks);
    try {
      class Owner extends Disposable {
        readonly changed = this.register(new Emitter<void>());
      }
      const longLived = new Emitter<number>();
      const owner = new Owner();
      const sub = longLived.event(() => undefined);
      assert.equal(leaks.undisposed().length, 2, "the owner's store and the subscription");
      owner.dispose();
      assert.equal(leaks.undisposed().length, 1, 'the subscription to an emitter that outlives its subscriber');
      sub.dispose();
      assert.deepEqual(leaks.undisposed(), []);
    } finally {
      setDisposableTracker(previous);
    }
  });

  it('counts the subscriptions of a disposed emitter as released', () => {
    const leaks = new LeakTracker();
    const previous = setDisposableTracker(leaks);
    try {
      const emitter = new Emitter<void>();
      let calls = 0;
      emitter.event(() => calls++);
      emitter.dispose();
      emitter.fire();
      assert.equal(calls, 0);
      assert.deepEqual(leaks.undisposed(), []);
      assert.equal(
        emitter.event(() => calls++),
        emitter.event(() => calls++),
        'a disposed emitter hands out one shared no-op',
      );
    } finally {
      setDisposableTracker(previous);
    }
  });
});

describe('ObservableDisposable', () => {
  it('tells once, after what it owns is released, and is disposed for anyone who asks while it tells', () => {
    const log: string[] = [];
    class Panel extends ObservableDisposable {
      constructor() {
        super();
        this.register(toDisposable(() => log.push('owned released')));
      }
    }
    const panel = new Panel();
    panel.onDidDispose(() => {
      log.push(`told, disposed: ${panel.isDisposed}`);
      panel.dispose();
    });
    assert.equal(panel.isDisposed, false);
    panel.dispose();
    panel.dispose();
    assert.deepEqual(log, ['owned released', 'told, disposed: true']);
  });

  it('leaves no subscription to its own event behind', () => {
    const leaks = new LeakTracker();
    const previous = setDisposableTracker(leaks);
    try {
      class Panel extends ObservableDisposable {}
      const panel = new Panel();
      panel.onDidDispose(() => undefined);
      panel.dispose();
      assert.deepEqual(leaks.undisposed(), []);
    } finally {
      setDisposableTracker(previous);
    }
  });
});
