/**
 * Finds the record of a case's conversation through the Conversations API (v3). The spec shows no read by id:
 * the runner lists the conversations of the environment the case ran against, started around when it ran, and
 * picks the one whose `id` is the Chat API's `conversation_id`; failing that, the one whose turns carry the
 * messages sent, in order (docs/api-assumptions.md). It waits a bounded time while the record is not there or is
 * still in progress, and says exactly why when it cannot be had.
 */
import type { ConversationRecord, ConversationsQueryInput } from '../../contract/conversations';
import type { Environment } from '../../contract/common';
import { sleep } from '../../core/retry';
import { listTogether, MAX_PAGES, PAGE_LIMIT, type RecordLister } from './batch';

export type { RecordLister };

/** How a run reaches the records of a target's conversations, or why it cannot (no key is set). */
export type RecordReach =
  | {
      readonly lister: RecordLister;
      /** The environment the target's conversations run in: the query's `client_env`. */
      readonly environment: Environment;
    }
  | { readonly none: string };

/** How long to wait for a record, and how often to look: `--record-wait` on the command line; the editor waits the default. */
export interface RecordWait {
  readonly waitMs: number;
  readonly pollMs: number;
}

export const DEFAULT_RECORD_WAIT: RecordWait = { waitMs: 20_000, pollMs: 500 };

/** What a run knows of its conversation when it looks for the record. */
export interface RecordLookup {
  readonly conversationId: string;
  /** When the conversation was created and when the run was over, by this machine's clock (ms since the epoch). */
  readonly startedAt: number;
  readonly endedAt: number;
  /** When the create's reply came, when known. */
  readonly createdAt?: number;
  /** The user messages sent, in order: the fallback match on the turns' texts. */
  readonly messages: readonly string[];
  readonly includeLatency: boolean;
}

export type FoundRecord = { readonly record: ConversationRecord } | { readonly notChecked: string };

/** Around a conversation's start when this machine's clock and the platform's are not known to agree. */
const WIDE_MARGIN_MS = 15 * 60_000;
/** Around the start the records so far foretell: the clocks' granularity. */
const NARROW_MARGIN_MS = 10;

/**
 * What the records found so far say of the platform's clock against this machine's: a record's `started_at` is
 * after the create was sent (`started_at - startedAt` is at least the difference) and before its reply came
 * (`started_at - createdAt` at most). Later looks at the same platform then ask for the few milliseconds these
 * foretell, so a busy project's listing stays a record or two long.
 */
interface Offsets {
  /** The largest `started_at - createdAt` seen, and the smallest `started_at - startedAt`. */
  readonly above: number;
  readonly below: number;
  /** The smallest and the largest of both, for a platform whose records do not keep to the bounds. */
  readonly least: number;
  readonly most: number;
}
const offsets = new WeakMap<RecordLister, Offsets>();

/** The window of `started_at` a narrow look lists, once records have shown where they fall; undefined before. */
function narrowWindow(lister: RecordLister, lookup: RecordLookup): { start: number; end: number } | undefined {
  const known = offsets.get(lister);
  if (!known) return undefined;
  const created = lookup.createdAt ?? lookup.endedAt;
  const [low, high] = known.above <= known.below ? [known.above, known.below] : [known.least, known.most];
  return { start: lookup.startedAt + low - NARROW_MARGIN_MS, end: created + high + NARROW_MARGIN_MS };
}

function wideWindow(lookup: RecordLookup): { start: number; end: number } {
  return { start: lookup.startedAt - WIDE_MARGIN_MS, end: lookup.endedAt + WIDE_MARGIN_MS };
}

function learn(lister: RecordLister, lookup: RecordLookup, record: ConversationRecord): void {
  const started = Date.parse(record.started_at);
  if (!Number.isFinite(started)) return;
  const after = started - lookup.startedAt;
  const before = started - (lookup.createdAt ?? lookup.endedAt);
  const k = offsets.get(lister);
  offsets.set(lister, {
    above: Math.max(k?.above ?? before, before),
    below: Math.min(k?.below ?? after, after),
    least: Math.min(k?.least ?? before, before),
    most: Math.max(k?.most ?? after, after),
  });
}

