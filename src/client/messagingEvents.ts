import type { z } from 'zod';
import {
  type ClientEventKind,
  type ClientEventType,
  clientEventSchema,
  clientPayloadSchemas,
  type ServerEvent,
  type ServerEventKind,
  type ServerEventNames,
  type SessionEndReason,
  serverEventSchema,
  serverPayloadSchemas,
  SYSTEM_ERRORS,
  type SystemMessageLevel,
} from '../contract/messaging';
import type { IDisposable } from '../core/disposable';
import { Emitter, type Event } from '../core/event';
import { PlatformError } from './errors';
import type { RecoveryAction } from './messagingRecovery';
import { oneText, ServerEventAliases } from './messagingUnknowns';

type Payloads = typeof serverPayloadSchemas;

/** The server event types the contract knows (the batch, and the echo of a user message, included). */
export type MessagingEventType = keyof Payloads;

/** A received event of one type, its payload typed by the contract (unknown extra fields are kept). */
export interface MessagingEventOf<T extends MessagingEventType> {
  id: string;
  type: T;
  timestamp: string;
  payload: z.output<Payloads[T]>;
  metadata: ServerEvent['metadata'];
}

/** Every received event the contract knows, discriminated by `type`. */
export type MessagingEvent = { [T in MessagingEventType]: MessagingEventOf<T> }[MessagingEventType];

/** An event the contract does not know, or one whose envelope or payload does not match it. */
export interface UnrecognizedEvent {
  raw: unknown;
  problem: string;
  /** An event of a type the contract does not know: its type. */
  type?: string;
  /** Such an event whose payload carries exactly one text field: that text (most likely an answer under another name). */
  text?: string;
}

/** Reads one server event against the contract. */
export function parseServerEvent(raw: unknown): { event: MessagingEvent } | { unrecognized: UnrecognizedEvent } {
  const envelope = serverEventSchema.safeParse(raw);
  if (!envelope.success) {
    return {
      unrecognized: {
        raw,
        problem: `the event lacks ${envelope.error.issues.map((i) => i.path.join('.') || 'its envelope').join(', ')}`,
      },
    };
  }
  const type = envelope.data.type;
  if (!Object.hasOwn(serverPayloadSchemas, type)) {
    const text = oneText(envelope.data.payload);
    return {
      unrecognized: { raw, problem: `unknown event type ${type}`, type, ...(text !== undefined ? { text } : {}) },
    };
  }
  const payload = serverPayloadSchemas[type as MessagingEventType].safeParse(envelope.data.payload);
  if (!payload.success) {
    return {
      unrecognized: {
        raw,
        problem: `${type} payload lacks ${payload.error.issues.map((i) => i.path.join('.') || 'fields').join(', ')}`,
      },
    };
  }
  return { event: { ...envelope.data, payload: payload.data } as MessagingEvent };
}

/** A system message, with its level; errors leave the connection open. */
export interface SystemMessage {
  /** As the platform gave it; without one, ERROR for the texts of the spec's error table, INFO otherwise. */
  level: SystemMessageLevel | (string & {});
  text: string;
  isError: boolean;
  event: MessagingEventOf<'EVENT_TYPE_SYSTEM_MESSAGE'>;
  /** What the session itself does about it (the spec's client action), when it does something. */
  sessionAction?: Exclude<RecoveryAction, 'none'>;
  /** The refusal of a client event the session sends by itself, which it does not send again in this session. */
  refused?: RefusedEvent;
}

/** A client event kind the platform refused: its name, and whether this is the first refusal of it here. */
export interface RefusedEvent {
  kind: ClientEventKind;
  type: string;
  first: boolean;
}

export type HandoffChange =
  { kind: 'started'; destination: string; reason: string } | { kind: 'ended'; reason: string };

/**
 * The agent's answer as it is known so far: `streaming` while chunks arrive (text is the
 * chunks joined in order), `complete` with the final text, `interrupted` when the platform
 * reported a streaming error before the complete message (text is what arrived).
 */
