import { Emitter } from '../core/event';
import type { ResponsesMode } from './responsesMode';
import { Clock } from './clock';
import { FaultBook } from './faults';
import { RequestLog } from './requestLog';
import { buildError, type HttpError, runtimeError } from './http';
import {
  emptyState,
  type KeyFamily,
  type PlatformState,
  type StoredAccount,
  type StoredApiKey,
  type StoredConversation,
  type StoredProject,
} from './state';

export interface PlatformOptions {
  /** Delay between streamed chunks of an answer, in ms (0 in tests). */
  streamDelayMs: number;
  /** Messaging session inactivity expiry, in ms (spec: about 10 minutes). */
  sessionInactivityMs: number;
  /** Simultaneous WebSocket connections per messaging session (spec default 10). */
  maxConnectionsPerSession: number;
  /** Messaging HTTP requests allowed per client per minute before 429. */
  messagingHttpPerMinute: number;
  /** WebSocket messages per session per second before they are dropped. */
  wsMessagesPerSecond: number;
  /** How long a WebSocket frame may stay incomplete before the socket is dropped, ms. */
  wsFrameTimeoutMs: number;
  /** Access token lifetime in seconds. */
  accessTokenTtlSeconds: number;
  /** Maximum alert rules per account (spec: 10). */
  maxAlertRules: number;
  /** Maximum webhook endpoints per account (spec: not shown). */
  maxWebhookEndpoints: number;
  /** First retry delay of a failed webhook delivery in ms; each retry doubles it. */
  webhookRetryBaseMs: number;
  /** How often (wall time, ms) the alert rules are evaluated; 0 turns the timer off. */
  alertEvaluationIntervalMs: number;
  /**
   * The share of the agent's answers that vary as a language model's do (reworded, now and then another topic),
   * 0 to 1; 0 is the deterministic agent. See engine/variability.ts.
   */
  variabilityRate: number;
  /** The seed of that variability: the same seed, the same answers to the same conversations. */
  variabilitySeed: number;
  /** With variability on, the most wall-clock delay added to a Chat answer, ms. */
  variabilityLatencyMs: number;
}

export const defaultOptions: PlatformOptions = {
  streamDelayMs: 40,
  sessionInactivityMs: 10 * 60 * 1000,
  maxConnectionsPerSession: 10,
  messagingHttpPerMinute: 120,
  wsMessagesPerSecond: 20,
  wsFrameTimeoutMs: 10_000,
  accessTokenTtlSeconds: 3600,
  maxAlertRules: 10,
  maxWebhookEndpoints: 10,
  webhookRetryBaseMs: 2000,
  alertEvaluationIntervalMs: 60_000,
  variabilityRate: 0,
  variabilitySeed: 1,
  variabilityLatencyMs: 0,
};

/**
 * The shared heart of the local platform: state, clock, faults, ids and the checks every
 * family needs (keys, account and project ids). Families get it and keep their own logic.
 */
export class Platform {
  state: PlatformState = emptyState();
  readonly clock = new Clock();
  readonly faults = new FaultBook();
  /** What the families were asked (the admin API lists it for tests). */
  readonly requests = new RequestLog();
  options: PlatformOptions;
  /** Where a demo seed's week ends (see seed/seeds.ts); resets keep it. */
  demoAnchor: 'fixed' | 'now' = 'fixed';
  /**
   * How answers are shaped: everything we know, only what the spec shows (minimal.ts), or only the spec's
   * endpoints and fields (specOnly.ts); kept across resets.
   */
  readonly responses: { mode: ResponsesMode } = { mode: 'full' };

  private readonly _onDidChangeConversation = new Emitter<StoredConversation>();
  /** A conversation was created, got a turn, or ended. */
  readonly onDidChangeConversation = this._onDidChangeConversation.event;
  private readonly _onDidMutate = new Emitter<void>();
  /** State changed and should be persisted (with --data-dir: now, before any answer acknowledges it). */
  readonly onDidMutate = this._onDidMutate.event;
  private readonly _onWillIssueId = new Emitter<{ prefix: string; n: number }>();
  /** An id is about to be handed out (persistence reserves it first, so no crash can reuse it). */
  readonly onWillIssueId = this._onWillIssueId.event;
  private readonly _onDidReset = new Emitter<void>();
  /** State was replaced (reset or seed): families drop their in-memory caches. */
  readonly onDidReset = this._onDidReset.event;

  constructor(options: Partial<PlatformOptions> = {}) {
    // Only the platform's own options: start-up settings (port, seed, data folder) stay out.
    this.options = { ...defaultOptions };
    for (const key of Object.keys(defaultOptions) as Array<keyof PlatformOptions>) {
      const value = options[key];
      if (typeof value === 'number') this.options[key] = value;
    }
  }

