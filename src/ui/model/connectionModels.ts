import type { Event } from '../../core/event';
import type { AgentsSource } from './agentsSource';
import { agentsSourceOf } from './clientAgentsSource';
import { type AlertsSource, alertsSourceOf } from './alertsSource';
import { agentsClientOf } from './agentsClientOf';
import type { UiClients } from './platformClients';
import type { RememberedAgents } from './rememberedAgents';
import { ProfileModels } from './profileModels';

/** Makes the reads on their first use, so a model made for a new profile does not load the client bundle yet. */
function onFirstUse<T extends object>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** The connection as the models see it: the active profile's platform clients, and when they change. */
export interface ClientsOfConnection {
  readonly clients: UiClients | undefined;
  readonly onDidChange: Event<void>;
}

/**
 * The models of the live connection: the active profile's, read and written through its platform clients; what is
 * kept of agents for platforms that do not list them is in `kept` (the workspace's state).
 */
export function profileModelsOf(connection: ClientsOfConnection, kept?: RememberedAgents): ProfileModels<UiClients> {
  return new ProfileModels<UiClients>({
    ...(kept ? { kept } : {}),
    agentsPlatform: (clients) => () => agentsClientOf(clients),
    active: () => {
      const clients = connection.clients;
      return clients ? { profileId: clients.profile.id, ctx: clients } : undefined;
    },
    onDidChangeActive: connection.onDidChange,
    agents: (clients): AgentsSource => {
      const real = onFirstUse(() => agentsSourceOf(agentsClientOf(clients)));
      return {
        listAgents: (signal) => real().listAgents(signal),
        getAgent: (agentId) =>
          real().getAgent?.(agentId) ?? Promise.reject(new Error('reading one agent is not offered')),
        listBranches: (agentId) => real().listBranches(agentId),
        getBehavior: (agentId, branchId) => real().getBehavior(agentId, branchId),
        listTopics: (agentId, branchId) => real().listTopics(agentId, branchId),
        listDeployments: (agentId) => real().listDeployments(agentId),
        listPhoneNumbers: (agentId) => real().listPhoneNumbers(agentId),
        listRealtimeConfigs: (agentId) => real().listRealtimeConfigs(agentId),
      };
    },
    alerts: (clients): AlertsSource => {
      const real = onFirstUse(() => alertsSourceOf(clients.alerts, clients.profile.id, clients.profile.projectId));
      return {
        profileId: clients.profile.id,
        projectId: clients.profile.projectId,
        listRules: (signal) => real().listRules(signal),
        currentAlerts: (signal) => real().currentAlerts(signal),
        listEndpoints: (signal) => real().listEndpoints(signal),
      };
    },
  });
}
