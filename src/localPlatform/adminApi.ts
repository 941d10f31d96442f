import type { z } from 'zod';
import type { Behavior, Branch, Topic } from '../contract/agents';
import type { MessagingPlatform, ServerEvent } from '../contract/messaging';
import type { OutboundCallStatus } from '../contract/outbound';
import type { adminEditSchema, adminGenerateAgentsSchema } from './agents/adminRoutes';
import type { RuleChange } from './alerts/evaluator';
import type { AlertsSwitches, DeliveryStatus, StoredDelivery } from './alerts/model';
import type { DniReservation } from './dni/pool';
import type { DeliveredExternalEvent, PendingExternalEvent } from './externalEvents/pending';
import type { Fault } from './faults';
import type { ChaosTally } from './messaging/chaos';
import type { ResponsesMode } from './responsesMode';
import type { PlatformOptions } from './platform';
import type { LoggedRequest } from './requestLog';
import type { LOCAL_CONNECTORS, LOCAL_KEYS, LocalProjectCredentials } from './seed/credentials';
import type { SeedName } from './seed/seeds';
import type { ProjectSettings, StoredConnector, StoredTurn } from './state';
import type { ReceivedMessage, StoredSession } from './messaging/store';

/**
 * The requests and answers of the admin API (`/_local/...`), which the local platform serves to tests and
 * demos only. The routes (admin.ts and each family's admin routes) answer these shapes, and the tests' client
 * of the admin API sends and reads them, so the two cannot drift apart.
 */

/** Where the admin API sits below the local platform's origin. */
export const ADMIN_PREFIX = '/_local';

export interface OkReply {
  ok: true;
}

/** `GET /health`; pid says which process serves (the editor runs its local platform in a child process). */
export interface HealthReply extends OkReply {
  now: string;
  pid: number;
}

/** `GET /connection`: what an editor needs to connect: the three bases (relative to the origin) and credentials. */
export interface ConnectionReply {
  bases: { runtime: string; build: string; messaging: string };
  accountId: string;
  projectId: string;
  keys: typeof LOCAL_KEYS;
  connectors: typeof LOCAL_CONNECTORS;
  /** Every project of the account with its runtime keys and the agent it serves; the first is `projectId`'s. */
  projects: LocalProjectCredentials[];
  /** Which data the platform holds: another id after a reset, a new seed or a restart without a data folder. */
  dataId: string;
}

/** `POST /reset`: the state seeded again, faults cleared, the clock back to the wall clock. */
export interface ResetRequest {
  seed?: SeedName;
}
export interface ResetReply extends OkReply {
  seed: SeedName;
}

/** `POST /faults`: a fault without its id; the family defaults to `any`. */
export type FaultRequest = Omit<Fault, 'id' | 'family'> & { family?: Fault['family'] };
/** `GET /faults`. */
export interface FaultsReply {
  faults: readonly Fault[];
}

/** `GET /requests`: what the families were asked after `since` (a seq), by base and a part of the path. */
export interface RequestsQuery {
  since?: number;
  path?: string;
  base?: string;
}
export interface RequestsReply {
  requests: LoggedRequest[];
}

/** `POST /clock`: move the platform clock by `advanceMs`, or `set` it to an ISO 8601 instant. */
export type ClockRequest = { advanceMs: number } | { set: string };
/** `GET|POST /clock`. */
export interface ClockReply {
  now: string;
  offsetMs: number;
}

/** `PATCH /options`: numeric options of the running platform; answers all of them. */
export type OptionsRequest = Partial<PlatformOptions>;
export type OptionsReply = PlatformOptions;

/** `PATCH /projects/{project}/settings`, by the project's id or slug; answers all of the project's settings. */
export type ProjectSettingsReply = ProjectSettings;
export type ProjectSettingsRequest = Partial<ProjectSettings>;

/** `GET|PUT /responses`: full answers or only what the spec shows (kept across resets). */
export interface ResponsesReply {
  mode: ResponsesMode;
}

/** `POST /agents/{agent}/branches/{branch}/edit`: a teammate's edit of a branch. */
export type BranchEditRequest = z.input<typeof adminEditSchema>;
export interface BranchEditReply {
  branch: Branch;
  behavior: Behavior;
  topics: Topic[];
}

/** `POST /agents/generate`: many agents of the seeded account at once (load figures). */
export type GenerateAgentsRequest = z.input<typeof adminGenerateAgentsSchema>;
export interface GeneratedAgentsReply {
  created: number;
  /** Agents on the platform now, of every account. */
  total: number;
}

/** A turn of a recorded conversation: anything left out is filled in, times follow the turn before. */
export type TurnRequest = Omit<Partial<StoredTurn>, 'entities'> & { entities?: Record<string, unknown> };

