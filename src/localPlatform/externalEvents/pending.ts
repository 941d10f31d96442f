import { randomBytes } from 'node:crypto';
import { EXTERNAL_EVENTS_STATE_KEY } from '../../contract/externalEvents';
import type { Platform } from '../platform';
import type { StoredConversation } from '../state';

/** An external event id a conversation waits on (the agent started an external workflow). */
export interface PendingExternalEvent {
  event_id: string;
  conversation_id: string;
  registered_at: string;
}

/** A result that arrived, kept for the admin view. */
export interface DeliveredExternalEvent {
  event_id: string;
  conversation_id: string;
  received_at: string;
  content_type: string;
}

interface ExternalEventsSection {
  pending: Record<string, PendingExternalEvent>;
  delivered: DeliveredExternalEvent[];
}

/** How many delivered events the admin view keeps. */
const DELIVERED_KEPT = 200;

export class ExternalEventError extends Error {}

function section(platform: Platform): ExternalEventsSection {
  return platform.section<ExternalEventsSection>('externalEvents', () => ({ pending: {}, delivered: [] }));
}

/**
 * Makes a conversation wait on an external event id, as the agent does when it starts an
 * external workflow; the id is generated when not given. Throws when the conversation is
 * unknown or over, or the id already waits.
 */
export function awaitExternalEvent(platform: Platform, conversationId: string, eventId?: string): PendingExternalEvent {
  const conv = platform.findConversation(conversationId);
  if (!conv) throw new ExternalEventError(`Conversation not found: ${conversationId}`);
  if (!conv.in_progress) throw new ExternalEventError(`Conversation ${conversationId} is not in progress`);
  const id = eventId ?? `evt_${randomBytes(12).toString('hex')}`;
  const pending = section(platform).pending;
  if (Object.hasOwn(pending, id)) throw new ExternalEventError(`Event id ${id} is already pending`);
  const record: PendingExternalEvent = { event_id: id, conversation_id: conv.id, registered_at: platform.now() };
  Object.defineProperty(pending, id, { value: record, enumerable: true, writable: true, configurable: true });
  platform.mutated();
  return record;
}

export function listExternalEvents(platform: Platform): {
  pending: PendingExternalEvent[];
  delivered: DeliveredExternalEvent[];
} {
  const s = section(platform);
  return { pending: Object.values(s.pending), delivered: [...s.delivered] };
}

/**
 * The in-progress conversation of the key's project waiting on this id, or an error saying why
 * the id is not usable (EXT-5: unknown or invalid event id).
 */
export function conversationWaitingOn(
  platform: Platform,
  eventId: string,
  projectId: string | undefined,
): StoredConversation {
  const pending = section(platform).pending;
  const record = Object.hasOwn(pending, eventId) ? pending[eventId] : undefined;
  const conv = record ? platform.findConversation(record.conversation_id) : undefined;
  if (!record || !conv || (projectId !== undefined && conv.project_id !== projectId)) {
    throw new ExternalEventError(`Unknown event id: ${eventId} (no conversation is waiting on it)`);
  }
  if (!conv.in_progress)
    throw new ExternalEventError(`Invalid event id: ${eventId} belongs to a conversation that has ended`);
  return conv;
}

/**
 * Binds a result to its conversation (EXT-4): `state.external_events[event_id] = payload`,
 * `state.last_external_event_id` names the newest, the id stops waiting, and listeners hear
 * of the change so the agent can continue.
 */
export function deliverExternalEvent(
  platform: Platform,
  conv: StoredConversation,
  eventId: string,
  payload: unknown,
  contentType: string,
): DeliveredExternalEvent {
  const s = section(platform);
  const previous = conv.state[EXTERNAL_EVENTS_STATE_KEY];
  const events: Record<string, unknown> =
    typeof previous === 'object' && previous !== null && !Array.isArray(previous)
      ? (previous as Record<string, unknown>)
      : {};
  Object.defineProperty(events, eventId, { value: payload, enumerable: true, writable: true, configurable: true });
  conv.state[EXTERNAL_EVENTS_STATE_KEY] = events;
  conv.state.last_external_event_id = eventId;
  Reflect.deleteProperty(s.pending, eventId);
  const delivered: DeliveredExternalEvent = {
    event_id: eventId,
    conversation_id: conv.id,
    received_at: platform.now(),
    content_type: contentType,
  };
  s.delivered.push(delivered);
  if (s.delivered.length > DELIVERED_KEPT) s.delivered.splice(0, s.delivered.length - DELIVERED_KEPT);
  platform.conversationChanged(conv);
  return delivered;
}
