import type {
  AlertRule,
  CreateAlertRuleRequest,
  CreateWebhookEndpointRequest,
  CurrentAlert,
  UpdateAlertRuleRequest,
  UpdateWebhookEndpointRequest,
  WebhookEndpointWithSecret,
} from '../../contract/alerts';
import { Disposable } from '../../core/disposable';
import { Emitter, type Event } from '../../core/event';
import type { AlertsSource } from './alertsSource';
import type { EndpointRecord } from './endpointRecord';
import type { Kept, KeptKind } from './keptAlerts';
import { Loadable } from './loadable';
import { isPlatformError } from '../common/failure';

/**
 * How long a list the platform does not have (a 404 or 405 of an endpoint the spec does not show) is not asked
 * again, unless the person refreshes: the watcher reads the current alerts every minute, and each reading redraws
 * the view.
 */
export const MISSING_LIST_KEPT_MS = 30 * 60_000;

function endpointMissing(err: unknown): boolean {
  return isPlatformError(err) && err.assumption !== undefined && (err.status === 404 || err.status === 405);
}

/** A list read that failed because the platform has no such list (a 404 or 405 from an assumed endpoint). */
export function listIsMissing(err: unknown): boolean {
  return isPlatformError(err) && err.assumption !== undefined;
}

/** The rules or endpoints to show and act on: the platform's list, or where it has none, those kept here. */
export interface Known<T> {
  /** Each one as listed, or as kept here (only its id, for one added by id and not saved since). */
  items: Array<Kept<T>>;
  /** Why these are the ones kept here: the failed read of a list the platform does not have. Unset when listed. */
  notListed?: unknown;
}

export type AlertsChange = 'rules' | 'currentAlerts' | 'endpoints';

/**
 * The alert rules, the alerts firing now and the webhook endpoints of one connection profile, and every write of
 * them: each write is sent through the profile's client, keeps what the platform answered (a platform that does
 * not list rules or endpoints is shown them from here), and forgets exactly the parts it changed.
 */
export class AlertsModel extends Disposable {
  /** The platform's rule list (an assumed endpoint); `knownRules` also has the rules kept here. */
  readonly rules: Loadable<AlertRule[]>;
  readonly currentAlerts: Loadable<CurrentAlert[]>;
  /** The platform's endpoint list (an assumed endpoint); `knownEndpoints` also has those kept here. */
  readonly endpoints: Loadable<EndpointRecord[]>;
  /** The rules listed, or those kept here where the platform does not list them. */
  readonly knownRules: Loadable<Known<AlertRule>>;
  /** The endpoints listed, or those kept here where the platform does not list them. */
  readonly knownEndpoints: Loadable<Known<EndpointRecord>>;
  private readonly _onDidChange = this.register(new Emitter<AlertsChange>());
  /** Fires with the part that changed: the rules shown, the current alerts or the endpoints shown. */
  readonly onDidChange: Event<AlertsChange> = this._onDidChange.event;

  constructor(readonly source: AlertsSource) {
    super();
    const part = <T>(load: () => Promise<T>): Loadable<T> =>
      this.register(new Loadable(load, { failure: endpointMissing, keepMs: MISSING_LIST_KEPT_MS }));
    this.rules = part(() => source.listRules());
    this.currentAlerts = part(() => source.currentAlerts());
    this.endpoints = part(() => source.listEndpoints());
    this.knownRules = this.register(new Loadable(() => this.listedOrKept(this.rules, () => source.kept.rules())));
    this.knownEndpoints = this.register(
      new Loadable(() => this.listedOrKept(this.endpoints, () => source.kept.endpoints())),
    );
    // What is shown follows the lists it is made of; readers hear of each change once.
    this.register(this.rules.onDidChange(() => this.knownRules.invalidate()));
    this.register(this.endpoints.onDidChange(() => this.knownEndpoints.invalidate()));
    this.register(this.knownRules.onDidChange(() => this._onDidChange.fire('rules')));
    this.register(this.currentAlerts.onDidChange(() => this._onDidChange.fire('currentAlerts')));
    this.register(this.knownEndpoints.onDidChange(() => this._onDidChange.fire('endpoints')));
  }

  private async listedOrKept<T extends { id: string }>(
    list: Loadable<T[]>,
    kept: () => Array<Kept<T>>,
  ): Promise<Known<T>> {
    try {
      return { items: (await list.get()).map((record) => ({ id: record.id, record })) };
    } catch (err) {
      if (!listIsMissing(err)) throw err;
      return { items: kept(), notListed: err };
    }
  }