export interface AgentMessage {
  /** The platform's `message_id`, or one made here for an answer without it (`untagged-<n>`). */
  messageId: string;
  text: string;
  state: 'streaming' | 'complete' | 'interrupted';
  /** The custom metadata echoed on the event that brought this version. */
  custom?: Record<string, unknown>;
}

/**
 * Joins streamed chunks into the agent's message, tolerating chunks out of order or missing. Chunks without a
 * `message_id` belong to the answer being written, up to the next complete message without one; chunks without
 * an `index` are taken in the order they come.
 */
export class MessageAssembler {
  private readonly partial = new Map<string, string[]>();
  /** The answer being written without a message id, and how many such answers there were. */
  private untagged: string | undefined;
  private untaggedCount = 0;

  private idOf(messageId: string | undefined, ends: boolean): string {
    if (messageId !== undefined) return messageId;
    const id = (this.untagged ??= `untagged-${(this.untaggedCount += 1)}`);
    if (ends) this.untagged = undefined;
    return id;
  }

  chunk(payload: z.output<Payloads['EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK']>): AgentMessage {
    const messageId = this.idOf(payload.message_id, false);
    const chunks = this.partial.get(messageId) ?? [];
    if (payload.index === undefined) chunks.push(payload.text);
    else chunks[payload.index] = payload.text;
    this.partial.set(messageId, chunks);
    return { messageId, text: contiguous(chunks), state: 'streaming' };
  }

  /** The complete message replaces whatever chunks arrived (a replay after a reconnect has no chunks). */
  complete(payload: z.output<Payloads['EVENT_TYPE_VIRTUAL_AGENT_MESSAGE']>): AgentMessage {
    const messageId = this.idOf(payload.message_id, true);
    this.partial.delete(messageId);
    return { messageId, text: payload.text, state: 'complete' };
  }

  /** After a streaming error every unfinished message stays as it is, marked interrupted. */
  interrupt(text: string): AgentMessage[] {
    if (text !== SYSTEM_ERRORS.streamInterrupted) return [];
    const out = [...this.partial].map(([messageId, chunks]) => ({
      messageId,
      text: contiguous(chunks),
      state: 'interrupted' as const,
    }));
    this.partial.clear();
    return out;
  }
}

function withCustom(m: AgentMessage, event: MessagingEvent): AgentMessage {
  const { custom } = event.metadata;
  return custom ? { ...m, custom } : m;
}

/** The chunks from index 0 up to the first gap. */
function contiguous(chunks: readonly (string | undefined)[]): string {
  let text = '';
  for (const c of chunks) {
    if (c === undefined) break;
    text += c;
  }
  return text;
}

/** A history batch as received: how many events it held, how many were new here, the position after it. */
export interface HistoryBatch {
  events: number;
  fresh: number;
  cursor: number;
  /** The batch's payload had no list of events this client could find: why (its events are unknown, not none). */
  unreadable?: string;
}

/**
 * What a session hands to its listeners: each event once (replays repeat events, so they are
 * told apart by id), history positions tracked for the cursor, and the typed conveniences.
 */
export class SessionEvents implements IDisposable {
  private readonly _onEvent = new Emitter<MessagingEvent>();
  private readonly _onHistory = new Emitter<HistoryBatch>();
  private readonly _onMessage = new Emitter<AgentMessage>();
  private readonly _onTyping = new Emitter<boolean>();
  private readonly _onHandoff = new Emitter<HandoffChange>();
  private readonly _onSystemMessage = new Emitter<SystemMessage>();
  private readonly _onSessionEnd = new Emitter<{ reason: SessionEndReason | string }>();
  private readonly _onUnrecognizedEvent = new Emitter<UnrecognizedEvent>();
  readonly onEvent: Event<MessagingEvent> = this._onEvent.event;
  readonly onHistory: Event<HistoryBatch> = this._onHistory.event;
  readonly onMessage: Event<AgentMessage> = this._onMessage.event;
  readonly onTyping: Event<boolean> = this._onTyping.event;
  readonly onHandoff: Event<HandoffChange> = this._onHandoff.event;
  readonly onSystemMessage: Event<SystemMessage> = this._onSystemMessage.event;
  readonly onSessionEnd: Event<{ reason: SessionEndReason | string }> = this._onSessionEnd.event;
  readonly onUnrecognizedEvent: Event<UnrecognizedEvent> = this._onUnrecognizedEvent.event;

