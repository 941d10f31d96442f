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

/**
 * The runtime keys and connectors of one project. Runtime keys belong to a project, and a project serves one
 * agent: an editor reaches another agent's chat, conversations and DNI only with that agent's project's own.
 */
export interface LocalProjectCredentials {
  /** Slug form, as a connection profile names the project. */
  projectId: string;
  /** Prefixed form, as agent records name it. */
  projectPrefixedId: string;
  name: string;
  /** The agent the project serves. */
  agentId: string;
  agentName: string;
  keys: Record<'conversations' | 'chat' | 'externalEvents' | 'dni', string>;
  connectors: Record<'chatToken' | 'webchatToken' | 'webchatHost' | 'outboundToken', string>;
}

/** The seeded support agent's project, the one the Local profile reaches. */
export const LOCAL_SUPPORT_PROJECT: LocalProjectCredentials = {
  projectId: LOCAL_PROJECT.slug,
  projectPrefixedId: LOCAL_PROJECT.id,
  name: LOCAL_PROJECT.name,
  agentId: LOCAL_AGENT_ID,
  agentName: 'Support Desk',
  keys: {
    conversations: LOCAL_KEYS.conversations,
    chat: LOCAL_KEYS.chat,
    externalEvents: LOCAL_KEYS.externalEvents,
    dni: LOCAL_KEYS.dni,
  },
  connectors: {
    chatToken: LOCAL_CONNECTORS.chatToken,
    webchatToken: LOCAL_CONNECTORS.webchatToken,
    webchatHost: LOCAL_CONNECTORS.webchatHost,
    outboundToken: LOCAL_CONNECTORS.outboundToken,
  },
};

/** The credentials of a demo agent's own project (the demo seed adds these projects). */
function demoProject(
  key: string,
  slug: string,
  id: string,
  name: string,
  agentId: string,
  agentName: string,
): LocalProjectCredentials {
  return {
    projectId: slug,
    projectPrefixedId: id,
    name,
    agentId,
    agentName,
    keys: {
      conversations: `lp_${key}_conversations_key`,
      chat: `lp_${key}_chat_key`,
      externalEvents: `lp_${key}_external_events_key`,
      dni: `lp_${key}_dni_key`,
    },
    connectors: {
      chatToken: `lp_${key}_chat_connector_token`,
      webchatToken: `lp_${key}_webchat_connector_token`,
      webchatHost: LOCAL_CONNECTORS.webchatHost,
      outboundToken: `lp_${key}_voice_live_token`,
    },
  };
}

/** The demo's other agents, each served by a project of its own, so each can be chatted with out of the box. */
export const DEMO_PROJECTS = {
  restaurant: demoProject(
    'restaurant',
    'bella-tavola',
    'PROJECT-b7e11a7a',
    'Bella Tavola',
    'ag_restaurant',
    'Bella Tavola Bookings',
  ),
  bank: demoProject(
    'bank',
    'northwind-cards',
    'PROJECT-40a7b1d5',
    'Northwind Cards',
    'ag_bank_cards',
    'Northwind Card Services',
  ),
} as const;
