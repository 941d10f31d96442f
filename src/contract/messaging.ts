import { z } from 'zod';
import { anyObjectSchema, extra, extraOr, openEnum } from './common';

/**
 * Messaging API (base {messaging_url}): an HTTP handshake (access token, session) and a
 * WebSocket of JSON events. Event types beyond the join request, payload shapes, streaming and
 * handoff events are not shown by the spec; ours are recorded in docs/api-assumptions.md.
 */

// ---- limits and fixed values ----

export const MESSAGING_PLATFORMS = ['web', 'ios', 'android', 'custom'] as const;
export const messagingPlatformSchema = z.enum(MESSAGING_PLATFORMS);
export type MessagingPlatform = z.infer<typeof messagingPlatformSchema>;

/** Simultaneous WebSocket connections per session (spec default). */
export const MAX_CONNECTIONS_PER_SESSION = 10;
/** Session inactivity expiry (spec: about 10 minutes). */
export const SESSION_INACTIVITY_MS = 10 * 60 * 1000;
/** The channel label messaging conversations are recorded with. */
export const MESSAGING_CHANNEL = 'WEBCHAT';

// ---- HTTP handshake ----

export const accessTokenReplySchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().int(),
  token_type: z.literal('Bearer'),
});
export type AccessTokenReply = z.infer<typeof accessTokenReplySchema>;

export const sessionRequestSchema = z.looseObject({
  streaming_enabled: z.boolean({ error: 'streaming_enabled must be a boolean' }).default(false),
  platform: z
    .enum(MESSAGING_PLATFORMS, { error: `platform must be one of ${MESSAGING_PLATFORMS.join(', ')}` })
    .default('web'),
});
export type SessionRequest = z.input<typeof sessionRequestSchema>;

export const sessionReplySchema = z.looseObject({ session_id: z.string().min(1) });
export type SessionReply = z.infer<typeof sessionReplySchema>;

/** Error body of the messaging HTTP endpoints and handshake: `message`, plus the fields at fault on a 400. */
export const messagingErrorBodySchema = z.looseObject({
  message: z.string(),
  errors: z.array(z.looseObject({ field: z.string(), message: z.string() })).optional(),
});
export type MessagingErrorBody = z.infer<typeof messagingErrorBodySchema>;

/** The exact texts of the spec's messaging HTTP error table. */
export const MESSAGING_HTTP_ERRORS = {
  missingAuthHeaders: 'Missing authentication headers',
  unknownConnectorToken: 'Connector token does not exist',
  hostMismatch: 'Failed to validate connector',
  connectorWithoutHost: 'Connector missing host domain',
  accessTokenFailed: 'Failed to create access token',
  missingAccessToken: 'Missing access token',
  invalidAccessToken: 'Invalid access token',
  parseError: 'Error parsing request',
  sessionFailed: 'Failed to create session',
  rateLimited: 'Rate limit exceeded',
} as const;

/** The exact texts of the WebSocket handshake refusals, with their statuses. */
export const HANDSHAKE_ERRORS = {
  sessionNotFound: { status: 404, message: 'session not found' },
  authenticationFailed: { status: 401, message: 'authentication failed' },
  connectionLimit: { status: 429, message: 'connection limit exceeded for session' },
  invalidParameters: { status: 400, message: 'invalid connection parameters' },
} as const;

// ---- WebSocket events ----

/**
 * The client event names. The spec shows only the join request; the other four are assumptions
 * (docs/api-assumptions.md, Messaging), kept in this one table that a person can override (the setting
 * agentWorkbench.messaging.clientEventNames) when the platform names them differently.
 */
export const ASSUMED_CLIENT_EVENT_NAMES = {
  userMessage: 'EVENT_TYPE_USER_MESSAGE',
  userTyping: 'EVENT_TYPE_USER_TYPING',
  requestHandoff: 'EVENT_TYPE_REQUEST_HANDOFF',
  endSession: 'EVENT_TYPE_END_SESSION',
} as const;
export type ClientEventKind = keyof typeof ASSUMED_CLIENT_EVENT_NAMES;
/** The names a session sends its four assumed client events under. */
export type ClientEventNames = Record<ClientEventKind, string>;
export { ASSUMED_SERVER_EVENT_NAMES, type ServerEventKind, type ServerEventNames } from './serverEventNames';
/** The one client event type the spec shows. */
export const JOIN_REQUEST_TYPE = 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN';

