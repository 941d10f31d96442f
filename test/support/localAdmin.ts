import {
  ADMIN_PREFIX,
  type AlertsSwitchesReply,
  type AlertsSwitchesRequest,
  type BranchEditReply,
  type BranchEditRequest,
  type ClockReply,
  type ConcurrencyQueriesReply,
  type ConnectionReply,
  type ConnectorReply,
  type ConnectorRequest,
  type ConversationReply,
  type ConversationRequest,
  type DeliveriesQuery,
  type DeliveriesReply,
  type DniCallReply,
  type DniCallRequest,
  type DniReservationsReply,
  type EvaluationReply,
  type ExternalEventsReply,
  type FaultRequest,
  type FaultsReply,
  type GenerateAgentsRequest,
  type GenerateConversationsRequest,
  type GeneratedAgentsReply,
  type GeneratedConversationsReply,
  type HealthReply,
  type MessagingSessionsReply,
  type ReceivedMessagesReply,
  type OkReply,
  type OptionsReply,
  type OptionsRequest,
  type OutboundCallsReply,
  type PendingEventReply,
  type PendingEventRequest,
  type ProjectSettingsReply,
  type ProjectSettingsRequest,
  type RequestsQuery,
  type RequestsReply,
  type ResetReply,
  type ResponsesReply,
  type SessionEventReply,
  type SessionEventRequest,
  type TurnsReply,
  type TurnsRequest,
} from '../../src/localPlatform/adminApi';
import type { OutboundCallStatus } from '../../src/contract/outbound';
import type { Fault } from '../../src/localPlatform/faults';
import type { ResponsesMode } from '../../src/localPlatform/responsesMode';
import type { SeedName } from '../../src/localPlatform/seed/seeds';

