/**
 * Entry of the client bundle (`dist/client.js`). The extension loads it on first use, so zod,
 * undici and the contract stay out of activation. The UI imports only types from here.
 */
export { AgentsClient } from './agents';
export { AlertsClient } from './alerts';
export { ChatClient } from './chat';
export { ConcurrencyClient } from './concurrency';
export { ClientContext } from './context';
export { ConversationsClient } from './conversations';
export { DniClient } from './dni';
export { ExternalEventsClient } from './externalEvents';
export { AccessToken } from './accessToken';
export { MessagingClient } from './messaging';
export type {
  AgentMessage,
  HandoffChange,
  HistoryBatch,
  MessagingEvent,
  MessagingEventOf,
  SystemMessage,
  UnrecognizedEvent,
} from './messagingEvents';
export type { RecoveryAction, SessionRecovery } from './messagingRecovery';
export { MessagingSession, SessionClosedError } from './messagingSession';
export type { ClosedState, CloseReason, MessagingSessionOptions, SessionState } from './messagingSession';
export { OutboundClient } from './outbound';
export { probeConnection } from './probe';
export { Transport, transportFor } from './transport';
export * as commonContract from '../contract/common';
export * as agentsContract from '../contract/agents';
export * as alertsContract from '../contract/alerts';
export * as conversationsContract from '../contract/conversations';
export * as concurrencyContract from '../contract/concurrency';
export * as messagingContract from '../contract/messaging';
export * as outboundContract from '../contract/outbound';
export * as dniContract from '../contract/dni';
export * as externalEventsContract from '../contract/externalEvents';
