import { randomUUID } from 'node:crypto';
import { type AgentsState, emptyAgentsState, type Environment } from './agents/model';

/** Everything the local platform knows. Plain JSON, so it can be persisted and reset. */

export interface StoredAccount {
  /** Prefixed form, `ACCOUNT-xxxxxxx`. */
  id: string;
  /** Slug form, as in the studio address. */
  slug: string;
  name: string;
}

export interface ProjectSettings {
  /** Conversation transcript visibility; off gives empty `turns` (CONV-18). */
  transcriptVisibility: boolean;
  /** Response metrics enabled for the Conversations API; none gives `metrics: {}` (CONV-19). */
  responseMetrics: string[];
  /** v1 field whitelisting: v1 records only carry id, started_at, account_id, project_id (CONV-17). */
  v1FieldWhitelist: boolean;
  /** Translation enabled: turns carry translated_user_input / english_agent_response. */
  translation: boolean;
}

export interface StoredProject {
  /** Prefixed form, `PROJECT-xxxxxxxx`. */
  id: string;
  slug: string;
  accountId: string;
  name: string;
  settings: ProjectSettings;
}

/** Which API a key opens. */
export type KeyFamily = 'agents' | 'alerts' | 'conversations' | 'chat' | 'externalEvents' | 'dni';

export interface StoredApiKey {
  key: string;
  family: KeyFamily;
  accountId: string;
  /** Project scope (conversations, chat, external events). */
  projectId?: string;
  /** DNI keys are tied to one agent. */
  agentId?: string;
  /** Chat keys are provisioned for one environment. */
  environment?: Environment;
  /** A read-only key gets 403 on writes (Agents API). */
  readOnly?: boolean;
  /** Keys of conversations family without data permission see no records. */
  dataPermission?: boolean;
  label: string;
}

export interface StoredConnector {
  id: string;
  /** The connector token (X-TOKEN, X-Token, X-Service-Auth-Token). */
  token: string;
  kind: 'chat' | 'webchat' | 'voice';
  accountId: string;
  projectId: string;
  agentId: string;
  environment: Environment;
  variantId?: string;
  /** Webchat: registered host domain (subdomains match); null for a connector without one. */
  hostDomain?: string | null;
  /** Webchat: a registered app namespace (exact match). */
  appNamespace?: string | null;
  outboundEnabled: boolean;
  /** Handoff destination offered when a user asks for a person. */
  handoffDestination?: string;
  /** Fault switch for the messaging handoff system messages. */
  handoffMode?: 'ok' | 'connect-fails' | 'forward-fails' | 'invalid-config';
}

export interface StoredVariant {
  id: string;
  name: string;
  projectId: string;
}

export interface StoredTurn {
  user_input: string | null;
  user_input_dtmf: string | null;
  user_input_datetime: string | null;
  barge_in: boolean;
  agent_response: string | null;
  agent_response_datetime: string | null;
  /** Milliseconds between user input and agent response. */
  latency: number;
  translated_user_input: string | null;
  english_agent_response: string | null;
  intents: string[];
  entities: Record<string, string>;
  is_ood: boolean;
  is_silence: boolean;
}

/** A conversation as recorded by the engine; the Conversations API renders it per version. */
export interface StoredConversation {
  id: string;
  account_id: string;
  project_id: string;
  agent_id: string;
  variant_id: string | null;
  variant_name: string | null;
  environment: Environment;
  started_at: string;
  ended_at: string | null;
  channel: string;
  from_number: string | null;
  to_number: string | null;
  in_progress: boolean;
  total_duration: number;
  polyai_duration: number;
  handoff: boolean;
  handoff_reason: string | null;
  handoff_destination: string | null;
  language: string | null;
  metrics: Record<string, string | string[]>;
  state: Record<string, unknown>;
  turns: StoredTurn[];
  /** Counts the alert evaluator reads. */
  api_errors: number;
  function_errors: number;
  crashed: boolean;
  /** Where the conversation came from: chat, messaging, outbound, dni, demo. */
  source: string;
  integration_attributes: Record<string, unknown> | null;
}

export interface PlatformState {
  version: 1;
  accounts: StoredAccount[];
  projects: StoredProject[];
  keys: StoredApiKey[];
  connectors: StoredConnector[];
  variants: StoredVariant[];
  agents: AgentsState;
  conversations: StoredConversation[];
  /** Family-owned sections; each family initialises its own key lazily. */
  families: Record<string, unknown>;
  /** Id counters, so ids stay deterministic for a seed. */
  counters: Record<string, number>;
  /**
   * Made afresh with the data (a seed, a reset): an editor that finds another one knows the ids it kept from
   * this platform (deployments, promotion steps) no longer name the same things. Absent in data saved before.
   */
  dataId?: string;
}

export function emptyState(): PlatformState {
  return {
    version: 1,
    accounts: [],
    projects: [],
    keys: [],
    connectors: [],
    variants: [],
    agents: emptyAgentsState(),
    conversations: [],
    families: {},
    counters: {},
    dataId: randomUUID(),
  };
}
