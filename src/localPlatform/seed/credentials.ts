/**
 * The fixed credentials of the local platform's seeded account. They open only the local
 * platform on loopback; they are printed by the CLI and used by tests and the Local profile.
 */
export const LOCAL_ACCOUNT = { id: 'ACCOUNT-a1b2c3d', slug: 'acme', name: 'Acme Local' } as const;

/** The seeded support agent and its project. */
export const LOCAL_PROJECT = { id: 'PROJECT-5a7e1c0d', slug: 'support-desk', name: 'Support Desk' } as const;
export const LOCAL_AGENT_ID = 'ag_support';

export const LOCAL_KEYS = {
  /** Agents API key, workspace-scoped (x-api-key). */
  agents: 'lp_agents_key',
  /** A read-only Agents API key: writes answer 403. */
  agentsReadOnly: 'lp_agents_readonly_key',
  /** Alerts and webhook endpoints key (x-api-key). */
  alerts: 'lp_alerts_key',
  /** Conversations v3 / Concurrent Calls key, project-scoped (x-api-key). */
  conversations: 'lp_conversations_key',
  /** Chat API key (X-API-KEY), provisioned for sandbox. */
  chat: 'lp_chat_key',
  /** External Events key (X-Api-Key). */
  externalEvents: 'lp_external_events_key',
  /** DNI key, tied to the support agent (x-api-key). */
  dni: 'lp_dni_key',
} as const;

export const LOCAL_CONNECTORS = {
  /** Chat connector token (X-TOKEN), sandbox. */
  chatToken: 'lp_chat_connector_token',
  /** Messaging connector token (X-Token), host domain example.com. */
  webchatToken: 'lp_webchat_connector_token',
  /** The registered host domain of the webchat connector (X-Host). */
  webchatHost: 'example.com',
  /** A webchat connector registered without a host domain. */
  webchatNoHostToken: 'lp_webchat_nohost_token',
  /** Outbound auth token (X-Service-Auth-Token) of an outbound-enabled voice connector. */
  outboundToken: 'lp_outbound_token',
  /** A voice connector token that is not configured for outbound calling. */
  voiceNoOutboundToken: 'lp_voice_inbound_only_token',
} as const;