  /** Asks again, on the next read, the lists the platform answered it does not have (a refresh the person asked for). */
  forgetMissing(): void {
    for (const part of [this.rules, this.currentAlerts, this.endpoints]) part.forgetFailure();
  }

  /** Rules and current alerts reflect the same evaluations: a change to rules forgets both. */
  invalidateRules(): void {
    this.currentAlerts.invalidate();
    this.rules.invalidate();
  }

  /** A rule as the loaded list or an earlier answer here knows it; never read from the platform (the spec shows no read). */
  rule(id: string): AlertRule | undefined {
    return this.rules.peek()?.find((r) => r.id === id) ?? this.source.kept.rules().find((r) => r.id === id)?.record;
  }

  /** An endpoint as the loaded list or an earlier answer here knows it; never read from the platform. */
  endpoint(id: string): EndpointRecord | undefined {
    return (
      this.endpoints.peek()?.find((e) => e.id === id) ?? this.source.kept.endpoints().find((e) => e.id === id)?.record
    );
  }

  /** The rules the platform counts in one project (a filtered list, read each time: it is not kept). */
  rulesOfProject(projectId: string, signal?: AbortSignal): Promise<AlertRule[]> {
    return this.source.rulesOfProject(projectId, signal);
  }

  /** Creates a rule, sent once; it is kept here, so a platform that does not list rules still shows it. */
  async createRule(draft: CreateAlertRuleRequest, signal?: AbortSignal): Promise<AlertRule> {
    let created: AlertRule;
    try {
      created = await this.source.createRule(draft, signal);
    } catch (err) {
      // The account is at its limit: the rule list the refusal was judged against is read again.
      if (isPlatformError(err) && err.status === 409) this.invalidateRules();
      throw err;
    }
    await this.source.kept.keepRule(created.id, created);
    this.invalidateRules();
    return created;
  }

  /** Saves the fields given (a flat PATCH by id, nothing read first); the answer is kept here. */
  async updateRule(ruleId: string, change: UpdateAlertRuleRequest, signal?: AbortSignal): Promise<AlertRule> {
    const saved = await this.source.updateRule(ruleId, change, signal);
    await this.source.kept.keepRule(saved.id, saved);
    this.invalidateRules();
    return saved;
  }

  async deleteRule(ruleId: string, signal?: AbortSignal): Promise<void> {
    await this.source.deleteRule(ruleId, signal);
    await this.source.kept.forget('rules', ruleId);
    this.invalidateRules();
  }

  /** Creates an endpoint, sent once; it is kept here (never its secret) when the platform said its id. */
  async createEndpoint(body: CreateWebhookEndpointRequest, signal?: AbortSignal): Promise<WebhookEndpointWithSecret> {
    const created = await this.source.createEndpoint(body, signal);
    if (created.id !== undefined) await this.source.kept.keepEndpoint(created.id, { ...created, id: created.id });
    this.endpoints.invalidate();
    return created;
  }

  async updateEndpoint(
    endpointId: string,
    change: UpdateWebhookEndpointRequest,
    signal?: AbortSignal,
  ): Promise<EndpointRecord> {
    const saved = await this.source.updateEndpoint(endpointId, change, signal);
    await this.source.kept.keepEndpoint(saved.id, saved);
    this.endpoints.invalidate();
    return saved;
  }

  /** Replaces the signing secret, sent once: the answer carries the new one, shown this once. */
  async rotateSecret(endpointId: string, signal?: AbortSignal): Promise<WebhookEndpointWithSecret> {
    const rotated = await this.source.rotateSecret(endpointId, signal);
    this.endpoints.invalidate();
    return rotated;
  }

  async deleteEndpoint(endpointId: string, signal?: AbortSignal): Promise<void> {
    await this.source.deleteEndpoint(endpointId, signal);
    await this.source.kept.forget('endpoints', endpointId);
    this.endpoints.invalidate();
  }

  /** Keeps a rule or endpoint known by the id typed for it (the spec shows no read of one): it is shown and acted on. */
  async add(kind: KeptKind, id: string): Promise<void> {
    await (kind === 'rules' ? this.source.kept.keepRule(id) : this.source.kept.keepEndpoint(id));
    this.knownOf(kind).invalidate();
  }

  /** Takes a rule or endpoint kept here off what is shown; nothing is sent to the platform. */
  async forget(kind: KeptKind, id: string): Promise<void> {
    await this.source.kept.forget(kind, id);
    this.knownOf(kind).invalidate();
  }

  private knownOf(kind: KeptKind): Loadable<Known<AlertRule>> | Loadable<Known<EndpointRecord>> {
    return kind === 'rules' ? this.knownRules : this.knownEndpoints;
  }
}
