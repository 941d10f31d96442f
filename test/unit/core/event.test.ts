import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter, Event } from '../../../src/core/event';

describe('Emitter', () => {
  it('delivers to every listener until it unsubscribes', () => {
    const e = new Emitter<number>();
    const seen: number[] = [];
    const sub = e.event((n) => seen.push(n));
    e.fire(1);
    sub.dispose();
    e.fire(2);
    assert.deepEqual(seen, [1]);
    assert.equal(e.hasListeners, false);
  });

  it('a throwing listener does not stop the others', () => {
    const errors: unknown[] = [];
    const e = new Emitter<string>((err) => errors.push(err));
    const seen: string[] = [];
    e.event(() => {
      throw new Error('boom');
    });
    e.event((s) => seen.push(s));
    e.fire('x');
    assert.deepEqual(seen, ['x']);
    assert.equal(errors.length, 1);
  });

  it('fires nothing after dispose', () => {
    const e = new Emitter<number>();
    const seen: number[] = [];
    e.event((n) => seen.push(n));
    e.dispose();
    e.fire(1);
    e.event((n) => seen.push(n));
    e.fire(2);
    assert.deepEqual(seen, []);
  });

  it('collects subscriptions into a disposables array', () => {
    const e = new Emitter<number>();
    const bag: Array<{ dispose(): void }> = [];
    const seen: number[] = [];
    e.event((n) => seen.push(n), undefined, bag);
    bag.forEach((d) => d.dispose());
    e.fire(1);
    assert.deepEqual(seen, []);
  });
});

describe('Event helpers', () => {
  it('once fires a single time', () => {
    const e = new Emitter<number>();
    const seen: number[] = [];
    Event.once(e.event)((n) => seen.push(n));
    e.fire(1);
    e.fire(2);
    assert.deepEqual(seen, [1]);
    assert.equal(e.hasListeners, false);
  });

  it('map and filter transform the stream', () => {
    const e = new Emitter<number>();
    const seen: string[] = [];
    Event.map(
      Event.filter(e.event, (n) => n % 2 === 0),
      (n) => `#${n}`,
    )((s) => seen.push(s));
    [1, 2, 3, 4].forEach((n) => e.fire(n));
    assert.deepEqual(seen, ['#2', '#4']);
  });

  it('debounce delivers only the last of a burst', async () => {
    const e = new Emitter<number>();
    const seen: number[] = [];
    const sub = Event.debounce(e.event, 10)((n) => seen.push(n));
    e.fire(1);
    e.fire(2);
    e.fire(3);
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(seen, [3]);
    sub.dispose();
  });

  it('toPromise resolves with the next event', async () => {
    const e = new Emitter<string>();
    const p = Event.toPromise(e.event);
    e.fire('ready');
    assert.equal(await p, 'ready');
  });
});
