import { z } from 'zod';
import {
  ALERT_RULES_PATH,
  ALERTS_AUTH_HEADER,
  ALERTS_PATH,
  type AlertMetric,
  alertMetricSchema,
  type AlertRule,
  alertRuleListSchema,
  alertRuleSchema,
  type CreateAlertRuleRequest,
  createAlertRuleRequestSchema,
  type CreateWebhookEndpointRequest,
  type CurrentAlert,
  currentAlertListSchema,
  type UpdateAlertRuleRequest,
  updateAlertRuleRequestSchema,
  type UpdateWebhookEndpointRequest,
  type WebhookEndpoint,
  webhookEndpointChangeSchema,
  webhookEndpointDraftSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  WEBHOOK_ENDPOINTS_PATH,
  type WebhookEndpointWithSecret,
  webhookEndpointWithSecretSchema,
} from '../contract/alerts';
import type { ClientContext } from './context';
import type { Assumption } from './errors';
import { type AssumedEndpoint, encodePath, type FamilyCall } from './transport';
import { requireIds, validateInput } from './validate';

/** Endpoints the spec does not show (rows of docs/api-assumptions.md, Alerts API). */
const ASSUMED = {
  rules: {
    row: 'Other alert-rule operations (list, get, delete): not shown',
    manualPath: 'Manage the alert rule in the studio instead.',
  },
  endpoints: {
    row: 'Other webhook-endpoint operations (list, get, update, delete): not shown',
    manualPath: 'Manage the webhook endpoint in the studio instead.',
  },
  rotate: {
    row: 'Rotate-signing-secret path: not shown',
    manualPath: 'Rotate the signing secret in the studio instead.',
  },
} as const satisfies Record<string, Assumption>;

/** An assumed endpoint whose path names one resource: its 404 means that resource, not the endpoint. */
const item = (assumption: Assumption): AssumedEndpoint => ({ ...assumption, item: true });

/** Filters of the rule list and of the current alerts (no pagination: everything comes at once). */
export interface AlertRuleFilters {
  /** A project id (slug or prefixed form); account-wide rules are not matched by it. */
  project_id?: string;
  metric?: AlertMetric;
  enabled?: boolean;
}

const ruleFiltersSchema = z.strictObject({
  project_id: z.string().min(1, 'must be a project id').optional(),
  metric: alertMetricSchema.optional(),
  enabled: z.boolean('must be true or false').optional(),
});

const webhookEndpointRecordSchema = webhookEndpointSchema.omit({ signing_secret: true });
/** A webhook endpoint as listed or read later: the signing secret is never part of it. */
export type WebhookEndpointRecord = z.output<typeof webhookEndpointRecordSchema> & { signing_secret?: never };

/**
 * Alerts API and webhook endpoints. Creating a rule or an endpoint and rotating a secret are
 * sent once (a repeat would make a second rule, or replace the secret just shown); reads and
 * PATCH/DELETE are retried on transient failures.
 */
export class AlertsClient {
  constructor(private readonly ctx: ClientContext) {}

  // ---- rules ----

  async listRules(filters: AlertRuleFilters = {}, signal?: AbortSignal): Promise<AlertRule[]> {
    const operation = 'List alert rules';
    const query = validateInput(ruleFiltersSchema, filters, 'alerts', operation);
    const res = await this.send({
      operation,
      method: 'GET',
      path: ALERT_RULES_PATH,
      query,
      schema: alertRuleListSchema,
      retry: 'safe',
      assumption: ASSUMED.rules,
      signal,
    });
    return res.alert_rules;
  }

  async getRule(ruleId: string, signal?: AbortSignal): Promise<AlertRule> {
    const operation = `Open alert rule ${ruleId}`;
    requireIds({ rule_id: ruleId }, 'alerts', operation);
    return this.send({
      operation,
      method: 'GET',
      path: ALERT_RULES_PATH + encodePath`/${ruleId}`,
      schema: alertRuleSchema,
      retry: 'safe',
      assumption: item(ASSUMED.rules),
      signal,
    });
  }