  private readonly seen = new Set<string>();
  private readonly assembler = new MessageAssembler();
  /** The position after the last history event delivered: the cursor to resume from. */
  cursor: number | undefined;
  /** The conversation the agent started when it joined, once the joined event was seen (when it names one). */
  conversationId: string | undefined;
  /** The agent-joined event was seen (live or in the history). */
  joined = false;
  private readonly aliases: ServerEventAliases;

  /** `names`: the names a person set for the server events the spec does not name. */
  constructor(names: Partial<ServerEventNames> = {}) {
    this.aliases = new ServerEventAliases(names);
  }

  /** From now on, events named `name` are read as the events of this kind. */
  useName(kind: ServerEventKind, name: string): void {
    this.aliases.set(kind, name);
  }

  /** Parses a received text; a batch is unpacked. Returns the event, or undefined when unusable. */
  parse(text: string): MessagingEvent | undefined {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this._onUnrecognizedEvent.fire({ raw: text, problem: 'not JSON' });
      return undefined;
    }
    const parsed = parseServerEvent(this.renamed(raw));
    if ('event' in parsed) return parsed.event;
    this.unrecognized(parsed.unrecognized);
    return undefined;
  }

  /**
   * Tells of an event this client cannot read, unless it was told before: a replay repeats those too, and one of
   * them shown again (an answer under a name not known here) would be a line twice. True when told.
   */
  private unrecognized(u: UnrecognizedEvent): boolean {
    const id = idOf(u.raw);
    if (id !== undefined && this.seen.has(id)) return false;
    if (id !== undefined) this.seen.add(id);
    this._onUnrecognizedEvent.fire(u);
    return true;
  }

  /** The event with the type it stands for, when a person named it so; as it came otherwise. */
  private renamed(raw: unknown): unknown {
    if (typeof raw !== 'object' || raw === null || !('type' in raw) || typeof raw.type !== 'string') return raw;
    const ours = this.aliases.ours(raw.type);
    return ours === raw.type ? raw : { ...raw, type: ours };
  }

  /** Forgets the session's history (a new session starts from nothing). */
  restart(): void {
    this.seen.clear();
    this.cursor = undefined;
    this.conversationId = undefined;
    this.joined = false;
  }

  /** True when a live history event skips positions (some were missed). */
  isAhead(event: MessagingEvent): boolean {
    const at = event.metadata.position;
    return at !== undefined && this.cursor !== undefined && at > this.cursor;
  }

  /**
   * Delivers the events of a history batch that were not delivered before, in order. Without a cursor
   * in the batch (ours, not the spec's), the position after it is counted from where it started.
   */
  history(events: readonly unknown[], batchCursor?: number): HistoryBatch {
    const start = this.cursor ?? 0;
    let fresh = 0;
    for (const raw of events) {
      const parsed = parseServerEvent(this.renamed(raw));
      if ('unrecognized' in parsed ? this.unrecognized(parsed.unrecognized) : this.deliver(parsed.event)) fresh += 1;
    }
    const cursor = batchCursor ?? Math.max(this.cursor ?? 0, start + events.length);
    this.cursor = cursor;
    const batch = { events: events.length, fresh, cursor };
    this._onHistory.fire(batch);
    return batch;
  }

  /** A history batch whose events could not be found: said so, with the cursor left where it was. */
  unreadableHistory(raw: unknown, problem: string): void {
    this._onUnrecognizedEvent.fire({ raw, problem: `the history batch cannot be read: ${problem}` });
    this._onHistory.fire({ events: 0, fresh: 0, cursor: this.cursor ?? 0, unreadable: problem });
  }

  /** Delivers an event unless it was delivered before; true when delivered. */
  deliver(event: MessagingEvent): boolean {
    // An event without an id cannot be told apart from its replay: it is delivered each time.
    if (event.id !== '' && this.seen.has(event.id)) return false;
    if (event.id !== '') this.seen.add(event.id);
    const at = event.metadata.position;
    if (at !== undefined && (this.cursor === undefined || at >= this.cursor)) this.cursor = at + 1;
    this._onEvent.fire(event);
    switch (event.type) {
      case 'EVENT_TYPE_VIRTUAL_AGENT_JOINED':
        this.joined = true;
        this.conversationId = event.payload.conversation_id ?? this.conversationId;
        break;
      case 'EVENT_TYPE_VIRTUAL_AGENT_TYPING':
        this._onTyping.fire(event.payload.typing);
        break;
      case 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK':
        this._onMessage.fire(withCustom(this.assembler.chunk(event.payload), event));
        break;
      case 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE':
        this._onMessage.fire(withCustom(this.assembler.complete(event.payload), event));
        break;
      case 'EVENT_TYPE_HANDOFF_STARTED':
        this._onHandoff.fire({ kind: 'started', destination: event.payload.destination, reason: event.payload.reason });
        break;
      case 'EVENT_TYPE_HANDOFF_ENDED':
        this._onHandoff.fire({ kind: 'ended', reason: event.payload.reason });
        break;
      case 'EVENT_TYPE_SYSTEM_MESSAGE': {
        const { text } = event.payload;
        const level =
          event.payload.level ?? (isSpecError(text) ? 'SYSTEM_MESSAGE_LEVEL_ERROR' : 'SYSTEM_MESSAGE_LEVEL_INFO');
        this._onSystemMessage.fire({ level, text, isError: level === 'SYSTEM_MESSAGE_LEVEL_ERROR', event });
        for (const m of this.assembler.interrupt(text)) this._onMessage.fire(m);
        break;
      }
      case 'SESSION_END':
        this._onSessionEnd.fire({ reason: event.payload.reason });
        break;
      default:
        break;
    }
    return true;
  }

  dispose(): void {
    for (const e of [
      this._onEvent,
      this._onHistory,
      this._onMessage,
      this._onTyping,
      this._onHandoff,
      this._onSystemMessage,
      this._onSessionEnd,
      this._onUnrecognizedEvent,
    ])
      e.dispose();
  }
}

