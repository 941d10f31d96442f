import { CONCURRENCY_INTERVAL_MS } from '../../contract/concurrency';
import type { StoredConversation } from '../state';

/** When a conversation is active: [start, end). One in progress runs until now. */
export function activeSpan(conv: StoredConversation, nowMs: number): { start: number; end: number } {
  const start = Date.parse(conv.started_at);
  let end: number;
  if (conv.ended_at !== null) end = Date.parse(conv.ended_at);
  else if (conv.in_progress) end = nowMs;
  else end = start + conv.total_duration * 1000;
  // A conversation that ended the moment it started still counted for that moment.
  return { start, end: Math.max(end, start + 1) };
}

/**
 * The true maximum of overlapping conversations within each 5-minute window from `fromMs`
 * (aligned) to `toMs` (aligned, exclusive), by a sweep over start and end events.
 */
export function maxConcurrentPerWindow(
  convs: readonly StoredConversation[],
  fromMs: number,
  toMs: number,
  nowMs: number,
): number[] {
  const events: Array<[number, 1 | -1]> = [];
  for (const conv of convs) {
    const { start, end } = activeSpan(conv, nowMs);
    if (end <= fromMs || start >= toMs) continue;
    events.push([start, 1], [end, -1]);
  }
  // At the same instant ends come first: one call ending as another starts is not an overlap.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const windows = Math.round((toMs - fromMs) / CONCURRENCY_INTERVAL_MS);
  const out = new Array<number>(windows);
  let count = 0;
  let i = 0;
  for (let w = 0; w < windows; w++) {
    const windowStart = fromMs + w * CONCURRENCY_INTERVAL_MS;
    const windowEnd = windowStart + CONCURRENCY_INTERVAL_MS;
    while (i < events.length && events[i]![0] <= windowStart) count += events[i++]![1];
    let max = count;
    while (i < events.length && events[i]![0] < windowEnd) {
      count += events[i++]![1];
      if (count > max) max = count;
    }
    out[w] = max;
  }
  return out;
}