/** The record of the conversation, or why it cannot be checked. */
export async function findRecord(
  reach: Exclude<RecordReach, { none: string }>,
  lookup: RecordLookup,
  wait: RecordWait,
  signal?: AbortSignal,
): Promise<FoundRecord> {
  const deadline = performance.now() + wait.waitMs;
  let inProgress: ConversationRecord | undefined;
  for (let round = 0; ; round++) {
    let found: ConversationRecord | undefined;
    try {
      // The narrow window first; when the record is not in it, the wide one at once (the clocks may have moved),
      // and then every other round.
      const narrow = narrowWindow(reach.lister, lookup);
      if (narrow)
        found = pick(await listTogether(reach.lister, reach.environment, narrow, lookup.includeLatency), lookup);
      if (found?.id !== lookup.conversationId && (!narrow || round % 2 === 0))
        found = (await look(reach, lookup, wideWindow(lookup), signal)) ?? found;
    } catch (err) {
      if (signal?.aborted) return { notChecked: 'cancelled' };
      return { notChecked: refusal(err) };
    }
    if (found && found.id === lookup.conversationId) learn(reach.lister, lookup, found);
    if (found && !found.in_progress) return { record: found };
    inProgress = found ?? inProgress;
    const left = deadline - performance.now();
    if (left <= 0 || signal?.aborted) break;
    await sleep(Math.min(wait.pollMs, left), signal).catch(() => undefined);
  }
  if (signal?.aborted) return { notChecked: 'cancelled' };
  const seconds = `${Math.round(wait.waitMs / 100) / 10} s`;
  return {
    notChecked: inProgress
      ? `the record of conversation ${lookup.conversationId} was still in progress after ${seconds}`
      : `the record of conversation ${lookup.conversationId} did not appear in the Conversations API (${reach.environment}) within ${seconds} (among those started ${WIDE_MARGIN_MS / 60_000} minutes either side of the run, by this machine's clock); a key without Conversations data permission sees no records either`,
  };
}

/** One look: the window's records, the one with the conversation's id, else the one with its messages. */
async function look(
  reach: Exclude<RecordReach, { none: string }>,
  lookup: RecordLookup,
  window: { start: number; end: number },
  signal: AbortSignal | undefined,
): Promise<ConversationRecord | undefined> {
  const query: ConversationsQueryInput = {
    client_env: reach.environment,
    start_time: new Date(window.start).toISOString(),
    end_time: new Date(window.end).toISOString(),
    limit: PAGE_LIMIT,
    ...(lookup.includeLatency ? { include_latency: true } : {}),
  };
  const records: ConversationRecord[] = [];
  for await (const record of reach.lister.conversations(query, {
    maxPages: MAX_PAGES,
    ...(signal ? { signal } : {}),
  })) {
    if (record.id === lookup.conversationId) return record;
    records.push(record);
  }
  return pick(records, lookup);
}

/** The record with the conversation's id, else the one whose turns carry the messages sent. */
function pick(records: readonly ConversationRecord[], lookup: RecordLookup): ConversationRecord | undefined {
  return records.find((r) => r.id === lookup.conversationId) ?? records.find((r) => carries(r, lookup.messages));
}

/** Whether the record's user turns are the messages sent, in order (none match on an empty transcript). */
function carries(record: ConversationRecord, messages: readonly string[]): boolean {
  if (messages.length === 0) return false;
  const said = record.turns.map((t) => t.user_input.trim().toLowerCase()).filter((t) => t !== '');
  return said.length === messages.length && messages.every((m, i) => said[i] === m.trim().toLowerCase());
}

/** Why the records could not be read, in words that say what to change. */
function refusal(err: unknown): string {
  const { kind, status } = (typeof err === 'object' && err !== null ? err : {}) as { kind?: unknown; status?: unknown };
  if (kind === 'unauthorized' || status === 401)
    return 'the Conversations API refused the key (401): set a Conversations API key of this project';
  if (kind === 'forbidden' || status === 403)
    return 'the Conversations API refused the key (403): it lacks Conversations data permission for this project';
  if (kind === 'notConfigured')
    return 'no Conversations API key is set: add one to the connection profile (Agent Workbench: Edit Connection Profile)';
  return `the record could not be read: ${err instanceof Error ? err.message : String(err)}`;
}
