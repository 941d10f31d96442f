import type { WebSocket } from 'ws';
import { type ServerEvent, type ServerEventType, type SessionEndReason } from '../../contract/messaging';
import { chunkAnswer } from '../engine/chunker';
import type { Platform } from '../platform';
import { StreamChaos } from './chaos';
import type { SocketHub } from './socketHub';
import { findSession, nextEventId, type StoredSession } from './store';

type Custom = Record<string, unknown> | undefined;
type OutType = ServerEventType | 'EVENT_TYPE_USER_MESSAGE';

/** Types kept in a session's history and replayed on reconnect; the rest are momentary. */
const HISTORY_TYPES: ReadonlySet<OutType> = new Set<OutType>([
  'EVENT_TYPE_VIRTUAL_AGENT_JOINED',
  'EVENT_TYPE_USER_MESSAGE',
  'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE',
  'EVENT_TYPE_HANDOFF_STARTED',
  'EVENT_TYPE_LIVE_AGENT_MESSAGE',
  'EVENT_TYPE_HANDOFF_ENDED',
  'SESSION_END',
]);

/** Events answering a socket whose session is unknown get ids from this counter. */
let orphanEvents = 0;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Builds server events (id, timestamp, metadata with the echoed custom metadata), keeps the
 * history ones in the session's log, and delivers them through the hub.
 */
export class Outbox {
  /** The drops and delays of `chaos` faults, made while answers stream. */
  readonly chaos: StreamChaos;

  constructor(
    private readonly platform: Platform,
    private readonly hub: SocketHub,
  ) {
    this.chaos = new StreamChaos(platform, hub);
  }

  /** Sends an event to every socket of the session; history types are logged first. */
  emit(session: StoredSession, type: OutType, payload: Record<string, unknown>, custom?: Custom): ServerEvent {
    const event = this.make(session, type, payload, custom);
    if (HISTORY_TYPES.has(type)) {
      event.metadata.position = session.events.length;
      session.events.push(event);
      this.platform.mutated();
    }
    this.hub.broadcast(session.id, event);
    return event;
  }

  /** Sends a momentary event to one socket. */
  sendTo(
    ws: WebSocket,
    session: StoredSession | undefined,
    type: OutType,
    payload: Record<string, unknown>,
    custom?: Custom,
  ): void {
    this.hub.send(ws, this.make(session, type, payload, custom));
  }

  /** A system message with level SYSTEM_MESSAGE_LEVEL_ERROR to the socket that caused it; the socket stays open. */
  error(ws: WebSocket, session: StoredSession | undefined, text: string, custom?: Custom): void {
    this.sendTo(ws, session, 'EVENT_TYPE_SYSTEM_MESSAGE', { level: 'SYSTEM_MESSAGE_LEVEL_ERROR', text }, custom);
  }

  /**
   * The history batch sent on connect, from a cursor (the position of the first event to
   * replay). A cursor that is not a whole number within the history replays from 0 (MSG-18).
   */
  batch(ws: WebSocket, session: StoredSession, cursor: string | null): void {
    const n = cursor !== null && /^\d+$/.test(cursor) ? Number(cursor) : NaN;
    const from = Number.isSafeInteger(n) && n <= session.events.length ? n : 0;
    this.sendTo(ws, session, 'EVENT_TYPE_EVENT_BATCH', {
      events: session.events.slice(from),
      cursor: session.events.length,
    });
  }

  /**
   * The agent says something: a typing indicator, then, when the session streams, the answer in
   * chunks (with the platform's stream delay between them), then the complete message.
   * `interrupt` stops after the first half of the chunks and reports the streaming error instead.
   */
  async agentSays(session: StoredSession, text: string, custom: Custom, interrupt?: () => void): Promise<void> {
    this.emit(session, 'EVENT_TYPE_VIRTUAL_AGENT_TYPING', { typing: true }, custom);
    const messageId = `msg-${nextEventId(session)}`;
    if (session.streaming || interrupt) {
      this.chaos.streams(session.id, true);
      try {
        if (!(await this.streamPieces(session, messageId, text, custom, interrupt !== undefined))) return;
      } finally {
        this.chaos.streams(session.id, false);
      }
      if (interrupt) {
        interrupt();
        return;
      }
    }
    this.emit(session, 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE', { message_id: messageId, text }, custom);
  }

  /** The pieces of an answer, the first half only when `half`; false when the session ended meanwhile. */
  private async streamPieces(
    session: StoredSession,
    messageId: string,
    text: string,
    custom: Custom,
    half: boolean,
  ): Promise<boolean> {
    const chunks = chunkAnswer(text);
    const upTo = half ? Math.max(1, Math.floor(chunks.length / 2)) : chunks.length;
    for (let index = 0; index < upTo; index++) {
      if (this.platform.options.streamDelayMs > 0) await sleep(this.platform.options.streamDelayMs);
      // Stop when the session ended, or was dropped by a reset (the state no longer holds this object).
      if (session.status !== 'active' || findSession(this.platform, session.id) !== session) return false;
      this.chaos.beforePiece(session.id);
      this.emit(
        session,
        'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK',
        { message_id: messageId, index, text: chunks[index]! },
        custom,
      );
    }
    return true;
  }

  /** Ends the session: SESSION_END to every socket, which are then closed normally. */
  end(session: StoredSession, reason: SessionEndReason, custom?: Custom): void {
    if (session.status === 'active') session.status = reason === 'inactivity' ? 'expired' : 'ended';
    this.emit(session, 'SESSION_END', { reason }, custom);
    this.hub.close(session.id, 1000, 'session ended');
    this.platform.mutated();
  }

  private make(
    session: StoredSession | undefined,
    type: OutType,
    payload: Record<string, unknown>,
    custom: Custom,
  ): ServerEvent {
    return {
      id: session ? nextEventId(session) : `evt-${(orphanEvents += 1)}`,
      type,
      timestamp: this.platform.now(),
      payload,
      metadata: custom ? { custom } : {},
    };
  }
}
