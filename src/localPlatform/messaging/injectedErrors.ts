import { MESSAGING_HTTP_ERRORS, SYSTEM_ERRORS } from '../../contract/messaging';
import type { Fault } from '../faults';
import type { Platform } from '../platform';

/**
 * The messaging situations a fault can provoke (`messagingError` of an admin fault), each by a
 * short name or by its exact text. HTTP ones answer 500; the others send their system message.
 */
export const MESSAGING_FAULTS = {
  'access-token': MESSAGING_HTTP_ERRORS.accessTokenFailed,
  session: MESSAGING_HTTP_ERRORS.sessionFailed,
  overload: SYSTEM_ERRORS.overload,
  'start-failed': SYSTEM_ERRORS.startFailed,
  'response-failed': SYSTEM_ERRORS.responseFailed,
  'stream-interrupted': SYSTEM_ERRORS.streamInterrupted,
  'session-not-found': SYSTEM_ERRORS.sessionNotFound,
  'session-lookup': SYSTEM_ERRORS.sessionLookupFailed,
  'connector-not-found': SYSTEM_ERRORS.connectorNotFound,
  'conversation-not-found': SYSTEM_ERRORS.conversationNotFound,
  'conversation-id-not-found': SYSTEM_ERRORS.conversationIdNotFound,
  'handoff-connect': SYSTEM_ERRORS.handoffConnectFailed,
  'handoff-forward': SYSTEM_ERRORS.handoffForwardFailed,
  'handoff-init': SYSTEM_ERRORS.handoffNotInitiated,
} as const;

export type MessagingFaultName = keyof typeof MESSAGING_FAULTS;

function names(fault: Fault, name: MessagingFaultName): boolean {
  return fault.messagingError === name || fault.messagingError === MESSAGING_FAULTS[name];
}

/** Takes (counts down) an injected HTTP fault of this name for a messaging path. */
export function takeHttpFault(platform: Platform, name: MessagingFaultName, method: string, path: string): boolean {
  return platform.faults.take('messaging', method, path, (f) => names(f, name)) !== undefined;
}

/**
 * Takes an injected WebSocket fault for a session. Such faults are matched with method `WS`
 * and path `/ws/<session_id>`, so a fault's `path` can single out one session.
 */
export function takeSocketFault(platform: Platform, name: MessagingFaultName, sessionId: string): boolean {
  return platform.faults.take('messaging', 'WS', `/ws/${sessionId}`, (f) => names(f, name)) !== undefined;
}
