/**
 * A seeded pseudo-random source: the same seed gives the same numbers on every machine, so a perturbed turn can be
 * sent again word for word. mulberry32 (public domain, 32 bits of state): far from cryptographic, which is not needed.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The next number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/**
 * One seed made from several (the run's seed, a turn, a kind), mixed so that neighbours (seed 7 and 8, turn 1 and 2)
 * give unrelated streams. The finaliser of MurmurHash3.
 */
export function mixSeeds(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** One of the items, picked by `random`; the list must not be empty. */
export function pick<T>(items: readonly T[], random: Random): T {
  return items[Math.floor(random.next() * items.length) % items.length] as T;
}
