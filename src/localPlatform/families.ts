import { createAgentsFamily } from './agents/agentsApi';
import { createAlertsFamily } from './alerts/alertsApi';
import { createChatFamily } from './chat/chatApi';
import { createConcurrencyFamily } from './concurrency/concurrencyApi';
import { createConversationsFamily } from './conversations/conversationsApi';
import { createDniFamily } from './dni/dniApi';
import { createExternalEventsFamily } from './externalEvents/externalEventsApi';
import type { FamilyFactory } from './family';
import { createMessagingFamily } from './messaging/messagingApi';
import { createOutboundFamily } from './outbound/outboundApi';

/** Every API family the local platform serves. */
export const familyFactories: readonly FamilyFactory[] = [
  createAgentsFamily,
  createAlertsFamily,
  createChatFamily,
  createMessagingFamily,
  createConversationsFamily,
  createConcurrencyFamily,
  createOutboundFamily,
  createExternalEventsFamily,
  createDniFamily,
];
