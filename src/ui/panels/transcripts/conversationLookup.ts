import type { ConversationsClient } from '../../../client/conversations';
import type { ConversationRecord } from '../../../contract/conversations';
import { FILTER_ENVIRONMENTS } from '../../../protocol/transcripts';

/** Records per request while looking for one conversation. */
const LOOKUP_PAGE = 1_000;

export interface LookupHints {
  /** The environment to look in first; the others follow. */
  environment?: string;
  /** The conversation started at or after this instant (ISO), when known. */
  from?: string;
  /** The conversation started before this instant (ISO), when known. */
  to?: string;
}

/**
 * One conversation by its id. The Conversations API lists and searches but has no read by id, so the
 * pages of the project are walked (in the environment named first, then the others), narrowed to the
 * times given, until the id is found.
 */
export async function findConversation(
  client: ConversationsClient,
  id: string,
  hints: LookupHints = {},
  signal?: AbortSignal,
): Promise<ConversationRecord | undefined> {
  const first = FILTER_ENVIRONMENTS.find((e) => e === hints.environment);
  const environments = first ? [first, ...FILTER_ENVIRONMENTS.filter((e) => e !== first)] : [...FILTER_ENVIRONMENTS];
  for (const env of environments) {
    const pages = client.pages(
      {
        client_env: env,
        limit: LOOKUP_PAGE,
        include_latency: true,
        ...(hints.from ? { start_time: hints.from } : {}),
        ...(hints.to ? { end_time: hints.to } : {}),
      },
      signal ? { signal } : {},
    );
    for await (const page of pages) {
      // A placed test call is known by its call id, which its conversation keeps in state.call_sid.
      const found = page.find((c) => c.id === id || c.state?.['call_sid'] === id);
      if (found) {
        await pages.return();
        return found;
      }
    }
  }
  return undefined;
}

/** Around a record's start, the range that finds it again however the platform rounds or bounds its times. */
const AROUND_START_MS = 60_000;

/** The hints that find this record again: its environment and the minute either side of its start. */
export function hintsOf(r: Pick<ConversationRecord, 'environment' | 'started_at'>): LookupHints {
  const t = Date.parse(r.started_at);
  if (!Number.isFinite(t)) return { environment: r.environment };
  return {
    environment: r.environment,
    from: new Date(t - AROUND_START_MS).toISOString(),
    to: new Date(t + AROUND_START_MS).toISOString(),
  };
}
