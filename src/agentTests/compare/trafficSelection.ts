/**
 * Which recorded conversations a replay of real traffic sends again: the source of truth's environment read through
 * the Conversations API (v3, cursor paging) with the spec's filters (time range, channel, variant, transcript search,
 * random sample), and two the spec's listing does not take, read from each record: whether it was handed off, and
 * whether it had an out-of-domain turn (docs/api-assumptions.md, "Replaying real traffic"). Only finished
 * conversations are replayed: one still in progress has not said all it will.
 */
import type { ConversationRecord, ConversationsQueryInput } from '../../contract/conversations';
import {
  CONVERSATIONS_LIMIT_MAX,
  conversationsQuerySchema,
  isIsoInstant,
  isoToMs,
  normalizeIso,
} from '../../contract/conversations';
import type { Environment } from '../../contract/common';

/** The Conversations API as a replay reads it: the client's ConversationsClient of v3 (its `pages`). */
export interface TrafficLister {
  pages(
    query: ConversationsQueryInput,
    opts: { signal?: AbortSignal; maxPages?: number },
  ): AsyncIterable<readonly ConversationRecord[]>;
}

/** The conversations to replay, as a person picks them. */
export interface TrafficFilters {
  /** The environment whose conversations are the source of truth (`client_env`); live by default. */
  readonly source?: Environment;
  /** ISO 8601 instants: conversations started from `since` (inclusive) to `until` (exclusive). */
  readonly since?: string;
  readonly until?: string;
  /** Any of these channels (VOICE-SIP, WEBCHAT, CHAT ...). */
  readonly channels?: readonly string[];
  /** One variant, by id or by name (not both: the spec refuses them together). */
  readonly variantId?: string;
  readonly variantName?: string;
  /** Only conversations handed off (true) or not (false); read from each record. */
  readonly handoff?: boolean;
  /** Only conversations with an out-of-domain turn (true) or without one (false); read from each record. */
  readonly ood?: boolean;
  /** Transcript search: every word of it in the conversation's turns (`query_type=transcript`). */
  readonly search?: string;
  /** A random sample (`sample=random`) instead of the first conversations in time. */
  readonly sample?: boolean;
  /** At most this many conversations (100 by default). */
  readonly count?: number;
}

export const DEFAULT_TRAFFIC_COUNT = 100;
/** Where a search or a sample starts when no `since` is given: the spec needs both ends with them. */
export const ANY_TIME_START = '2000-01-01T00:00:00Z';
/** Records read a page when the records themselves are filtered (handoff, out of domain). */
const FILTERED_PAGE = 1_000;

export interface TrafficSelection {
  /** The conversations to replay, in the order the API gave them. */
  readonly conversations: readonly ConversationRecord[];
  /** The query sent (its first page). */
  readonly query: ConversationsQueryInput;
  /** Records read, before the handoff and out-of-domain filters. */
  readonly scanned: number;
  /** When nothing was found: which filters found nothing, and what to change. */
  readonly nothingFound?: string;
  /** True when the signal stopped the reading: `conversations` are those read so far. */
  readonly cancelled?: boolean;
}

/** What is wrong with the filters, in words that say what to give; undefined when they can be sent. */
export function trafficFiltersProblem(filters: TrafficFilters): string | undefined {
  for (const [name, value] of [
    ['since', filters.since],
    ['until', filters.until],
  ] as const)
    if (value !== undefined && !isIsoInstant(value))
      return `${name} "${value}" is not an ISO 8601 date or time: write it as 2026-01-05 or 2026-01-05T17:00:00Z`;
  if (filters.since && filters.until && isoToMs(filters.until) < isoToMs(filters.since))
    return `until (${filters.until}) is before since (${filters.since})`;
  if (filters.variantId !== undefined && filters.variantName !== undefined)
    return 'give the variant by id or by name, not both (the Conversations API refuses them together)';
  if (filters.search !== undefined && filters.search.trim() === '') return 'the search text is empty';
  if (filters.search !== undefined && filters.sample)
    return 'a transcript search and a random sample cannot be used together (one retrieval mode per request)';
  if (filters.count !== undefined && !(Number.isInteger(filters.count) && filters.count >= 1))
    return `the count must be a whole number of 1 or more, got ${filters.count}`;
  return undefined;
}

/** Whether the records themselves are filtered (what the listing cannot ask for). */
const readsRecords = (f: TrafficFilters) => f.handoff !== undefined || f.ood !== undefined;

/**
 * The Conversations API query of the filters: finished conversations only; a search or a sample gets both ends of
 * the range (from 2000 to `now` where not given), as the spec requires. Throws what is wrong with the filters.
 */
