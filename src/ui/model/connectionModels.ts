import type { Event } from '../../core/event';
import type { AgentsSource } from './agentsSource';
import { agentsSourceOf } from './clientAgentsSource';
import { type AlertsSource, alertsSourceOf } from './alertsSource';
import { agentsClientOf } from './agentsClientOf';
import { KeptAlerts, type KeptState } from './keptAlerts';
import type { PlatformClients } from './platformClients';
import type { RememberedAgents } from './rememberedAgents';
import { ProfileModels } from './profileModels';

/** Makes the reads on their first use, so a model made for a new profile does not load the client bundle yet. */
function onFirstUse<T extends object>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** The connection as the models see it: the active profile's platform clients, and when they change. */
export interface ClientsOfConnection {
  readonly platformClients: PlatformClients | undefined;
  readonly onDidChange: Event<void>;
}

/**
 * The models of the live connection: the active profile's, read and written through its platform clients. What is
 * kept for platforms that do not list it: `kept.agents` (agents, branches and deployments, the workspace's state)
 * and `kept.alerts` (the rules and endpoints created or added here, by profile, the editor's global state).
 */
export function profileModelsOf(
  connection: ClientsOfConnection,
  kept: { alerts: KeptState; agents?: RememberedAgents },
): ProfileModels<PlatformClients> {
  return new ProfileModels<PlatformClients>({
    ...(kept.agents ? { kept: kept.agents } : {}),
    agentsPlatform: (clients) => () => agentsClientOf(clients),
    active: () => {
      const clients = connection.platformClients;
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
    alerts: (clients): AlertsSource =>
      alertsSourceOf(() => clients.alerts, clients.profile, new KeptAlerts(kept.alerts, clients.profile.id)),
  });
}
