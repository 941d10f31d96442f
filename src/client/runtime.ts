/**
 * Entry of the client bundle (`dist/client.js`). The extension loads it on first use, so zod,
 * undici and the contract stay out of activation. The UI imports only types from here.
 */
export { ChatClient } from './chat';
export { ClientContext } from './context';
export { DniClient } from './dni';
export { ExternalEventsClient } from './externalEvents';
export { AccessToken, MessagingClient } from './messaging';
export type { AgentMessage, HandoffChange, HistoryBatch, MessagingEvent, MessagingEventOf, SystemMessage, UnrecognizedEvent } from './messagingEvents';
export { MessagingSession, SessionClosedError } from './messagingSession';
export type { ClosedState, CloseReason, MessagingSessionOptions, SessionState } from './messagingSession';
export { OutboundClient } from './outbound';
export { probeConnection } from './probe';
export { Transport } from './transport';
export * as commonContract from '../contract/common';
export * as messagingContract from '../contract/messaging';