/** The five event types a client may send (as the local platform names them). */
export const CLIENT_EVENT_TYPES = [
  'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN',
  'EVENT_TYPE_USER_MESSAGE',
  'EVENT_TYPE_USER_TYPING',
  'EVENT_TYPE_REQUEST_HANDOFF',
  'EVENT_TYPE_END_SESSION',
] as const;
export type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number];

/** Event types only the server sends; a client sending one gets "Event type not allowed". */
export const SERVER_EVENT_TYPES = [
  'EVENT_TYPE_EVENT_BATCH',
  'EVENT_TYPE_VIRTUAL_AGENT_JOINED',
  'EVENT_TYPE_VIRTUAL_AGENT_TYPING',
  'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK',
  'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE',
  'EVENT_TYPE_HANDOFF_STARTED',
  'EVENT_TYPE_LIVE_AGENT_MESSAGE',
  'EVENT_TYPE_HANDOFF_ENDED',
  'EVENT_TYPE_SYSTEM_MESSAGE',
  'SESSION_END',
] as const;
export type ServerEventType = (typeof SERVER_EVENT_TYPES)[number];

export const SYSTEM_MESSAGE_LEVELS = ['SYSTEM_MESSAGE_LEVEL_INFO', 'SYSTEM_MESSAGE_LEVEL_ERROR'] as const;
export type SystemMessageLevel = (typeof SYSTEM_MESSAGE_LEVELS)[number];

/** The exact texts of the spec's system-message error table (the connection stays open). */
export const SYSTEM_ERRORS = {
  invalidFormat: 'Unknown event type or invalid message format',
  /** Followed by the type the client sent. */
  notAllowedPrefix: 'Event type not allowed: ',
  overload: 'Our system is experiencing high load. Please try again in a moment.',
  startFailed: "Sorry, I'm unable to start a conversation right now. Please try again later.",
  responseFailed: "Sorry, I'm having trouble responding right now. Please try again.",
  streamInterrupted: 'Sorry, I encountered an error. Please try again.',
  sessionNotFound: 'Error: Session not found',
  sessionLookupFailed: 'Error: Unable to retrieve session',
  connectorNotFound: 'Error: Connector not found',
  conversationNotFound: 'Error: Conversation not found',
  conversationIdNotFound: 'Error: Conversation ID not found in session',
  handoffConnectFailed: 'Sorry, we could not connect you to an agent. Please try again.',
  handoffForwardFailed: 'Failed to forward message to live agent',
  handoffNotInitiated: 'Sorry, handoff could not be initiated.',
} as const;

const customSchema = anyObjectSchema;

/** Client payloads, one per client event type. */
export const clientPayloadSchemas = {
  EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN: z.looseObject({}),
  EVENT_TYPE_USER_MESSAGE: z.looseObject({ text: z.string().min(1) }),
  EVENT_TYPE_USER_TYPING: z.looseObject({ typing: z.boolean() }),
  EVENT_TYPE_REQUEST_HANDOFF: z.looseObject({ reason: z.string().optional() }),
  EVENT_TYPE_END_SESSION: z.looseObject({ reason: z.string().optional() }),
} as const satisfies Record<ClientEventType, z.ZodType>;

/** What a client sends: type, payload, and optionally metadata.custom to be echoed back. */
export const clientEventSchema = z.looseObject({
  type: z.string(),
  payload: z.record(z.string(), z.unknown()),
  metadata: z.looseObject({ custom: customSchema.optional() }).optional(),
});
export type ClientEvent = z.infer<typeof clientEventSchema>;