export function trafficQuery(filters: TrafficFilters, now: Date = new Date()): ConversationsQueryInput {
  const problem = trafficFiltersProblem(filters);
  if (problem) throw new Error(problem);
  const count = filters.count ?? DEFAULT_TRAFFIC_COUNT;
  const ranked = filters.search !== undefined || filters.sample === true;
  const since = filters.since ? normalizeIso(filters.since) : ranked ? ANY_TIME_START : undefined;
  const until = filters.until ? normalizeIso(filters.until) : ranked ? now.toISOString() : undefined;
  const query: ConversationsQueryInput = {
    client_env: filters.source ?? 'live',
    in_progress: false,
    limit: Math.min(CONVERSATIONS_LIMIT_MAX, readsRecords(filters) ? Math.max(count, FILTERED_PAGE) : count),
    ...(since ? { start_time: since } : {}),
    ...(until ? { end_time: until } : {}),
    ...(filters.channels && filters.channels.length > 0 ? { channel: [...filters.channels] } : {}),
    ...(filters.variantId !== undefined ? { variant_id: filters.variantId } : {}),
    ...(filters.variantName !== undefined ? { variant_name: filters.variantName } : {}),
    ...(filters.search !== undefined ? { query_type: 'transcript' as const, query: filters.search.trim() } : {}),
    ...(filters.sample ? { sample: 'random' as const } : {}),
  };
  // Checked here as the client will check it, so a wrong filter is said before anything is read.
  const checked = conversationsQuerySchema.safeParse(query);
  if (!checked.success) throw new Error(checked.error.issues.map((i) => i.message).join('; '));
  return query;
}

/** Whether a record had a turn out of domain (its count, or a turn's mark). */
export function hadOod(record: ConversationRecord): boolean {
  return record.num_ood > 0 || record.turns.some((t) => t.is_ood);
}

function keeps(record: ConversationRecord, filters: TrafficFilters): boolean {
  if (filters.handoff !== undefined && record.handoff !== filters.handoff) return false;
  if (filters.ood !== undefined && hadOod(record) !== filters.ood) return false;
  return true;
}

/**
 * Reads the conversations to replay: page after page (v3's cursor) until `count` are found or the result set ends.
 * A cancelled read keeps what it found; a refused one throws the client's error.
 */
export async function selectTraffic(
  lister: TrafficLister,
  filters: TrafficFilters,
  opts: { signal?: AbortSignal; now?: Date } = {},
): Promise<TrafficSelection> {
  const query = trafficQuery(filters, opts.now);
  const count = filters.count ?? DEFAULT_TRAFFIC_COUNT;
  const found: ConversationRecord[] = [];
  let scanned = 0;
  let cancelled = false;
  try {
    for await (const page of lister.pages(query, opts.signal ? { signal: opts.signal } : {})) {
      scanned += page.length;
      for (const record of page) {
        if (found.length >= count) break;
        if (!record.in_progress && keeps(record, filters)) found.push(record);
      }
      if (found.length >= count) break;
    }
  } catch (err) {
    if (!opts.signal?.aborted) throw err;
    cancelled = true;
  }
  if (opts.signal?.aborted) cancelled = true;
  return {
    conversations: found,
    query,
    scanned,
    ...(found.length === 0 && !cancelled ? { nothingFound: nothingFound(filters, query, scanned) } : {}),
    ...(cancelled ? { cancelled } : {}),
  };
}

/** The filters in words, as a sentence names them. */
export function filterWords(filters: TrafficFilters, query: ConversationsQueryInput): string[] {
  const words: string[] = [];
  if (query.start_time || query.end_time)
    words.push(
      `started ${query.start_time ? `from ${query.start_time}` : ''}${query.start_time && query.end_time ? ' ' : ''}${query.end_time ? `before ${query.end_time}` : ''}`,
    );
  if (filters.channels?.length) words.push(`on ${filters.channels.join(' or ')}`);
  if (filters.variantId !== undefined) words.push(`variant id ${filters.variantId}`);
  if (filters.variantName !== undefined) words.push(`variant ${filters.variantName}`);
  if (filters.search !== undefined) words.push(`with "${filters.search.trim()}" in the transcript`);
  if (filters.sample) words.push('a random sample');
  if (filters.handoff !== undefined) words.push(filters.handoff ? 'handed off' : 'not handed off');
  if (filters.ood !== undefined)
    words.push(filters.ood ? 'with an out-of-domain turn' : 'without an out-of-domain turn');
  return words;
}

/** Why nothing was found, and what to change. */
function nothingFound(filters: TrafficFilters, query: ConversationsQueryInput, scanned: number): string {
  const source = query.client_env ?? 'live';
  const words = filterWords(filters, query);
  const head = `No finished conversation of ${source} matches${words.length ? `: ${words.join(', ')}` : ''}.`;
  if (scanned > 0) {
    // The API found some: the filters read from the records took them all.
    const which = [
      ...(filters.handoff !== undefined ? [filters.handoff ? '--handoff' : '--no-handoff'] : []),
      ...(filters.ood !== undefined ? [filters.ood ? '--ood' : '--no-ood'] : []),
    ];
    return `${head} The Conversations API gave ${scanned} conversation(s) for the other filters, and none of them is ${[
      filters.handoff === undefined ? '' : filters.handoff ? 'handed off' : 'without a handoff',
      filters.ood === undefined ? '' : filters.ood ? 'with an out-of-domain turn' : 'without an out-of-domain turn',
    ]
      .filter(Boolean)
      .join(' and ')}: leave out ${which.join(' or ')}, or widen the time range.`;
  }
  const changes = [
    ...(query.start_time || query.end_time ? ['widen the time range (--since, --until)'] : []),
    ...(filters.channels?.length ? ['drop --channel or name another channel'] : []),
    ...(filters.variantId !== undefined || filters.variantName !== undefined
      ? ['check the variant (its name as the records spell it, or its id)']
      : []),
    ...(filters.search !== undefined ? ['search for fewer or other words'] : []),
    `check --source (the environment the traffic is read from: ${source})`,
  ];
  return `${head} Change what you ask: ${changes.join('; ')}. A Conversations API key without Conversations data permission, or a project with transcript search off, sees none either.`;
}
