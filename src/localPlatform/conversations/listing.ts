import { type ConversationsQuery, isoToMs } from '../../contract/conversations';
import { runtimeError } from '../http';
import type { StoredConversation } from '../state';
import { type CursorPosition, decodeCursor, encodeCursor, filterHash } from './cursor';
import { matchesTranscript, rankSemantic, transcriptTerms } from './search';
import { firstFrom, pastEnd } from './timeIndex';

/** One page of a conversations listing, before it is rendered for a version. */
export interface ListedPage {
  /** Ascending by started_at, then id. */
  conversations: StoredConversation[];
  /** Present when more results follow and the request paged by offset. */
  nextOffset?: number;
  /** The cursor of the next page (v3), null at the end. */
  cursor: string | null;
}

interface Timed {
  conv: StoredConversation;
  t: number;
}

function compareKeys(t1: number, id1: string, t2: number, id2: string): number {
  return t1 - t2 || (id1 < id2 ? -1 : id1 > id2 ? 1 : 0);
}

function byTime(a: Timed, b: Timed): number {
  return compareKeys(a.t, a.conv.id, b.t, b.conv.id);
}

/** The conversations of a project that pass the query's filters, with their start times. */
function filtered(all: readonly StoredConversation[], projectId: string, q: ConversationsQuery): Timed[] {
  const start = q.start_time === undefined ? -Infinity : isoToMs(q.start_time);
  const end = q.end_time === undefined ? Infinity : isoToMs(q.end_time);
  const channels = q.channel.length > 0 ? new Set(q.channel) : undefined;
  const terms = q.query_type === 'transcript' && q.query !== undefined ? transcriptTerms(q.query) : undefined;
  const out: Timed[] = [];
  const first = firstFrom(all, start);
  for (let i = first; i < all.length; i++) {
    const conv = all[i] as StoredConversation;
    if (start !== -Infinity && pastEnd(all, i, end)) break;
    if (conv.project_id !== projectId || conv.environment !== q.client_env) continue;
    if (channels && !channels.has(conv.channel)) continue;
    if (q.variant_id !== undefined && conv.variant_id !== q.variant_id) continue;
    if (q.variant_name !== undefined && conv.variant_name !== q.variant_name) continue;
    if (q.in_progress !== undefined && conv.in_progress !== q.in_progress) continue;
    const t = Date.parse(conv.started_at);
    if (t < start || t >= end) continue;
    if (terms && !matchesTranscript(conv, terms, q.turn_type)) continue;
    out.push({ conv, t });
  }
  return out;
}

/** Sorts in place unless already in order (the store is mostly appended in time order). */
function sortByTime(items: Timed[]): void {
  for (let i = 1; i < items.length; i++) {
    if (byTime(items[i - 1]!, items[i]!) > 0) {
      items.sort(byTime);
      return;
    }
  }
}

/** Index of the first item after the key (binary search over sorted items). */
function indexAfter(items: readonly Timed[], t: number, id: string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(items[mid]!.t, items[mid]!.conv.id, t, id) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A deterministic shuffle: the same filters give the same sample, and paging walks through it. */
function shuffled<T>(items: T[], seedText: string): T[] {
  let seed = 2166136261;
  for (let i = 0; i < seedText.length; i++) seed = Math.imul(seed ^ seedText.charCodeAt(i), 16777619);
  const next = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function wrongCursorKind(): never {
  throw runtimeError(400, 'Malformed cursor: it does not belong to this kind of request');
}

/**
 * Selects one page. Without a retrieval mode or with transcript search, results are in time
 * order and page by key; semantic search and random samples have their own order (relevance,
 * a shuffle) and page by position, each page shown in time order. A cursor wins over offset.
 */
export function listConversations(
  all: readonly StoredConversation[],
  projectId: string,
  q: ConversationsQuery,
): ListedPage {
  const hash = filterHash(q);
  const from: CursorPosition | undefined = q.cursor === undefined ? undefined : decodeCursor(q.cursor, hash);
  const matches = filtered(all, projectId, q);

  if (q.query_type === 'semantic' || q.sample !== undefined) {
    const ordered =
      q.query_type === 'semantic'
        ? rankSemantic(
            matches.map((m) => m.conv),
            q.query!,
          ).map((r) => ({ conv: r.conv, t: Date.parse(r.conv.started_at) }))
        : shuffled(matches.sort(byTime), hash);
    if (from && from.kind !== 'position') wrongCursorKind();
    const start = from ? from.position : q.offset;
    const end = start + q.limit;
    const page = ordered.slice(start, end).sort(byTime);
    const more = end < ordered.length;
    return {
      conversations: page.map((p) => p.conv),
      ...(more && !from ? { nextOffset: end } : {}),
      cursor: more ? encodeCursor(hash, { kind: 'position', position: end }) : null,
    };
  }

  sortByTime(matches);
  if (from && from.kind !== 'key') wrongCursorKind();
  const start = from ? indexAfter(matches, from.startedAt, from.id) : q.offset;
  const end = Math.min(start + q.limit, matches.length);
  const page = matches.slice(start, end);
  const more = end < matches.length;
  const last = page[page.length - 1];
  return {
    conversations: page.map((p) => p.conv),
    ...(more && !from ? { nextOffset: end } : {}),
    cursor: more && last ? encodeCursor(hash, { kind: 'key', startedAt: last.t, id: last.conv.id }) : null,
  };
}