  /** A new id such as `ag_000001` or, with `random`, a hard-to-guess one. */
  nextId(prefix: string, opts: { width?: number; sep?: string } = {}): string {
    const n = (this.state.counters[prefix] ?? 0) + 1;
    this._onWillIssueId.fire({ prefix, n });
    this.state.counters[prefix] = n;
    return `${prefix}${opts.sep ?? '_'}${String(n).padStart(opts.width ?? 6, '0')}`;
  }

  now(): string {
    return this.clock.iso();
  }

  mutated(): void {
    this._onDidMutate.fire();
  }

  /** A conversation changed; saved with the next write, or once the current work is done. */
  conversationChanged(conv: StoredConversation): void {
    this._onDidChangeConversation.fire(conv);
  }

  replaceState(next: PlatformState): void {
    this.state = next;
    this._onDidReset.fire();
    this.mutated();
  }

  /** A family's own section of the state, created on first use. */
  section<T>(name: string, init: () => T): T {
    if (!(name in this.state.families)) this.state.families[name] = init();
    return this.state.families[name] as T;
  }

  // ---- identity ----

  /** Finds an account by its slug or prefixed id (ADDR-1). */
  findAccount(idOrSlug: string): StoredAccount | undefined {
    return this.state.accounts.find((a) => a.id === idOrSlug || a.slug === idOrSlug);
  }

  /** Finds a project of an account by its slug or prefixed id (ADDR-1). */
  findProject(account: StoredAccount, idOrSlug: string): StoredProject | undefined {
    return this.state.projects.find((p) => p.accountId === account.id && (p.id === idOrSlug || p.slug === idOrSlug));
  }

  projectById(projectId: string): StoredProject | undefined {
    return this.state.projects.find((p) => p.id === projectId);
  }

  /** The key record for a header value and family, or undefined. */
  findKey(family: KeyFamily, value: string | undefined): StoredApiKey | undefined {
    if (!value) return undefined;
    return this.state.keys.find((k) => k.family === family && k.key === value);
  }

  /** Agents and Alerts: 401 with the build error body when the key is missing or wrong. */
  requireBuildKey(family: 'agents' | 'alerts', value: string | undefined): StoredApiKey {
    const key = this.findKey(family, value);
    if (!key) throw buildError(401, value ? 'Invalid API key' : 'Missing API key: send it in the x-api-key header');
    return key;
  }

  /** Runtime APIs answer with `error_message`. */
  requireRuntimeKey(family: KeyFamily, value: string | undefined): StoredApiKey {
    const key = this.findKey(family, value);
    if (!key) throw runtimeError(401, value ? 'Invalid API key' : 'Missing API key');
    return key;
  }

  /**
   * Resolves `{account_id}/{project_id}` of a runtime path and checks the key may read it.
   * 404 when unknown, 403 when the key belongs elsewhere.
   */
  resolveProjectPath(
    accountParam: string,
    projectParam: string,
    key: StoredApiKey,
    errorBody: (status: number, msg: string) => HttpError = runtimeError,
  ): { account: StoredAccount; project: StoredProject } {
    const account = this.findAccount(accountParam);
    if (!account) throw errorBody(404, `Account not found: ${accountParam}`);
    const project = this.findProject(account, projectParam);
    if (!project) throw errorBody(404, `Project not found: ${projectParam}`);
    if (key.accountId !== account.id || (key.projectId && key.projectId !== project.id)) {
      throw errorBody(403, 'This API key is not authorized for this account or project');
    }
    return { account, project };
  }

  // ---- conversations (shared by chat, messaging, outbound, dni, conversations, concurrency, alerts) ----

  addConversation(conv: StoredConversation): StoredConversation {
    this.state.conversations.push(conv);
    this.conversationChanged(conv);
    return conv;
  }

  findConversation(id: string): StoredConversation | undefined {
    // Newest first: live conversations are at the end.
    for (let i = this.state.conversations.length - 1; i >= 0; i--) {
      const c = this.state.conversations[i]!;
      if (c.id === id) return c;
    }
    return undefined;
  }

  /** Ends a conversation: in_progress false, durations set. */
  endConversation(conv: StoredConversation): void {
    if (!conv.in_progress) return;
    conv.in_progress = false;
    conv.ended_at = this.now();
    const secs = Math.max(0, (Date.parse(conv.ended_at) - Date.parse(conv.started_at)) / 1000);
    conv.total_duration = Math.round(secs * 10) / 10;
    conv.polyai_duration = conv.handoff ? conv.polyai_duration || conv.total_duration : conv.total_duration;
    this.conversationChanged(conv);
  }
}