  /** Every field but `enabled` is required; `project_id: null` watches the whole account. */
  async createRule(rule: CreateAlertRuleRequest, signal?: AbortSignal): Promise<AlertRule> {
    const operation = `Create alert rule${quoted(rule.name)}`;
    const body = validateInput(createAlertRuleRequestSchema, rule, 'alerts', operation);
    return this.send({
      operation,
      method: 'POST',
      path: ALERT_RULES_PATH,
      body,
      fill: { ...body, enabled: body.enabled ?? true },
      schema: alertRuleSchema,
      retry: 'never',
      signal,
    });
  }

  /** Sends only the fields to change (a flat PATCH). */
  async updateRule(ruleId: string, change: UpdateAlertRuleRequest, signal?: AbortSignal): Promise<AlertRule> {
    const operation = `Save alert rule${quoted(change.name) || ` ${ruleId}`}`;
    requireIds({ rule_id: ruleId }, 'alerts', operation);
    const body = validateInput(updateAlertRuleRequestSchema, change, 'alerts', operation);
    return this.send({
      operation,
      method: 'PATCH',
      path: ALERT_RULES_PATH + encodePath`/${ruleId}`,
      body,
      fill: { ...body, id: ruleId },
      schema: alertRuleSchema,
      retry: 'safe',
      signal,
    });
  }

  async deleteRule(ruleId: string, signal?: AbortSignal): Promise<void> {
    const operation = `Delete alert rule ${ruleId}`;
    requireIds({ rule_id: ruleId }, 'alerts', operation);
    await this.send({
      operation,
      method: 'DELETE',
      path: ALERT_RULES_PATH + encodePath`/${ruleId}`,
      schema: undefined,
      retry: 'safe',
      assumption: item(ASSUMED.rules),
      signal,
    });
  }

  /** The rules firing now. */
  async currentAlerts(filters: Omit<AlertRuleFilters, 'enabled'> = {}, signal?: AbortSignal): Promise<CurrentAlert[]> {
    const operation = 'Read the current alerts';
    const query = validateInput(ruleFiltersSchema.omit({ enabled: true }), filters, 'alerts', operation);
    const res = await this.send({
      operation,
      method: 'GET',
      path: ALERTS_PATH,
      query,
      schema: currentAlertListSchema,
      retry: 'safe',
      signal,
    });
    return res.alerts;
  }

  // ---- webhook endpoints ----

  async listEndpoints(signal?: AbortSignal): Promise<WebhookEndpointRecord[]> {
    const operation = 'List webhook endpoints';
    const res = await this.send({
      operation,
      method: 'GET',
      path: WEBHOOK_ENDPOINTS_PATH,
      schema: webhookEndpointListSchema,
      retry: 'safe',
      assumption: ASSUMED.endpoints,
      signal,
    });
    return res.webhook_endpoints.map(withoutSecret);
  }

  async getEndpoint(endpointId: string, signal?: AbortSignal): Promise<WebhookEndpointRecord> {
    const operation = `Open webhook endpoint ${endpointId}`;
    requireIds({ endpoint_id: endpointId }, 'alerts', operation);
    const res = await this.send({
      operation,
      method: 'GET',
      path: WEBHOOK_ENDPOINTS_PATH + encodePath`/${endpointId}`,
      schema: webhookEndpointRecordSchema,
      retry: 'safe',
      assumption: item(ASSUMED.endpoints),
      signal,
    });
    return withoutSecret(res);
  }