/** An event time as text: ISO 8601 as given, a number read as seconds or milliseconds since 1970, '' when absent. */
const eventTime = z
  .union([z.string(), z.number()])
  .optional()
  .catch(undefined)
  .transform((v) =>
    typeof v === 'number' && Number.isFinite(v)
      ? new Date(v < 1e11 ? v * 1000 : v).toISOString()
      : typeof v === 'string'
        ? v
        : '',
  );

/**
 * Every received event: type and payload, and "id, timestamp and metadata" (MSG-23). Only the type is
 * required: an id may be a number or absent ('' then, and the event is not told apart from a replay),
 * a numeric timestamp is turned into ISO 8601, metadata and payload read as empty when absent.
 */
export const serverEventSchema = z.looseObject({
  id: z
    .union([z.string(), z.number()])
    .optional()
    .catch(undefined)
    .transform((v) => (v === undefined ? '' : String(v))),
  type: z.string(),
  timestamp: eventTime,
  payload: extraOr(z.record(z.string(), z.unknown()), {}),
  metadata: extraOr(
    z.looseObject({
      /** The custom metadata of the client event this event answers. */
      custom: extra(customSchema),
      /** Position in the session history (history events only, ours); resume with cursor = position + 1. */
      position: extra(z.number().int().nonnegative()),
    }),
    {},
  ),
});
export type ServerEvent = z.infer<typeof serverEventSchema>;

/** Server payloads, one per server event type (and the echo of a user message). */
export const serverPayloadSchemas = {
  /**
   * The history; `events` and `cursor` are ours (the spec shows no payload): without `cursor` the session counts the
   * events, without `events` it reads the payload's one list (messagingEvents.ts, historyEvents).
   */
  EVENT_TYPE_EVENT_BATCH: z.looseObject({
    // No default: a batch without `events` is read from its one list, or said unreadable (never read as empty).
    events: extra(z.array(z.unknown())),
    cursor: extra(z.number().int().nonnegative()),
  }),
  EVENT_TYPE_VIRTUAL_AGENT_JOINED: z.looseObject({ conversation_id: extra(z.string()), agent_name: extra(z.string()) }),
  EVENT_TYPE_VIRTUAL_AGENT_TYPING: z.looseObject({ typing: z.boolean() }),
  /**
   * Chunk and message shapes are ours (the spec shows none): only the text is needed. Without `message_id`, pieces
   * belong to the answer being written; without `index`, they come in order.
   */
  EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK: z.looseObject({
    message_id: extra(z.string()),
    index: extra(z.number().int().nonnegative()),
    text: z.string(),
  }),
  EVENT_TYPE_VIRTUAL_AGENT_MESSAGE: z.looseObject({ message_id: extra(z.string()), text: z.string() }),
  EVENT_TYPE_HANDOFF_STARTED: z.looseObject({ destination: z.string(), reason: z.string() }),
  EVENT_TYPE_LIVE_AGENT_MESSAGE: z.looseObject({
    message_id: extra(z.string()),
    text: z.string(),
    agent_name: extra(z.string()),
  }),
  EVENT_TYPE_HANDOFF_ENDED: z.looseObject({ reason: z.string() }),
  /** "system text with a level": both are read tolerantly (a missing level is decided from the text, see messagingEvents). */
  EVENT_TYPE_SYSTEM_MESSAGE: z.preprocess(
    (v) =>
      typeof v === 'object' && v !== null && !('text' in v) && 'message' in v
        ? { ...v, text: (v as { message: unknown }).message }
        : v,
    z.looseObject({ level: extra(openEnum(SYSTEM_MESSAGE_LEVELS)), text: extraOr(z.string(), '') }),
  ),
  /** The reason is ours; a session end without one is still an end. */
  SESSION_END: z.looseObject({ reason: extraOr(z.string(), 'not given') }),
  EVENT_TYPE_USER_MESSAGE: z.looseObject({ text: z.string() }),
} as const satisfies Record<ServerEventType | 'EVENT_TYPE_USER_MESSAGE', z.ZodType>;

/** Why a session ended, in SESSION_END payloads. */
export const SESSION_END_REASONS = [
  'ended_by_user',
  'conversation_ended',
  'inactivity',
  'session_not_found',
  'connector_not_found',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];
