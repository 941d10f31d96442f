/**
 * Narrow looks for records, asked within a few milliseconds of each other on the same platform and environment, go
 * out as one listing per cluster of nearby windows: a run of many cases reads its records in a few requests, not
 * one per run (the runner reads records while its workers hold the next conversations, so the wait costs no time).
 */
import type { ConversationRecord, ConversationsQueryInput } from '../../contract/conversations';

/** The Conversations API as the record checks use it: the client's ConversationsClient of v3. */
export interface RecordLister {
  conversations(
    query: ConversationsQueryInput,
    opts: { signal?: AbortSignal; maxPages?: number },
  ): AsyncIterable<ConversationRecord>;
}

/** How long asks are gathered before they go out together, and how many go out at once without waiting longer. */
const GATHER_MS = 20;
const GATHER_MOST = 16;
/** Windows closer than this are listed in one request. */
const JOIN_GAP_MS = 1_000;
/** Records listed per request, and the most pages one listing walks. */
export const PAGE_LIMIT = 100;
export const MAX_PAGES = 20;

export interface Window {
  readonly start: number;
  readonly end: number;
}

interface Ask {
  readonly window: Window;
  readonly includeLatency: boolean;
  resolve(records: readonly ConversationRecord[]): void;
  reject(err: unknown): void;
}

/** The asks gathering per lister and environment, with what sends them. */
interface Gathering {
  readonly asks: Ask[];
  readonly send: () => void;
}

const gathering = new WeakMap<RecordLister, Map<string, Gathering>>();

/** The records started in the window (and maybe some around it), listed together with the asks of the moment. */
export function listTogether(
  lister: RecordLister,
  environment: ConversationsQueryInput['client_env'],
  window: Window,
  includeLatency: boolean,
): Promise<readonly ConversationRecord[]> {
  return new Promise((resolve, reject) => {
    let byEnvironment = gathering.get(lister);
    if (!byEnvironment) gathering.set(lister, (byEnvironment = new Map()));
    const byKey = byEnvironment;
    const key = String(environment);
    const ask: Ask = { window, includeLatency, resolve, reject };
    const open = byKey.get(key);
    if (open) {
      open.asks.push(ask);
      // The gathering's own send: it knows its timer and its asks (this ask's closure knows neither).
      if (open.asks.length >= GATHER_MOST) open.send();
      return;
    }
    const asks = [ask];
    const send = () => {
      clearTimeout(timer);
      if (byKey.get(key)?.asks !== asks) return;
      byKey.delete(key);
      for (const cluster of clusters(asks)) void listCluster(lister, environment, cluster);
    };
    byKey.set(key, { asks, send });
    // Set before any later ask can call `send`: those come in calls of their own.
    const timer = setTimeout(send, GATHER_MS);
  });
}

/** The asks in groups whose windows lie within the gap of each other. */
function clusters(asks: readonly Ask[]): Ask[][] {
  const sorted = [...asks].sort((a, b) => a.window.start - b.window.start);
  const out: Ask[][] = [];
  let end = -Infinity;
  for (const ask of sorted) {
    const last = out[out.length - 1];
    if (last && ask.window.start - end <= JOIN_GAP_MS) last.push(ask);
    else out.push([ask]);
    end = Math.max(end, ask.window.end);
  }
  return out;
}

async function listCluster(
  lister: RecordLister,
  environment: ConversationsQueryInput['client_env'],
  asks: readonly Ask[],
): Promise<void> {
  const query: ConversationsQueryInput = {
    client_env: environment,
    start_time: new Date(Math.min(...asks.map((a) => a.window.start))).toISOString(),
    end_time: new Date(Math.max(...asks.map((a) => a.window.end))).toISOString(),
    limit: PAGE_LIMIT,
    ...(asks.some((a) => a.includeLatency) ? { include_latency: true } : {}),
  };
  try {
    const records: ConversationRecord[] = [];
    for await (const record of lister.conversations(query, { maxPages: MAX_PAGES })) records.push(record);
    for (const ask of asks) ask.resolve(records);
  } catch (err) {
    for (const ask of asks) ask.reject(err);
  }
}
