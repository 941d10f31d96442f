import { soleItem } from '../core/arrays';
import { ASSUMED_SERVER_EVENT_NAMES, type ServerEventKind, type ServerEventNames } from '../contract/messaging';

/**
 * Reading what the spec does not show of the messaging WebSocket: the names of the events it does not name, the
 * shape of the history batch's payload, and events of a name nobody told us (docs/api-assumptions.md, Messaging).
 */

/** The events of a history batch: `events` when it has that list, else its one list; otherwise why it cannot be read. */
export function historyEvents(payload: Record<string, unknown>): { events: unknown[] } | { unreadable: string } {
  if (Array.isArray(payload.events)) return { events: payload.events };
  const lists = Object.entries(payload).filter(([, v]) => Array.isArray(v));
  const [only, ...others] = lists;
  if (only && others.length === 0 && Array.isArray(only[1])) return { events: only[1] };
  const keys = Object.keys(payload);
  return {
    unreadable:
      lists.length === 0
        ? `its payload holds no list of events (${keys.length ? `fields: ${keys.join(', ')}` : 'empty'})`
        : `its payload holds ${lists.length} lists (${lists.map(([k]) => k).join(', ')}) and none is named events`,
  };
}

/** A field that holds what someone says, by its name. */
const TEXT_FIELD = /text|message|content|body|answer|response|reply|utterance/i;

/**
 * The text of a payload that carries exactly one text field (a string under a name such as `text`, `message` or
 * `content`): most likely an answer under a name we do not know. Undefined otherwise, so that an event of some
 * other kind (a survey's `{survey: "csat"}`) is not taken for one.
 */
export function oneText(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const texts = Object.entries(payload).flatMap(([k, v]) => (typeof v === 'string' && TEXT_FIELD.test(k) ? [v] : []));
  return soleItem(texts);
}

/**
 * Which of our event types a received type stands for: the names a person set, as well as ours. Our own names
 * always read as themselves, so setting a name never stops a platform that uses ours from being understood.
 */
export class ServerEventAliases {
  private readonly toOurs = new Map<string, string>();

  constructor(names: Partial<ServerEventNames> = {}) {
    for (const [kind, name] of Object.entries(names)) if (name) this.set(kind as ServerEventKind, name);
  }

  /** From now on, `name` is read as the event of this kind. */
  set(kind: ServerEventKind, name: string): void {
    const ours = ASSUMED_SERVER_EVENT_NAMES[kind];
    if (name !== ours) this.toOurs.set(name, ours);
  }

  /** Our type for a received one (itself when no alias names it). */
  ours(type: string): string {
    return this.toOurs.get(type) ?? type;
  }
}
