import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Delivery, DeliveryLedger } from '../../../src/client/messagingLedger';

/** A ledger whose open connection is `current`, and what it told. */
function ledger(): { l: DeliveryLedger; told: Delivery[]; current: { c: object } } {
  const current = { c: {} };
  const l = new DeliveryLedger((c) => c === current.c, { echoWaitMs: 1_000_000, answerWaitMs: 1_000_000 });
  const told: Delivery[] = [];
  l.onChange((d) => told.push(d));
  return { l, told, current };
}
const written = (x: ReturnType<typeof ledger>, text: string): Delivery => {
  const d = x.l.add(text);
  x.l.written(d.id, x.current.c);
  return d;
};

describe('client: the ledger of messages sent in a messaging session', () => {
  it('without an echo, each answer confirms the oldest message written before it, in order', () => {
    const x = ledger();
    const a = written(x, 'a');
    const b = written(x, 'b');
    x.l.answered();
    assert.equal(x.l.get(a.id), undefined, 'a is settled');
    assert.equal(x.told.filter((d) => d.id === a.id).at(-1)?.confirmedBy, 'answer');
    assert.equal(x.l.get(b.id)?.state, 'written');
    x.l.answered();
    assert.equal(x.told.filter((d) => d.id === b.id).at(-1)?.state, 'delivered');
    x.l.answered();
    x.l.dispose();
  });

  it('once the platform has echoed, only echoes confirm: an answer to one message does not confirm the next', () => {
    const x = ledger();
    const a = written(x, 'a');
    x.l.echoed('a', 'e1');
    const b = written(x, 'b');
    x.l.answered();
    assert.equal(x.l.get(b.id)?.state, 'written');
    assert.deepEqual(
      x.told.filter((d) => d.id === a.id).map((d) => [d.state, d.echoId]),
      [
        ['queued', undefined],
        ['written', undefined],
        ['delivered', 'e1'],
      ],
    );
    x.l.dispose();
  });

  it('after a reconnect, a message written on the lost connection is unconfirmed without an echo known, and queued again with one', () => {
    const x = ledger();
    const a = written(x, 'a');
    x.current.c = {};
    assert.deepEqual(x.l.lost(), [], 'nothing to write again');
    assert.equal(x.l.get(a.id)?.state, 'unconfirmed');
    assert.equal(x.l.get(a.id)?.doubt, 'reconnected');

    const y = ledger();
    written(y, 'echoed');
    y.l.echoed('echoed', 'e1');
    const b = written(y, 'b');
    y.current.c = {};
    const again = y.l.lost();
    assert.deepEqual(
      again.map((d) => [d.id, d.state, d.rewrites]),
      [[b.id, 'queued', 1]],
    );
    x.l.dispose();
    y.l.dispose();
  });

  it("without an echo, an answer after a newer message is that one's, not an older one's in doubt; with none newer waiting, a late answer still confirms the one in doubt", () => {
    const x = ledger();
    const lost = written(x, 'lost');
    x.current.c = {};
    x.l.lost();
    const next = written(x, 'next');
    x.l.answered();
    assert.equal(x.told.filter((d) => d.id === next.id).at(-1)?.state, 'delivered');
    assert.equal(x.l.get(lost.id)?.state, 'unconfirmed', 'still in doubt');
    x.l.answered();
    assert.equal(x.told.filter((d) => d.id === lost.id).at(-1)?.state, 'delivered', 'a late answer');
    x.l.dispose();
  });

  it("the person's Send again and the platform's re-send each make a message of their own; the one before is no longer waited for", () => {
    const x = ledger();
    const a = written(x, 'a');
    x.current.c = {};
    x.l.lost();
    assert.equal(x.l.replace(a.id)?.state, 'replaced');
    assert.equal(x.l.replace(a.id), undefined, 'only once');
    const b = written(x, 'b');
    const repeat = x.l.repeatLast()!;
    assert.notEqual(repeat.id, b.id);
    assert.equal(repeat.text, 'b');
    assert.equal(x.told.filter((d) => d.id === b.id).at(-1)?.state, 'replaced');
    assert.equal(x.l.repeatLast(), undefined, 'the repeat still waits to be written');
    x.l.dispose();
  });
});
