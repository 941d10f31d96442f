import { randomBytes } from 'node:crypto';
import type { MessagingPlatform, ServerEvent } from '../../contract/messaging';
import type { Environment } from '../agents/model';
import type { Platform } from '../platform';

/** A messaging session as kept in the platform's state (plain JSON, so history survives a restart). */
export interface StoredSession {
  id: string;
  connectorId: string;
  /** The access token (its `jti`) the session belongs to: the WebSocket must present it. */
  tokenId: string;
  accountId: string;
  projectId: string;
  agentId: string;
  environment: Environment;
  streaming: boolean;
  platform: MessagingPlatform;
  userAgent: string | null;
  createdAt: string;
  /** Platform-clock ms of the last client activity; inactivity expiry counts from here. */
  lastActivityMs: number;
  status: 'active' | 'expired' | 'ended';
  conversationId: string | null;
  joined: boolean;
  handoff: { destination: string; reason: string; liveAgentName: string } | null;
  /** The history replayed on connect; an event's position is its index. */
  events: ServerEvent[];
  /** Counter for the ids of events that are not kept in the history (chunks, typing, system messages). */
  seq: number;
  /** Every user message the WebSocket took in (past its rate limit), in order: what a test counts. */
  received?: ReceivedMessage[];
}

/** A user message as the platform received it. */
export interface ReceivedMessage {
  text: string;
  custom?: Record<string, unknown>;
}

export interface MessagingSection {
  /** HS256 secret of the access tokens; a reset makes a new one, so old tokens stop working. */
  secret: string;
  sessions: Record<string, StoredSession>;
}

export function messagingOf(platform: Platform): MessagingSection {
  return platform.section<MessagingSection>('messaging', () => ({
    secret: randomBytes(32).toString('base64url'),
    sessions: {},
  }));
}

export function findSession(platform: Platform, id: string): StoredSession | undefined {
  return Object.hasOwn(messagingOf(platform).sessions, id) ? messagingOf(platform).sessions[id] : undefined;
}

/** True when the session has had no activity for longer than the inactivity limit (platform clock). */
export function isIdle(platform: Platform, session: StoredSession): boolean {
  return platform.clock.now() - session.lastActivityMs > platform.options.sessionInactivityMs;
}

export function newSessionId(): string {
  return `ses_${randomBytes(12).toString('hex')}`;
}

/** An id for an event of a session. */
export function nextEventId(session: StoredSession): string {
  session.seq += 1;
  return `${session.id}-${session.seq}`;
}
