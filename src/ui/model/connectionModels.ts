import type { ClientContext } from '../../client/context';
import { clientRuntime } from '../clientRuntime';
import type { Connection } from '../connection/connection';
import type { AgentsSource } from '../explorer/agents/agentsSource';
import { agentsSourceFor } from '../explorer/agents/clientAgentsSource';
import { type AlertsSource, alertsSourceOf } from '../explorer/alerts/alertsSource';
import { ProfileModels } from './profileModels';

/** Makes the reads on their first use, so a model made for a new profile does not load the client bundle yet. */
function onFirstUse<T extends object>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** The models of the live connection: the active profile's, read through its client context. */
export function profileModelsOf(connection: Connection): ProfileModels<ClientContext> {
  return new ProfileModels<ClientContext>({
    active: () => {
      const ctx = connection.context;
      return ctx ? { profileId: ctx.profile.id, ctx } : undefined;
    },
    onDidChangeActive: connection.onDidChange,
    agents: (ctx): AgentsSource => {
      const real = onFirstUse(() => agentsSourceFor(ctx));
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
    alerts: (ctx): AlertsSource => {
      const real = onFirstUse(() =>
        alertsSourceOf(new (clientRuntime().AlertsClient)(ctx), ctx.profile.id, ctx.profile.projectId),
      );
      return {
        profileId: ctx.profile.id,
        projectId: ctx.profile.projectId,
        listRules: (signal) => real().listRules(signal),
        currentAlerts: (signal) => real().currentAlerts(signal),
        listEndpoints: (signal) => real().listEndpoints(signal),
      };
    },
  });
}
