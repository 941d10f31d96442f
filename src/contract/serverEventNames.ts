// Without zod, so the editor's settings can name the events without loading the client's schemas.

/**
 * The server event names the spec does not show (it names the history batch, the joined event, system messages
 * and SESSION_END only): ours, kept in this one table that a person can override (the setting
 * agentWorkbench.messaging.serverEventNames) when the platform names them differently. A name set there is read
 * as the event it stands for; ours are still read too.
 */
export const ASSUMED_SERVER_EVENT_NAMES = {
  agentMessage: 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE',
  agentMessageChunk: 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK',
  agentTyping: 'EVENT_TYPE_VIRTUAL_AGENT_TYPING',
  liveAgentMessage: 'EVENT_TYPE_LIVE_AGENT_MESSAGE',
  handoffStarted: 'EVENT_TYPE_HANDOFF_STARTED',
  handoffEnded: 'EVENT_TYPE_HANDOFF_ENDED',
  userMessageEcho: 'EVENT_TYPE_USER_MESSAGE',
} as const;
export type ServerEventKind = keyof typeof ASSUMED_SERVER_EVENT_NAMES;
/** The names a session reads the assumed server events under. */
export type ServerEventNames = Record<ServerEventKind, string>;