/** An admin request the local platform refused: its status and what it answered. */
export class AdminError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${method} ${ADMIN_PREFIX}${path} answered ${status}: ${JSON.stringify(body)}`);
  }
}

/**
 * The local platform's admin API (`/_local/...`), typed: reset and seed, faults, the clock, the request log,
 * and each family's switches. Every test runner and benchmark reaches the admin API through it. A request
 * the platform refuses rejects with an AdminError, so a setup step that did not happen never passes silently.
 */
export class LocalAdmin {
  /** `url` is the admin API's own address (`{origin}/_local`, as `urls.admin` of a started platform says). */
  constructor(readonly url: string) {}

  /** The admin API of the local platform at `origin`. */
  static atOrigin(origin: string): LocalAdmin {
    return new LocalAdmin(`${origin.replace(/\/$/, '')}${ADMIN_PREFIX}`);
  }

  health(): Promise<HealthReply> {
    return this.send('GET', '/health');
  }

  connection(): Promise<ConnectionReply> {
    return this.send('GET', '/connection');
  }

  /** Seeds the state again (`base` unless named), clears the faults and puts the clock back to the wall clock. */
  reset(seed: SeedName = 'base'): Promise<ResetReply> {
    return this.send('POST', '/reset', { seed });
  }

  faults(): Promise<Fault[]> {
    return this.send<FaultsReply>('GET', '/faults').then((r) => [...r.faults]);
  }

  /** Arms a fault (for every family unless `family` says which). */
  addFault(fault: FaultRequest): Promise<Fault> {
    return this.send('POST', '/faults', fault);
  }

  clearFaults(): Promise<OkReply> {
    return this.send('DELETE', '/faults');
  }

  /** Clears one fault, keeping the others; a fault already used up is gone already, and that is no failure. */
  async removeFault(id: string): Promise<void> {
    await this.send('DELETE', `/faults/${encodeURIComponent(id)}`).catch((err: unknown) => {
      if (!(err instanceof AdminError && err.status === 404)) throw err;
    });
  }

  /** What the families were asked (never an admin request), oldest first. */
  requests(query: RequestsQuery = {}): Promise<RequestsReply['requests']> {
    const params = new URLSearchParams();
    if (query.since !== undefined) params.set('since', String(query.since));
    if (query.path !== undefined) params.set('path', query.path);
    if (query.base !== undefined) params.set('base', query.base);
    const search = params.size ? `?${params.toString()}` : '';
    return this.send<RequestsReply>('GET', `/requests${search}`).then((r) => r.requests);
  }

  /** The seq of the last request logged (0 before any): `since` for a later `requests()` or `sentBeforeMarker()`. */
  async lastRequestSeq(): Promise<number> {
    return (await this.requests()).at(-1)?.seq ?? 0;
  }

  /**
   * The barrier of a "nothing else was sent" check: sends a marker request after the action (a GET no client sends,
   * under the runtime base, answered 404; the platform logs a request before it answers it) and returns what was
   * logged after `since` and before the marker. A check then reads everything that reached the platform first, and
   * never waits a time.
   */
  async sentBeforeMarker(since = 0): Promise<RequestsReply['requests']> {
    const name = `marker-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const origin = this.url.slice(0, -ADMIN_PREFIX.length);
    await (await fetch(`${origin}/runtime/_test/${name}`)).text();
    const logged = await this.requests({ since });
    const marker = logged.find((r) => r.path.endsWith(`/${name}`));
    if (!marker) throw new Error(`the marker request ${name} is not in the request log`);
    return logged.filter((r) => r.seq < marker.seq);
  }

  clearRequests(): Promise<OkReply> {
    return this.send('DELETE', '/requests');
  }

  clock(): Promise<ClockReply> {
    return this.send('GET', '/clock');
  }

  advanceClock(ms: number): Promise<ClockReply> {
    return this.send('POST', '/clock', { advanceMs: ms });
  }

  setClock(iso: string): Promise<ClockReply> {
    return this.send('POST', '/clock', { set: iso });
  }

  setOptions(options: OptionsRequest): Promise<OptionsReply> {
    return this.send('PATCH', '/options', options);
  }

  /** Changes settings of a project, named by its id or slug. */
  setProjectSettings(project: string, settings: ProjectSettingsRequest): Promise<ProjectSettingsReply> {
    return this.send('PATCH', `/projects/${encodeURIComponent(project)}/settings`, settings);
  }

  responses(): Promise<ResponsesReply> {
    return this.send('GET', '/responses');
  }

  setResponses(mode: ResponsesMode): Promise<ResponsesReply> {
    return this.send('PUT', '/responses', { mode });
  }

  /** A teammate's edit of a branch, behind the Agents API's back. */
  editBranch(agentId: string, branchId: string, edit: BranchEditRequest): Promise<BranchEditReply> {
    return this.send('POST', `/agents/${agentId}/branches/${branchId}/edit`, edit);
  }

  /** Many agents of the seeded account at once, each with an empty main branch (load figures). */
  generateAgents(request: GenerateAgentsRequest): Promise<GeneratedAgentsReply> {
    return this.send('POST', '/agents/generate', request);
  }

  /** Many finished conversations like the demo week's, spread evenly over a range (load figures). */
  generateConversations(request: GenerateConversationsRequest): Promise<GeneratedConversationsReply> {
    return this.send('POST', '/conversations/generate', request);
  }

  /** Records a conversation as given (any text, any number of turns). */
  recordConversation(conversation: ConversationRequest): Promise<ConversationReply> {
    return this.send('POST', '/conversations', conversation);
  }

  addTurns(conversationId: string, turns: TurnsRequest): Promise<TurnsReply> {
    return this.send('POST', `/conversations/${conversationId}/turns`, turns);
  }

  evaluateAlerts(): Promise<EvaluationReply> {
    return this.send('POST', '/alerts/evaluate', {});
  }

  webhookDeliveries(query: DeliveriesQuery = {}): Promise<DeliveriesReply['deliveries']> {
    const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined));
    const search = params.size ? `?${params.toString()}` : '';
    return this.send<DeliveriesReply>('GET', `/webhook-deliveries${search}`).then((r) => r.deliveries);
  }

  alertSwitches(): Promise<AlertsSwitchesReply> {
    return this.send('GET', '/alerts/switches');
  }

  setAlertSwitches(switches: AlertsSwitchesRequest): Promise<AlertsSwitchesReply> {
    return this.send('PATCH', '/alerts/switches', switches);
  }

  dniReservations(): Promise<DniReservationsReply['reservations']> {
    return this.send<DniReservationsReply>('GET', '/dni/reservations').then((r) => r.reservations);
  }

  /** A call arriving on a reserved number. */
  dniCall(number: string, call: DniCallRequest = {}): Promise<DniCallReply> {
    return this.send('POST', `/dni/${encodeURIComponent(number)}/call`, call);
  }

  outboundCalls(): Promise<OutboundCallStatus[]> {
    return this.send<OutboundCallsReply>('GET', '/outbound/calls').then((r) => r.calls);
  }

  answerCall(callSid: string): Promise<OutboundCallStatus> {
    return this.send('POST', `/outbound/calls/${callSid}/answer`);
  }

  hangUpCall(callSid: string): Promise<OutboundCallStatus> {
    return this.send('POST', `/outbound/calls/${callSid}/hangup`);
  }

  messagingSessions(): Promise<MessagingSessionsReply['sessions']> {
    return this.send<MessagingSessionsReply>('GET', '/messaging/sessions').then((r) => r.sessions);
  }

  /** Every user message a session's WebSocket took in, in order (past its rate limit). */
  receivedMessages(sessionId: string): Promise<ReceivedMessagesReply['messages']> {
    return this.send<ReceivedMessagesReply>('GET', `/messaging/sessions/${sessionId}/messages`).then((r) => r.messages);
  }

  /** One event of any type to a session's open sockets (never its history). */
  sendSessionEvent(sessionId: string, event: SessionEventRequest): Promise<SessionEventReply> {
    return this.send('POST', `/messaging/sessions/${sessionId}/events`, event);
  }

  setConnector(connectorId: string, change: ConnectorRequest): Promise<ConnectorReply> {
    return this.send('PATCH', `/messaging/connectors/${connectorId}`, change);
  }

  externalEvents(): Promise<ExternalEventsReply> {
    return this.send('GET', '/external-events');
  }

  /** Makes a conversation in progress wait on an event id (a new one unless given). */
  awaitExternalEvent(request: PendingEventRequest): Promise<PendingEventReply> {
    return this.send('POST', '/external-events/pending', request);
  }

  concurrencyQueries(): Promise<ConcurrencyQueriesReply['queries']> {
    return this.send<ConcurrencyQueriesReply>('GET', '/concurrency/queries').then((r) => r.queries);
  }

  private async send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: the refusal keeps the text
    }
    if (!res.ok) throw new AdminError(method, path, res.status, parsed);
    return parsed as T;
  }
}
