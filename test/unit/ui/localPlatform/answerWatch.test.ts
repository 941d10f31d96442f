import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnswerWatch } from '../../../../src/ui/localPlatform/answerWatch';

const HOUR = 3_600_000;

/** A platform that answers while `up` is true, with what happened to the watch. */
function watched(everyMs = HOUR) {
  const state = { up: true, asks: 0, lost: 0, back: 0 };
  let settle: (() => void) | undefined;
  const watch = new AnswerWatch(
    async () => {
      state.asks++;
      queueMicrotask(() => settle?.());
      if (!state.up) throw new Error('ECONNREFUSED');
      return 'info';
    },
    { lost: () => state.lost++, back: () => state.back++ },
    everyMs,
    everyMs,
  );
  const asked = () => new Promise<void>((resolve) => (settle = resolve));
  return { state, watch, asked };
}

describe('the local platform answer watch', () => {
  it('a refused request has the platform asked at once: gone after one more failed ask, not at the next turn', async () => {
    const { state, watch, asked } = watched();
    try {
      state.up = false;
      const done = asked();
      watch.askNow();
      await done;
      await new Promise((r) => setImmediate(r));
      assert.equal(state.asks, 1, 'one ask, without waiting for the hour-long turn');
      assert.equal(state.lost, 1, 'the refused request and the failed ask make two failures: said gone');
      watch.askNow();
      await new Promise((r) => setImmediate(r));
      assert.equal(state.asks, 1, 'once gone, a refused request does not ask again: the slower turn does');
    } finally {
      watch.dispose();
    }
  });

  it('a request refused by a busy moment is not enough: a platform that answers the ask stays in use', async () => {
    const { state, watch, asked } = watched();
    try {
      const done = asked();
      watch.askNow();
      await done;
      await new Promise((r) => setImmediate(r));
      assert.deepEqual([state.asks, state.lost, state.back], [1, 0, 0]);
    } finally {
      watch.dispose();
    }
  });

  it('without requests, two failed turns in a row say it is gone, and an answer after says it is back', async () => {
    const { state, watch } = watched(5);
    try {
      state.up = false;
      const deadline = Date.now() + 5_000;
      while (state.lost === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      assert.equal(state.lost, 1);
      assert.ok(state.asks >= 2, 'two asks failed before it was said gone');
      state.up = true;
      while (state.back === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      assert.equal(state.back, 1);
    } finally {
      watch.dispose();
    }
  });
});
