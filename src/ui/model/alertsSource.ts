import type { AlertsClient } from '../../client/alerts';
import type { AlertRule, CurrentAlert, WebhookEndpoint } from '../../contract/alerts';

/** A webhook endpoint as listed: never its signing secret. */
export type EndpointRecord = Pick<WebhookEndpoint, 'id' | 'name' | 'url' | 'event_types' | 'created_at' | 'updated_at'>;

/**
 * What creating an endpoint or rotating its secret gives (Create Webhook Endpoint's result, which the webhook
 * receiver reads too): the endpoint, never its secret, and whether the secret is kept here.
 */
export interface EndpointResult {
  endpoint: EndpointRecord;
  secretStored: boolean;
}

/** What the Alerts tree reads from the platform (everything comes at once: no pagination). */
export interface AlertsSource {
  /** The active profile's project, the natural scope of a new rule. */
  readonly projectId: string;
  /** The active profile's id, which scopes the stored signing secrets. */
  readonly profileId: string;
  listRules(signal?: AbortSignal): Promise<AlertRule[]>;
  currentAlerts(signal?: AbortSignal): Promise<CurrentAlert[]>;
  listEndpoints(signal?: AbortSignal): Promise<EndpointRecord[]>;
}

/** The tree's reads through an AlertsClient of one profile. */
export function alertsSourceOf(client: AlertsClient, profileId: string, projectId: string): AlertsSource {
  return {
    profileId,
    projectId,
    listRules: (signal) => client.listRules({}, signal),
    currentAlerts: (signal) => client.currentAlerts({}, signal),
    listEndpoints: async (signal) => asEndpointRecords(await client.listEndpoints(signal)),
  };
}

/**
 * The client's records are parsed by the contract's endpoint schema; its declared type (an Omit
 * over a loose object) loses the field names, so they are restated here.
 */
export function asEndpointRecords(records: readonly object[]): EndpointRecord[] {
  return records as EndpointRecord[];
}
