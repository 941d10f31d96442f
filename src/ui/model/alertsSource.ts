import type { AlertsClient } from '../../client/alerts';
import type { AlertRule, CurrentAlert, UpdateWebhookEndpointRequest } from '../../contract/alerts';
import type { EndpointRecord } from './endpointRecord';
import type { KeptAlerts } from './keptAlerts';

/**
 * Where the alerts model reads and writes: the Alerts API through one profile's client (everything comes at
 * once: no pagination), and what is kept here for that profile.
 */
export interface AlertsSource {
  /** The active profile's project, the natural scope of a new rule. */
  readonly projectId: string;
  /** The active profile's id, which scopes the stored signing secrets. */
  readonly profileId: string;
  /** The rules and endpoints created, saved or added by id here for this profile. */
  readonly kept: KeptAlerts;
  listRules(signal?: AbortSignal): Promise<AlertRule[]>;
  /** The rules the platform counts in one project (account-wide rules are not among them). */
  rulesOfProject(projectId: string, signal?: AbortSignal): Promise<AlertRule[]>;
  currentAlerts(signal?: AbortSignal): Promise<CurrentAlert[]>;
  listEndpoints(signal?: AbortSignal): Promise<EndpointRecord[]>;
  // The writes are the client's own: sent once where a repeat would do it twice (see AlertsClient).
  createRule: AlertsClient['createRule'];
  updateRule: AlertsClient['updateRule'];
  deleteRule: AlertsClient['deleteRule'];
  createEndpoint: AlertsClient['createEndpoint'];
  /** The endpoint as saved, by the id it was saved under when the answer leaves it out. */
  updateEndpoint(
    endpointId: string,
    change: UpdateWebhookEndpointRequest,
    signal?: AbortSignal,
  ): Promise<EndpointRecord>;
  deleteEndpoint: AlertsClient['deleteEndpoint'];
  rotateSecret: AlertsClient['rotateSecret'];
}

/**
 * The model's reads and writes through the AlertsClient of one profile, made on first use (so a model made for a
 * new profile loads no client yet), and what is kept here for that profile.
 */
export function alertsSourceOf(
  client: () => AlertsClient,
  profile: { id: string; projectId: string },
  kept: KeptAlerts,
): AlertsSource {
  return {
    profileId: profile.id,
    projectId: profile.projectId,
    kept,
    listRules: (signal) => client().listRules({}, signal),
    rulesOfProject: (projectId, signal) => client().listRules({ project_id: projectId }, signal),
    currentAlerts: (signal) => client().currentAlerts({}, signal),
    listEndpoints: async (signal) => (await client().listEndpoints(signal)) as EndpointRecord[],
    createRule: (rule, signal) => client().createRule(rule, signal),
    updateRule: (ruleId, change, signal) => client().updateRule(ruleId, change, signal),
    deleteRule: (ruleId, signal) => client().deleteRule(ruleId, signal),
    createEndpoint: (endpoint, signal) => client().createEndpoint(endpoint, signal),
    updateEndpoint: async (endpointId, change, signal) => {
      const saved = (await client().updateEndpoint(endpointId, change, signal)) as EndpointRecord;
      // The answer may leave the id out: the endpoint is the one saved.
      return { ...saved, id: saved.id || endpointId };
    },
    deleteEndpoint: (endpointId, signal) => client().deleteEndpoint(endpointId, signal),
    rotateSecret: (endpointId, signal) => client().rotateSecret(endpointId, signal),
  };
}
