import {
  createWebhookEndpointRequestSchema,
  updateWebhookEndpointRequestSchema,
  WEBHOOK_ENDPOINT_ID_PATTERN,
  type WebhookEndpointList,
} from '../../contract/alerts';
import { buildError, type RequestContext, type Router } from '../http';
import type { Platform } from '../platform';
import { alertsOf, endpointToWire, newSigningSecret, type StoredWebhookEndpoint } from './model';
import { accountOf } from './rulesRoutes';
import { fieldErrors, objectBody, requireIdFormat, validationError } from './validation';
import { LOCAL_LIMITS, tooLong, webhookUrlProblems } from '../ownLimits';

const READ_ONLY = ['id', 'signing_secret', 'created_at', 'updated_at'];
const WHAT = 'webhook endpoint';

/** POST, GET, PATCH, DELETE /v1/webhook-endpoints and POST .../{id}/rotate-secret. */
export function addEndpointRoutes(router: Router, platform: Platform): void {
  router.post('/v1/webhook-endpoints', (ctx) => {
    const account = accountOf(platform, ctx);
    const parsed = createWebhookEndpointRequestSchema.safeParse(objectBody(ctx));
    if (!parsed.success) throw validationError(WHAT, fieldErrors(parsed.error.issues, READ_ONLY, 'a webhook endpoint'));
    requireOwnEndpointLimits(parsed.data);
    const section = alertsOf(platform);
    const max = platform.options.maxWebhookEndpoints;
    if (section.endpoints.filter((e) => e.accountId === account.id).length >= max) {
      throw buildError(
        409,
        `Webhook endpoint limit reached: an account can have at most ${max} webhook endpoints. Delete an endpoint before creating another.`,
      );
    }
    const now = platform.now();
    const endpoint: StoredWebhookEndpoint = {
      id: platform.nextId('we'),
      accountId: account.id,
      name: parsed.data.name,
      url: parsed.data.url,
      event_types: [...parsed.data.event_types],
      signing_secret: newSigningSecret(),
      created_at: now,
      updated_at: now,
    };
    section.endpoints.push(endpoint);
    return { status: 201, body: endpointToWire(endpoint, true) };
  });

  router.get('/v1/webhook-endpoints', (ctx) => {
    const account = accountOf(platform, ctx);
    const body: WebhookEndpointList = {
      webhook_endpoints: alertsOf(platform)
        .endpoints.filter((e) => e.accountId === account.id)
        .map((e) => endpointToWire(e)),
    };
    return { body };
  });

  router.get('/v1/webhook-endpoints/:endpointId', (ctx) => ({ body: endpointToWire(findEndpoint(platform, ctx)) }));

  router.patch('/v1/webhook-endpoints/:endpointId', (ctx) => {
    const endpoint = findEndpoint(platform, ctx);
    const parsed = updateWebhookEndpointRequestSchema.safeParse(objectBody(ctx));
    if (!parsed.success) throw validationError(WHAT, fieldErrors(parsed.error.issues, READ_ONLY, 'a webhook endpoint'));
    requireOwnEndpointLimits(parsed.data);
    if (Object.keys(parsed.data).length === 0) return { body: endpointToWire(endpoint) };
    if (parsed.data.name !== undefined) endpoint.name = parsed.data.name;
    if (parsed.data.url !== undefined) endpoint.url = parsed.data.url;
    if (parsed.data.event_types !== undefined) endpoint.event_types = [...parsed.data.event_types];
    endpoint.updated_at = platform.now();
    return { body: endpointToWire(endpoint) };
  });

  router.delete('/v1/webhook-endpoints/:endpointId', (ctx) => {
    const endpoint = findEndpoint(platform, ctx);
    const section = alertsOf(platform);
    section.endpoints = section.endpoints.filter((e) => e !== endpoint);
    return { status: 204 };
  });

  router.post('/v1/webhook-endpoints/:endpointId/rotate-secret', (ctx) => {
    const endpoint = findEndpoint(platform, ctx);
    endpoint.signing_secret = newSigningSecret();
    endpoint.updated_at = platform.now();
    return { body: endpointToWire(endpoint, true) };
  });
}

/** The account's endpoint named in the path: 401, then 422 for a malformed id, then 404. */
function findEndpoint(platform: Platform, ctx: RequestContext): StoredWebhookEndpoint {
  const account = accountOf(platform, ctx);
  const id = ctx.param('endpointId');
  requireIdFormat(id, WEBHOOK_ENDPOINT_ID_PATTERN, 'endpoint_id', WHAT);
  const endpoint = alertsOf(platform).endpoints.find((e) => e.id === id && e.accountId === account.id);
  if (!endpoint)
    throw buildError(404, `Webhook endpoint not found: ${id}`, [
      { field: 'endpoint_id', message: 'no such webhook endpoint' },
    ]);
  return endpoint;
}

/** The local platform's own limits on an endpoint (the spec shows none): a 400 that says they are its own. */
function requireOwnEndpointLimits(fields: { name?: string; url?: string }): void {
  const problems = [
    ...tooLong([['name', fields.name, LOCAL_LIMITS.webhookEndpointName]]),
    ...webhookUrlProblems(fields.url),
  ];
  if (problems.length) throw validationError(WHAT, problems);
}
