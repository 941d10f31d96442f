import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  mcNemarExact,
  minimumDiscordant,
  normalQuantile,
  signTest,
  wilsonInterval,
} from '../../../../src/agentTests/compare/stats';

const close = (actual: number, expected: number, digits: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 0.5 * 10 ** -digits, `${what}: ${actual} is not ${expected}`);

describe('comparison statistics', () => {
  it('the normal quantile gives the textbook z values', () => {
    close(normalQuantile(0.975), 1.959964, 6, 'z of 95%');
    close(normalQuantile(0.995), 2.575829, 6, 'z of 99%');
    close(normalQuantile(0.05), -1.644854, 6, 'z of 5%');
    close(normalQuantile(0.5), 0, 9, 'the median');
  });

  it('Wilson intervals match the tabulated values', () => {
    // 8 of 10 at 95%: 0.490 to 0.943 (by hand: centre 0.7168, half-width 0.2266 with z = 1.96).
    const eight = wilsonInterval(8, 10);
    close(eight.low, 0.49, 3, '8/10 low');
    close(eight.high, 0.943, 3, '8/10 high');
    // Newcombe 1998, table II: 81/263 -> 0.2553 to 0.3662; 0/10 -> 0 to 0.2775; 1/29 -> 0.0061 to 0.1718.
    const n81 = wilsonInterval(81, 263);
    close(n81.low, 0.2553, 4, '81/263 low');
    close(n81.high, 0.3662, 4, '81/263 high');
    const none = wilsonInterval(0, 10);
    assert.equal(none.low, 0);
    close(none.high, 0.2775, 4, '0/10 high');
    const one = wilsonInterval(1, 29);
    close(one.low, 0.0061, 4, '1/29 low');
    close(one.high, 0.1718, 4, '1/29 high');
    // Every run passed: the interval still says how sure that is (10/10 -> 0.7225 to 1).
    const all = wilsonInterval(10, 10);
    close(all.low, 0.7225, 4, '10/10 low');
    assert.equal(all.high, 1);
    // Wider at 99%: 8/10 -> 0.4008 to 0.9599, by hand with z = 2.5758.
    const wide = wilsonInterval(8, 10, 0.99);
    close(wide.low, 0.4008, 3, '8/10 at 99% low');
    close(wide.high, 0.9599, 3, '8/10 at 99% high');
    assert.deepEqual(wilsonInterval(0, 0), { low: 0, high: 1 }, 'no runs: anything is possible');
  });

  it('the exact McNemar test matches the binomial tables', () => {
    // b=1, c=9: 2 * (C(10,0) + C(10,1)) / 2^10 = 22 / 1024 = 0.021484.
    close(mcNemarExact(1, 9), 22 / 1024, 9, 'b=1 c=9');
    close(mcNemarExact(9, 1), 22 / 1024, 9, 'two-sided: c=1 b=9 alike');
    // b=0, c=5: 2 / 2^5 = 0.0625, not significant at 0.05.
    close(mcNemarExact(0, 5), 0.0625, 9, 'b=0 c=5');
    // b=0, c=6: 2 / 64 = 0.03125.
    close(mcNemarExact(0, 6), 0.03125, 9, 'b=0 c=6');
    // b=2, c=8: 2 * (1 + 10 + 45) / 1024 = 0.109375.
    close(mcNemarExact(2, 8), 112 / 1024, 9, 'b=2 c=8');
    // b=3, c=12 (n=15): 2 * (1 + 15 + 105 + 455) / 32768 = 0.035156.
    close(mcNemarExact(3, 12), 1152 / 32768, 9, 'b=3 c=12');
    assert.equal(mcNemarExact(4, 4), 1, 'an even split is no evidence');
    assert.equal(mcNemarExact(0, 0), 1, 'no discordant pairs');
    // A suite-sized count stays finite and exact: 40 against 60 -> 0.0569 (binomial table, n=100).
    close(signTest(40, 60), 0.0569, 4, 'sign test 40/60');
  });

  it('at least 6 discordant pairs are needed for significance at 0.05, 8 at 0.01', () => {
    assert.equal(minimumDiscordant(0.05), 6);
    assert.equal(minimumDiscordant(0.01), 8);
  });
});
