/** One page of a cursor-paged list (Conversations v3). */
export interface CursorPage<T> {
  items: T[];
  /** Opaque; null or absent at the end. Never parsed or built by the client. */
  cursor: string | null | undefined;
}

/** One page of an offset-paged list (Conversations v1/v2). */
export interface OffsetPage<T> {
  items: T[];
  /** Present while more pages follow. */
  nextOffset: number | undefined;
}

/**
 * Walks a cursor-paged list. `fetchPage` must send the same filters every time: only the
 * cursor changes between requests (CONV-9, rule 3 of the Conversations API).
 */
export async function* pagesByCursor<T>(
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
  opts: { maxPages?: number; signal?: AbortSignal } = {},
): AsyncGenerator<T[], void, void> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let page = 0; page < (opts.maxPages ?? Number.POSITIVE_INFINITY); page++) {
    opts.signal?.throwIfAborted();
    const res = await fetchPage(cursor);
    yield res.items;
    if (!res.cursor || res.items.length === 0) return;
    // A cursor that comes back again would loop forever: stop instead.
    if (seen.has(res.cursor)) return;
    seen.add(res.cursor);
    cursor = res.cursor;
  }
}

/** Walks an offset-paged list until `nextOffset` is absent. */
export async function* pagesByOffset<T>(
  fetchPage: (offset: number) => Promise<OffsetPage<T>>,
  opts: { start?: number; maxPages?: number; signal?: AbortSignal } = {},
): AsyncGenerator<T[], void, void> {
  let offset = opts.start ?? 0;
  for (let page = 0; page < (opts.maxPages ?? Number.POSITIVE_INFINITY); page++) {
    opts.signal?.throwIfAborted();
    const res = await fetchPage(offset);
    yield res.items;
    if (res.nextOffset === undefined || res.items.length === 0 || res.nextOffset <= offset) return;
    offset = res.nextOffset;
  }
}

/** Flattens pages into items. */
export async function* items<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T, void, void> {
  for await (const page of pages) yield* page;
}
