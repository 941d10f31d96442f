import type { ClientContext } from '../../client/context';
import { clientRuntime } from '../clientRuntime';
import type { Connection } from '../connection/connection';
import { agentsSourceFor } from '../explorer/agents/clientAgentsSource';
import { alertsSourceOf } from '../explorer/alerts/alertsSource';
import { ProfileModels } from './profileModels';

/** The models of the live connection: the active profile's, read through its client context (the client loads on first read). */
export function profileModelsOf(connection: Connection): ProfileModels<ClientContext> {
  return new ProfileModels<ClientContext>({
    active: () => {
      const ctx = connection.context;
      return ctx ? { profileId: ctx.profile.id, ctx } : undefined;
    },
    onDidChangeActive: connection.profiles.onDidChange,
    agents: (ctx) => agentsSourceFor(ctx),
    alerts: (ctx) => alertsSourceOf(new (clientRuntime().AlertsClient)(ctx), ctx.profile.id, ctx.profile.projectId),
  });
}