  /**
   * The reply carries `signing_secret`, shown this once: keep it now, it cannot be read again. The spec
   * shows name, url, event_types and the secret only; when the id is missing it is looked up in the list
   * (by name and url), and stays undefined when that fails.
   */
  async createEndpoint(
    endpoint: CreateWebhookEndpointRequest,
    signal?: AbortSignal,
  ): Promise<WebhookEndpointWithSecret> {
    const operation = `Create webhook endpoint${quoted(endpoint.name)}`;
    const body = validateInput(webhookEndpointDraftSchema, endpoint, 'alerts', operation);
    const answered = await this.send({
      operation,
      method: 'POST',
      path: WEBHOOK_ENDPOINTS_PATH,
      body,
      fill: body,
      schema: webhookEndpointWithSecretSchema,
      retry: 'never',
      signal,
    });
    // What was sent stands in for what the answer garbled.
    const created = {
      ...answered,
      name: answered.name || body.name,
      url: answered.url || body.url,
      event_types: answered.event_types.length ? answered.event_types : body.event_types,
    };
    if (created.id !== undefined) return created;
    const id = await this.listEndpoints(signal).then(
      (all) => all.filter((e) => e.name === created.name && e.url === created.url).at(-1)?.id,
      () => undefined,
    );
    return id === undefined ? created : { ...created, id };
  }

  async updateEndpoint(
    endpointId: string,
    change: UpdateWebhookEndpointRequest,
    signal?: AbortSignal,
  ): Promise<WebhookEndpointRecord> {
    const operation = `Save webhook endpoint${quoted(change.name) || ` ${endpointId}`}`;
    requireIds({ endpoint_id: endpointId }, 'alerts', operation);
    const body = validateInput(webhookEndpointChangeSchema, change, 'alerts', operation);
    const res = await this.send({
      operation,
      method: 'PATCH',
      path: WEBHOOK_ENDPOINTS_PATH + encodePath`/${endpointId}`,
      body,
      fill: { ...body, id: endpointId },
      schema: webhookEndpointRecordSchema,
      retry: 'safe',
      assumption: item(ASSUMED.endpoints),
      signal,
    });
    return withoutSecret(res);
  }

  async deleteEndpoint(endpointId: string, signal?: AbortSignal): Promise<void> {
    const operation = `Delete webhook endpoint ${endpointId}`;
    requireIds({ endpoint_id: endpointId }, 'alerts', operation);
    await this.send({
      operation,
      method: 'DELETE',
      path: WEBHOOK_ENDPOINTS_PATH + encodePath`/${endpointId}`,
      schema: undefined,
      retry: 'safe',
      assumption: item(ASSUMED.endpoints),
      signal,
    });
  }

  /** Replaces the signing secret at once (the old one stops working); the new one is shown this once. */
  async rotateSecret(endpointId: string, signal?: AbortSignal): Promise<WebhookEndpointWithSecret> {
    const operation = `Rotate the signing secret of webhook endpoint ${endpointId}`;
    requireIds({ endpoint_id: endpointId }, 'alerts', operation);
    return this.send({
      operation,
      method: 'POST',
      path: WEBHOOK_ENDPOINTS_PATH + encodePath`/${endpointId}/rotate-secret`,
      fill: { id: endpointId },
      schema: webhookEndpointWithSecretSchema,
      retry: 'never',
      assumption: item(ASSUMED.rotate),
      signal,
    });
  }

  private async send<S extends z.ZodType | undefined>(
    call: FamilyCall<S>,
  ): Promise<S extends z.ZodType ? z.output<S> : undefined> {
    const key = await this.ctx.credential('alertsApiKey', 'alerts', call.operation);
    const res = await this.ctx.transport.request({
      ...call,
      family: 'alerts',
      baseUrl: this.ctx.base('build'),
      headers: { [ALERTS_AUTH_HEADER]: key },
    });
    return res.body as S extends z.ZodType ? z.output<S> : undefined;
  }
}

function withoutSecret(
  endpoint: WebhookEndpoint | z.output<typeof webhookEndpointRecordSchema>,
): WebhookEndpointRecord {
  const { signing_secret: _secret, ...rest } = endpoint;
  return rest as WebhookEndpointRecord;
}

/** ` "name"` for operation names, or nothing when the name is empty or not text (it is then refused anyway). */
function quoted(name: unknown): string {
  return typeof name === 'string' && name.trim() !== ''
    ? ` "${name.length > 60 ? `${name.slice(0, 57)}...` : name}"`
    : '';
}
