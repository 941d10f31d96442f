import type { RequestLog } from '../../../src/client/transport';
import { MessagingClient } from '../../../src/client/messaging';
import type { AgentMessage, HistoryBatch, MessagingEvent, SystemMessage } from '../../../src/client/messagingEvents';
import type { MessagingSession, SessionState } from '../../../src/client/messagingSession';
import { messagingOf } from '../../../src/localPlatform/messaging/store';
import type { LocalPlatform } from '../../../src/localPlatform/server';
import { localContext } from '../../support/localClient';
import { LocalAdmin } from '../../support/localAdmin';

/** Fast reconnects, so that tests do not wait on the backoff. */
export const QUICK_RECONNECT = { retries: 5, baseMs: 5, maxMs: 20 };

/** Everything a session tells its listeners, in order. */
export interface Recording {
  events: MessagingEvent[];
  states: SessionState[];
  messages: AgentMessage[];
  system: SystemMessage[];
  histories: HistoryBatch[];
  ends: string[];
  expired: string[];
}

export function record(session: MessagingSession): Recording {
  const r: Recording = { events: [], states: [], messages: [], system: [], histories: [], ends: [], expired: [] };
  session.onEvent((e) => r.events.push(e));
  session.onStateChange((s) => r.states.push(s));
  session.onMessage((m) => r.messages.push(m));
  session.onSystemMessage((m) => r.system.push(m));
  session.onHistory((h) => r.histories.push(h));
  session.onSessionEnd((e) => r.ends.push(e.reason));
  session.onExpired((e) => r.expired.push(e.message));
  return r;
}

export function messaging(lp: LocalPlatform, logs?: RequestLog[]): MessagingClient {
  return new MessagingClient(localContext(lp, logs ? { logs } : {}));
}

/** The complete agent messages delivered, in order. */
export function agentTexts(r: Recording): string[] {
  return r.events.flatMap((e) => (e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE' ? [e.payload.text] : []));
}

export function count(r: Recording, type: MessagingEvent['type']): number {
  return r.events.filter((e) => e.type === type).length;
}

/** The session's history as the platform keeps it. */
export function serverHistory(lp: LocalPlatform, sessionId: string): Array<{ id: string; type: string }> {
  return messagingOf(lp.platform).sessions[sessionId]!.events.map((e) => ({ id: e.id, type: e.type }));
}

/** Open sockets of a session on the platform. */
export function connections(lp: LocalPlatform, sessionId: string): Promise<number> {
  return new LocalAdmin(lp.urls.admin)
    .messagingSessions()
    .then((sessions) => sessions.find((s) => s.session_id === sessionId)?.connections ?? 0);
}

/** Lets pending socket traffic settle: two admin round trips after the last expected event. */
export async function settle(lp: LocalPlatform): Promise<void> {
  const admin = new LocalAdmin(lp.urls.admin);
  for (let i = 0; i < 2; i++) await admin.health();
  await new Promise((r) => setTimeout(r, 150));
}
