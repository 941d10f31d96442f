import type { ConversationRecord, ConversationsQueryInput } from '../../../contract/conversations';

// The list newest first. The platform lists a range oldest first only, so the newest conversations of a long
// range would sit behind every page of older ones: the range is read backwards in time windows instead, each
// window in full and shown newest first. No 'vscode' here.

/** Reads every page of one query, oldest first (the client's pages). */
export type ReadPages = (query: ConversationsQueryInput) => AsyncIterable<ConversationRecord[]>;

const HOUR_MS = 3_600_000;
const FIRST_WINDOW_MS = HOUR_MS;
/** Without a start, the list ends after an empty window this long (nothing older is looked for). */
const GIVE_UP_EMPTY_MS = 400 * 24 * HOUR_MS;
const MAX_WINDOW_MS = GIVE_UP_EMPTY_MS;

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Pages of `pageSize` conversations (the last may be shorter), newest first, over the query's range.
 * A window that held few conversations is followed by a wider one, one that held many by a narrower one.
 */
export async function* newestFirstPages(
  read: ReadPages,
  query: ConversationsQueryInput,
  nowMs: number,
  pageSize: number,
  toMs: (iso: string) => number,
): AsyncGenerator<ConversationRecord[], void, void> {
  const floor = query.start_time === undefined ? undefined : toMs(query.start_time);
  // Without an end, the first window is open-ended: a platform clock ahead of this one still shows its newest.
  let end = query.end_time === undefined ? undefined : toMs(query.end_time);
  let width = FIRST_WINDOW_MS;
  const seen = new Set<string>();
  // Windows are read from the newest back, so the windows' rows one after another are newest first; a page is
  // shown once full (or once nothing older is left).
  let ready: ConversationRecord[] = [];
  for (;;) {
    const top = end ?? nowMs;
    const start = floor === undefined ? top - width : Math.max(floor, top - width);
    const found: ConversationRecord[] = [];
    const window = { ...query, start_time: iso(start), ...(end === undefined ? {} : { end_time: iso(end) }) };
    for await (const page of read(window))
      for (const r of page) {
        // A conversation on the edge of two windows is listed by both.
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        found.push(r);
      }
    found.sort((a, b) => toMs(b.started_at) - toMs(a.started_at));
    ready = ready.concat(found);
    while (ready.length >= pageSize) yield ready.splice(0, pageSize);
    const last =
      (floor !== undefined && start <= floor) ||
      (floor === undefined && found.length === 0 && width >= GIVE_UP_EMPTY_MS);
    if (last) {
      if (ready.length) yield ready;
      return;
    }
    end = start;
    width =
      found.length < pageSize / 2
        ? Math.min(width * 4, MAX_WINDOW_MS)
        : found.length > pageSize * 4
          ? Math.max(width / 2, 60_000)
          : width;
  }
}
