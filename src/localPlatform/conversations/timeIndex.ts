import type { StoredConversation } from '../state';

/**
 * The start times of the stored conversations, kept as they are appended, and whether they are in time order (the
 * store mostly is): a listing with `start_time` then starts at its first conversation by binary search instead of
 * reading every one, so looking up the records of a run stays quick as the store grows.
 */
interface TimeIndex {
  readonly items: StoredConversation[];
  readonly times: number[];
  sorted: boolean;
}

const indexes = new WeakMap<readonly StoredConversation[], TimeIndex>();

/** The index of the store, brought up to date; rebuilt when the store changed other than by appending. */
function indexOf(all: readonly StoredConversation[]): TimeIndex {
  let index = indexes.get(all);
  const known = index?.items.length ?? 0;
  if (!index || known > all.length || (known > 0 && all[known - 1] !== index.items[known - 1])) {
    index = { items: [], times: [], sorted: true };
    indexes.set(all, index);
  }
  for (let i = index.items.length; i < all.length; i++) {
    const conv = all[i] as StoredConversation;
    const t = Date.parse(conv.started_at);
    const last = index.times[index.times.length - 1];
    if (last !== undefined && !(t >= last)) index.sorted = false;
    index.items.push(conv);
    index.times.push(t);
  }
  return index;
}

/** Where a scan for conversations started at or after `start` may begin: 0 when the store is not in time order. */
export function firstFrom(all: readonly StoredConversation[], start: number): number {
  if (start === -Infinity) return 0;
  const index = indexOf(all);
  if (!index.sorted) return 0;
  let lo = 0;
  let hi = index.times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((index.times[mid] ?? 0) < start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether the scan may stop at the `i`-th conversation: the store is in time order and it started at `end` or later. */
export function pastEnd(all: readonly StoredConversation[], i: number, end: number): boolean {
  const index = indexes.get(all);
  return end !== Infinity && index !== undefined && index.sorted && (index.times[i] ?? -Infinity) >= end;
}
