import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { Loadable } from '../../../../src/ui/model/loadable';

/** A load the test finishes by hand, in any order. */
function loads<T>(): {
  load: () => Promise<T>;
  started: number;
  finish(i: number, v: T): void;
  fail(i: number, e: Error): void;
} {
  const pending: Array<{ resolve: (v: T) => void; reject: (e: Error) => void }> = [];
  const self = {
    started: 0,
    load: () =>
      new Promise<T>((resolve, reject) => {
        self.started++;
        pending.push({ resolve, reject });
      }),
    finish: (i: number, v: T) => pending[i]!.resolve(v),
    fail: (i: number, e: Error) => pending[i]!.reject(e),
  };
  return self;
}

test('loads once for every reader, and keeps the value until invalidated', async () => {
  const l = loads<string>();
  const item = new Loadable(l.load);
  const a = item.get();
  const b = item.get();
  l.finish(0, 'one');
  assert.deepEqual(await Promise.all([a, b]), ['one', 'one']);
  assert.equal(await item.get(), 'one');
  assert.equal(l.started, 1);
  assert.equal(item.peek(), 'one');
});

test('a load overtaken by an invalidation keeps nothing, and its readers get the newer value', async () => {
  const l = loads<string>();
  const item = new Loadable(l.load);
  const early = item.get();
  item.invalidate();
  const late = item.get();
  l.finish(1, 'new');
  l.finish(0, 'old');
  assert.equal(await late, 'new');
  assert.equal(await early, 'new', 'the older reader is answered with what is true now');
  assert.equal(item.peek(), 'new');
});

test('a failed load is not kept: the next read tries again', async () => {
  const l = loads<string>();
  const item = new Loadable(l.load);
  const first = item.get();
  l.fail(0, new Error('502'));
  await assert.rejects(first, /502/);
  const second = item.get();
  l.finish(1, 'ok');
  assert.equal(await second, 'ok');
});

test('invalidate and set tell the readers', () => {
  const item = new Loadable(() => Promise.resolve(1));
  let told = 0;
  item.onDidChange(() => told++);
  item.set(2);
  item.invalidate();
  assert.equal(told, 2);
  assert.equal(item.peek(), undefined);
});

test('a failure marked as kept is not asked again through invalidations until its time is up, or on refresh', async () => {
  let now = 0;
  let loads = 0;
  const missing = new Error('no such endpoint');
  const l = new Loadable(
    () => {
      loads++;
      return Promise.reject(missing);
    },
    { failure: (err) => err === missing, keepMs: 1000, now: () => now },
  );
  await assert.rejects(l.get(), missing);
  l.invalidate();
  await assert.rejects(l.get(), missing);
  assert.equal(loads, 1, 'kept through an invalidation');
  now = 1000;
  await assert.rejects(l.get(), missing);
  assert.equal(loads, 2, 'asked again once its time is up');
  await assert.rejects(l.refresh(), missing);
  assert.equal(loads, 3, 'a refresh asks at once');
});