/** The id of an event as it came (a non-empty string), if it has one. */
function idOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || !('id' in raw)) return undefined;
  return typeof raw.id === 'string' && raw.id !== '' ? raw.id : undefined;
}

/** True for a text of the spec's system-message error table. */
export function isSpecError(text: string): boolean {
  return text.startsWith(SYSTEM_ERRORS.notAllowedPrefix) || (Object.values(SYSTEM_ERRORS) as string[]).includes(text);
}

/** A client event as sent: its type, its payload, and optional custom metadata. */
export interface OutgoingEvent {
  type: ClientEventType;
  payload: Record<string, unknown>;
  metadata?: { custom: Record<string, unknown> };
}

/** Checks a client event against the contract before it is sent; names each field at fault. */
export function checkClientEvent(event: OutgoingEvent, operation: string): OutgoingEvent {
  const problems = [
    clientEventSchema.safeParse(event),
    clientPayloadSchemas[event.type].safeParse(event.payload),
  ].flatMap((r) => (r.success ? [] : r.error.issues));
  if (problems.length === 0) return event;
  throw new PlatformError({
    family: 'messaging',
    kind: 'invalidInput',
    operation,
    fieldErrors: problems.map((i) => ({
      field: i.path.length ? i.path.map(String).join('.') : '(event)',
      message: i.message,
    })),
  });
}
