import type { WebhookEndpoint } from '../../contract/alerts';

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