/** `POST /conversations`: a conversation recorded as given (any text, any number of turns). */
export interface ConversationRequest {
  id?: string;
  environment?: 'live' | 'sandbox' | 'pre-release';
  started_at?: string;
  variant_id?: string;
  variant_name?: string;
  channel?: string;
  from_number?: string | null;
  to_number?: string | null;
  in_progress?: boolean;
  total_duration?: number;
  polyai_duration?: number;
  handoff?: boolean;
  handoff_reason?: string | null;
  handoff_destination?: string | null;
  metrics?: Record<string, unknown>;
  state?: Record<string, unknown>;
  turns?: TurnRequest[];
}
export interface ConversationReply {
  id: string;
  turns: number;
}

/** `POST /conversations/generate`: many finished conversations like the demo week's, spread over a range. */
export interface GenerateConversationsRequest {
  count: number;
  start_time: string;
  end_time: string;
  environment?: 'live' | 'sandbox' | 'pre-release';
  /** The same seed makes the same conversations (1 unless given). */
  seed?: number;
}
export interface GeneratedConversationsReply {
  created: number;
  /** Conversations stored now. */
  total: number;
}

/** `POST /conversations/{id}/turns`: turns added; `in_progress: false` ends the conversation. */
export interface TurnsRequest {
  turns?: TurnRequest[];
  in_progress?: false;
}
export interface TurnsReply {
  id: string;
  turns: number;
  in_progress: boolean;
}

/** `POST /alerts/evaluate`: the rules evaluated now, with the deliveries each change sent. */
export interface EvaluationReply {
  evaluated_at: string;
  evaluated: number;
  changes: Array<RuleChange & { deliveries: string[] }>;
}

/** `GET /webhook-deliveries`, by endpoint and status. */
export interface DeliveriesQuery {
  endpoint_id?: string;
  status?: DeliveryStatus;
}
export interface DeliveriesReply {
  deliveries: StoredDelivery[];
}

/** `GET|PATCH /alerts/switches`: the alerts family's failure paths. */
export type AlertsSwitchesReply = AlertsSwitches;
export type AlertsSwitchesRequest = Partial<AlertsSwitches>;

/** `GET /dni/reservations`: the numbers reserved now. */
export interface DniReservationsReply {
  reservations: DniReservation[];
}
/** `POST /dni/{number}/call`: a call arriving on a reserved number. */
export interface DniCallRequest {
  from_number?: string;
}
export interface DniCallReply {
  conversation_id: string;
  agent_id: string;
  greeting: string;
  attributes: Record<string, unknown>;
}

/** `GET /outbound/calls`; `POST /outbound/calls/{sid}/answer|hangup` answer the call's status. */
export interface OutboundCallsReply {
  calls: OutboundCallStatus[];
}

/** One messaging session as `GET /messaging/sessions` lists it. */
export interface MessagingSessionView {
  session_id: string;
  status: StoredSession['status'];
  joined: boolean;
  conversation_id: string | null;
  streaming_enabled: boolean;
  platform: MessagingPlatform;
  events: number;
  connections: number;
  in_handoff: boolean;
  /** The drops and delays `chaos` faults made in the session while its answers streamed. */
  chaos: ChaosTally;
}
export interface MessagingSessionsReply {
  sessions: MessagingSessionView[];
}

/** `GET /messaging/sessions/{id}/messages`: every user message the session's WebSocket took in, in order. */
export interface ReceivedMessagesReply {
  messages: ReceivedMessage[];
}

/** `POST /messaging/sessions/{id}/events`: one event of any type to the session's open sockets. */
export interface SessionEventRequest {
  type: string;
  payload?: Record<string, unknown>;
}
export interface SessionEventReply {
  event: ServerEvent;
  connections: number;
}

export type HandoffMode = NonNullable<StoredConnector['handoffMode']>;

/** `PATCH /messaging/connectors/{id}`: a webchat connector's handoff behaviour and host, or a Chat connector's handoff destination. */
export interface ConnectorRequest {
  handoffMode?: HandoffMode;
  hostDomain?: string | null;
  appNamespace?: string | null;
  handoffDestination?: string | null;
}
export interface ConnectorReply {
  id: string;
  handoffMode: HandoffMode;
  hostDomain: string | null;
  appNamespace: string | null;
  handoffDestination: string | null;
}

/** `GET /external-events`. */
export interface ExternalEventsReply {
  pending: PendingExternalEvent[];
  delivered: DeliveredExternalEvent[];
}
/** `POST /external-events/pending`: a conversation in progress waits on an event id (a new one when not given). */
export interface PendingEventRequest {
  conversation_id: string;
  event_id?: string;
}
export type PendingEventReply = PendingExternalEvent;

/** `GET /concurrency/queries`: the query strings the Concurrent Calls API received, oldest first. */
export interface ConcurrencyQueriesReply {
  queries: Array<Record<string, string>>;
}
