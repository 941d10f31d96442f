import type { ServerEvent } from '../contract/messaging';
import { minimalEvent } from './minimal';

/**
 * WebSocket events in the spec-only mode. The spec names the join request, the joined event, the history
 * batch, system messages and SESSION_END; those keep their names. It does not name the answer, its chunks,
 * typing or handoff events, nor shows an echo of the user's message or the batch's payload shape, so here
 * they differ from ours: a client that only works with our names, our echo or our batch shape fails here.
 */

/** Our names of the events the spec does not name, and the names the spec-only mode sends instead. */
export const SPEC_ONLY_EVENT_NAMES: Readonly<Record<string, string>> = {
  EVENT_TYPE_VIRTUAL_AGENT_MESSAGE: 'EVENT_TYPE_BOT_RESPONSE',
  EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK: 'EVENT_TYPE_BOT_RESPONSE_PART',
  EVENT_TYPE_VIRTUAL_AGENT_TYPING: 'EVENT_TYPE_BOT_TYPING_STATUS',
  EVENT_TYPE_HANDOFF_STARTED: 'EVENT_TYPE_TRANSFER_STARTED',
  EVENT_TYPE_LIVE_AGENT_MESSAGE: 'EVENT_TYPE_HUMAN_AGENT_RESPONSE',
  EVENT_TYPE_HANDOFF_ENDED: 'EVENT_TYPE_TRANSFER_ENDED',
};

/** The one key under which the spec-only batch carries its replayed events (ours: `events`). */
export const SPEC_ONLY_BATCH_KEY = 'history';

/**
 * Client events of ours the spec-only mode refuses as of an unknown type ("Unknown event type or invalid message
 * format"): the spec shows no typing indicator from a client, so a client must do without it being accepted. The
 * join, the message, the handoff request and the end are taken under our names, or nobody could talk to it.
 */
export const SPEC_ONLY_REFUSED_CLIENT_TYPES: ReadonlySet<string> = new Set(['EVENT_TYPE_USER_TYPING']);

/** Ours, not the spec's: the echo of the user's message, never sent in the spec-only mode. */
const USER_MESSAGE_ECHO = 'EVENT_TYPE_USER_MESSAGE';

/**
 * An event as the spec-only mode sends it, or undefined when it is not sent at all (the echo): the minimal
 * mode's envelope, the unnamed types renamed, and a batch's events (echoes left out) under `history`.
 */
export function specOnlyEvent(event: ServerEvent): ServerEvent | undefined {
  if (event.type === USER_MESSAGE_ECHO) return undefined;
  const { events, ...rest } = event.payload;
  const payload = Array.isArray(events)
    ? { ...rest, [SPEC_ONLY_BATCH_KEY]: (events as ServerEvent[]).flatMap((e) => specOnlyEvent(e) ?? []) }
    : event.payload;
  const thin = minimalEvent({ ...event, payload });
  return { ...thin, type: SPEC_ONLY_EVENT_NAMES[event.type] ?? event.type };
}
