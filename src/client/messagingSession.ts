import {
  ASSUMED_CLIENT_EVENT_NAMES,
  type ClientEventKind,
  type ClientEventNames,
  type ClientEventType,
  JOIN_REQUEST_TYPE,
  type ServerEventKind,
  type ServerEventNames,
  type SessionEndReason,
  SYSTEM_ERRORS,
} from '../contract/messaging';
import type { IDisposable } from '../core/disposable';
import { Emitter, type Event } from '../core/event';
import { Redactor } from '../core/redact';
import { type BackoffPolicy, backoffDelay, sleep } from '../core/retry';
import { PlatformError } from './errors';
import type { AccessToken } from './accessToken';
import {
  type AgentMessage,
  checkClientEvent,
  type HandoffChange,
  type HistoryBatch,
  type MessagingEvent,
  type RefusedEvent,
  SessionEvents,
  type SystemMessage,
  type UnrecognizedEvent,
} from './messagingEvents';
import { type Delivery, DeliveryLedger } from './messagingLedger';
import { type RecoveryAction, RecoveryPlanner, type SessionRecovery } from './messagingRecovery';
import { historyEvents } from './messagingUnknowns';
import { OPEN_OPERATION, SendQueue, SessionSocket, socketUrl } from './messagingSocket';

export type CloseReason = 'closed' | 'ended' | 'expired' | 'unauthorized' | 'failed';

export type SessionState =
  | { kind: 'idle' }
  | { kind: 'connecting' }
  | { kind: 'open' }
  | { kind: 'reconnecting'; attempt: number; delayMs: number }
  | { kind: 'closed'; reason: CloseReason; message: string; error?: PlatformError };

export type ClosedState = Extract<SessionState, { kind: 'closed' }>;

export interface MessagingSessionOptions {
  /** {messaging_url}; http becomes ws and https wss. */
  messagingUrl: string;
  sessionId: string;
  /** The token that created the session: only it opens the session's WebSocket. */
  accessToken: AccessToken;
  /** Gets a new token when this one has expired (the platform decides whether it may reopen the session). */
  renewAccessToken?: () => Promise<AccessToken>;
  /** Asks the agent to join after the history when it has not joined yet (default true). */
  autoJoin?: boolean;
  /** How long to wait for the history batch after the socket opens before asking the agent to join anyway (default 2 s). */
  historyTimeoutMs?: number;
  /** How long queued messages wait for the agent-joined event before they are sent anyway (default 10 s). */
  joinTimeoutMs?: number;
  /** Names of the four assumed client events (the spec shows only the join request); defaults in ASSUMED_CLIENT_EVENT_NAMES. */
  eventNames?: Partial<ClientEventNames>;
  /** Names of the server events the spec does not name, read besides ours (ASSUMED_SERVER_EVENT_NAMES). */
  serverEventNames?: Partial<ServerEventNames>;
  /** After a reconnect's history, how long an answer may take to show that a message written before the drop arrived (default 1.5 s). */
  lostGraceMs?: number;
  /** How long a written message may wait for its echo (platform known to echo; default 5 s) or an answer (default 15 s). */
  echoWaitMs?: number;
  answerWaitMs?: number;
  /** Starts a new session when the platform says this one is gone ("Error: Session not found"). */
  newSession?: () => Promise<{ sessionId: string; accessToken: AccessToken }>;
  /** The wait of "retry after a few seconds" (default 3 s). */
  retryLaterMs?: number;
  /** Reconnect attempts after an abnormal close: exponential with full jitter. */
  reconnect?: BackoffPolicy;
  handshakeTimeoutMs?: number;
  heartbeatMs?: number;
}

/** A session that ends for this reason has expired: onExpired says so (a session end for it needs no word of its own). */
export function endsAsExpired(reason: string): boolean {
  return reason === 'inactivity';
}

/** Why something was not sent: the session is closed, for the reason its state gives. */
export class SessionClosedError extends Error {
  constructor(readonly state: ClosedState) {
    super(`Nothing was sent: ${state.message}`);
    this.name = 'SessionClosedError';
  }
}

/** How a connection attempt went; `tokenExpired` when the token was renewed because the old one had run out. */
type Outcome = { kind: 'open' } | { kind: 'refused' | 'failed'; error: PlatformError; tokenExpired?: boolean };

const JOIN_REQUEST = JSON.stringify({ type: JOIN_REQUEST_TYPE, payload: {} });
/** The contract's name of each client event kind, for checking payloads before sending. */
const CANONICAL: Record<ClientEventKind, ClientEventType> = {
  userMessage: 'EVENT_TYPE_USER_MESSAGE',
  userTyping: 'EVENT_TYPE_USER_TYPING',
  requestHandoff: 'EVENT_TYPE_REQUEST_HANDOFF',
  endSession: 'EVENT_TYPE_END_SESSION',
};
/**
 * How long after a typing indicator was written the platform's "Unknown event type or invalid message format" is
 * taken for its refusal: the platform answers a refused event at once, and the indicator is what the session sends
 * by itself, unasked, under a name the spec does not show.
 */
const TYPING_REFUSAL_MS = 3_000;
const DEFAULT_RECONNECT: BackoffPolicy = { retries: 8, baseMs: 500, maxMs: 15_000 };
/** A token this close to its expiry is renewed before a reconnect rather than refused after it. */
const RENEW_MARGIN_MS = 5_000;

/**
 * A messaging session over its WebSocket: the history on connect, the join when it is missing
 * (MSG-16/17), typed events delivered once each and in order, the agent's streamed answers
 * assembled, and reconnects from the last cursor after an abnormal close, with whatever was
 * sent meanwhile delivered once afterwards. The access token never appears in errors or states.
 */
export class MessagingSession implements IDisposable {
  private readonly events: SessionEvents;
  private readonly ledger: DeliveryLedger;
  private readonly _onSystemMessage = new Emitter<SystemMessage>();
  private readonly _onExpired = new Emitter<{ message: string }>();
  private readonly _onStateChange = new Emitter<SessionState>();
  private readonly _onRecovery = new Emitter<SessionRecovery>();
  private readonly names: ClientEventNames;
  private readonly planner = new RecoveryPlanner();
  /** Settles, a while after a reconnect's history, what was written on the lost connection. */
  private lostTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Answers seen streaming and not yet complete: the platform is busy writing them, and a message written meanwhile
   * may wait behind them, read but not yet in the history.
   */
  private readonly answering = new Set<string>();
  /** Since when what was written on a lost connection has waited for an answer in progress to end. */
  private lostWaitSince: number | undefined;
  /** The socket is open (connect has resolved for this connection). */
  private opened = false;
  /**
   * Moving to a new session after "Error: Session not found": the old session's end (SESSION_END can follow
   * the error) and its socket closing are not this session ending; the move connects to the new one.
   */
  private moving = false;
  /** The history of this connection has arrived (or was waited for long enough). */
  private historyDone = false;
  private waitTimer: ReturnType<typeof setTimeout> | undefined;
  /** Every server event, once, in order; a history batch is delivered as the events it holds. */
  readonly onEvent: Event<MessagingEvent>;
  /** Each history batch received (on every connect): how many events, how many new here, or why it is unreadable. */
  readonly onHistory: Event<HistoryBatch>;
  /** The agent's answer as it grows (streaming) and when complete or interrupted. */
  readonly onMessage: Event<AgentMessage>;
  readonly onTyping: Event<boolean>;
  readonly onHandoff: Event<HandoffChange>;
  /** System messages with their level, and what the session itself does about them; the connection stays open. */
  readonly onSystemMessage: Event<SystemMessage> = this._onSystemMessage.event;
  readonly onSessionEnd: Event<{ reason: SessionEndReason | string }>;
  /** Events the contract does not know, kept for display rather than dropped silently. */
  readonly onUnrecognizedEvent: Event<UnrecognizedEvent>;
  /** Each change of where a message the person sent stands (the session's one ledger of them). */
  readonly onDelivery: Event<Delivery>;
  /** The session cannot be continued (inactivity, gone, or its token expired): start a new one. */
  readonly onExpired: Event<{ message: string }> = this._onExpired.event;
  readonly onStateChange: Event<SessionState> = this._onStateChange.event;
  /** Each time the session acts on a system message of the spec's table (join again, send again, a new session). */
  readonly onRecovery: Event<SessionRecovery> = this._onRecovery.event;

  private currentSessionId: string;
  private token: AccessToken;
  private readonly redactor = new Redactor();
  private readonly policy: BackoffPolicy;
  private readonly outbox = new SendQueue();
  private readonly stop = new AbortController();
  private current: SessionState = { kind: 'idle' };
  private socket: SessionSocket | undefined;
  /** The open socket has delivered its history: sends go straight out. */
  private ready = false;
  private openedOnce = false;
  private settleAttempt: ((o: Outcome) => void) | undefined;
  private connecting: Promise<void> | undefined;
  /** When each typing indicator not yet answered was written (a refusal takes the oldest). */
  private typingWritten: number[] = [];
  /** The platform refused the typing indicator in this session: it is not sent again. */
  private typingRefused = false;

  constructor(private readonly options: MessagingSessionOptions) {
    this.currentSessionId = options.sessionId;
    this.token = options.accessToken;
    this.redactor.add(this.token.reveal());
    this.policy = options.reconnect ?? DEFAULT_RECONNECT;
    this.names = { ...ASSUMED_CLIENT_EVENT_NAMES, ...options.eventNames };
    this.events = new SessionEvents(options.serverEventNames);
    this.ledger = new DeliveryLedger((connection) => connection === this.socket && this.opened, {
      ...(options.echoWaitMs !== undefined ? { echoWaitMs: options.echoWaitMs } : {}),
      ...(options.answerWaitMs !== undefined ? { answerWaitMs: options.answerWaitMs } : {}),
    });
    this.onEvent = this.events.onEvent;
    this.onHistory = this.events.onHistory;
    this.onMessage = this.events.onMessage;
    this.onTyping = this.events.onTyping;
    this.onHandoff = this.events.onHandoff;
    this.onSessionEnd = this.events.onSessionEnd;
    this.onUnrecognizedEvent = this.events.onUnrecognizedEvent;
    this.onDelivery = this.ledger.onChange;
    // These listeners come first, so the ledger knows of an echo or an answer before anyone else hears of it.
    this.events.onSessionEnd(({ reason }) => this.ended(reason));
    this.events.onSystemMessage((m) => {
      const refused = this.refusal(m.text);
      if (refused) return this._onSystemMessage.fire({ ...m, refused });
      const action = this.recover(m.text);
      this._onSystemMessage.fire(action ? { ...m, sessionAction: action } : m);
    });
    this.events.onEvent((e) => {
      if (e.type === 'EVENT_TYPE_VIRTUAL_AGENT_JOINED') this.agentJoined();
      if (e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE') this.planner.reset();
      if (e.type === 'EVENT_TYPE_USER_MESSAGE') this.ledger.echoed(e.payload.text, e.id);
      if (e.type === 'EVENT_TYPE_LIVE_AGENT_MESSAGE') this.ledger.answered();
    });
    this.events.onMessage((m) => {
      if (m.state === 'complete') this.ledger.answered();
      if (m.state === 'streaming') this.answering.add(m.messageId);
      // The last answer in progress ended: what waited for it is settled after the grace, from now.
      else if (this.answering.delete(m.messageId) && this.answering.size === 0 && this.lostWaitSince !== undefined)
        this.settleLostLater();
    });
    // An event of a name not known here that carries one text is most likely the answer under another name.
    this.events.onUnrecognizedEvent((u) => {
      if (u.text !== undefined) this.ledger.answered();
    });
  }

  /** The platform has echoed a message in this session (so a missing echo means something). */
  get echoKnown(): boolean {
    return this.ledger.echoKnown;
  }

  /** From now on, server events named `name` are read as the events of this kind (a name the person chose). */
  useServerEventName(kind: ServerEventKind, name: string): void {
    this.events.useName(kind, name);
  }

  /** The session's id; it changes when the session starts a new one after "Session not found". */
  get sessionId(): string {
    return this.currentSessionId;
  }

  get state(): SessionState {
    return this.current;
  }

  /** The position to resume the history from (sent as `cursor` on reconnect). */
  get cursor(): number | undefined {
    return this.events.cursor;
  }

  /** The conversation the agent started when it joined, once known. */
  get conversationId(): string | undefined {
    return this.events.conversationId;
  }

  /**
   * Opens the WebSocket; resolves once it is open. The history follows, then the join request when the
   * agent has not joined; messages sent meanwhile wait for the agent-joined event.
   */
  connect(): Promise<void> {
    this.connecting ??= this.firstConnect();
    return this.connecting;
  }

  /**
   * Sends a message of the person's; resolves once written to a connection. Where it stands afterwards (delivered,
   * unconfirmed) is told through onDelivery, whose first change for it comes before this returns.
   */
  async sendMessage(text: string, custom?: Record<string, unknown>): Promise<void> {
    checkClientEvent(
      { type: CANONICAL.userMessage, payload: { text }, ...(custom !== undefined ? { metadata: { custom } } : {}) },
      'Send a message',
    );
    if (this.closed) throw new SessionClosedError(this.closed);
    await this.write(this.ledger.add(text, custom));
  }

  /** The person sends again a message that is unconfirmed or failed: a new message; the old one is no longer waited for. */
  async sendAgain(deliveryId: string): Promise<void> {
    const old = this.ledger.replace(deliveryId);
    if (old) await this.sendMessage(old.text, old.custom);
  }

  /** Writes a message of the ledger; the ledger hears where it went. */
  private async write(d: Delivery): Promise<void> {
    const json = JSON.stringify({
      type: this.names.userMessage,
      payload: { text: d.text },
      ...(d.custom !== undefined ? { metadata: { custom: d.custom } } : {}),
    });
    try {
      this.ledger.written(d.id, await this.outbox.push(json));
    } catch (err) {
      this.ledger.failed(d.id, err);
      throw err;
    }
  }

  /**
   * Typing is momentary: while the connection is down it is not kept for later. Once the platform has refused it,
   * it is not sent again in this session.
   */
  async sendTyping(typing: boolean): Promise<void> {
    if (this.typingRefused) return;
    if (await this.send('userTyping', { typing }, undefined, 'Send the typing indicator', false))
      this.typingWritten.push(Date.now());
  }

  /**
   * The typing indicator this system error refuses, if it is one: "Event type not allowed" naming its type, or the
   * unknown-type error soon after one was written (the oldest such one). Nothing else is sent again or asked about.
   */
  private refusal(text: string): RefusedEvent | undefined {
    const type = this.names.userTyping;
    const now = Date.now();
    this.typingWritten = this.typingWritten.filter((at) => now - at < TYPING_REFUSAL_MS);
    const named = text === `${SYSTEM_ERRORS.notAllowedPrefix}${type}`;
    if (!named && (text !== SYSTEM_ERRORS.invalidFormat || this.typingWritten.length === 0)) return undefined;
    this.typingWritten.shift();
    const first = !this.typingRefused;
    this.typingRefused = true;
    return { kind: 'userTyping', type, first };
  }

  async requestHandoff(reason?: string, custom?: Record<string, unknown>): Promise<void> {
    await this.send('requestHandoff', reason === undefined ? {} : { reason }, custom, 'Ask for a person');
  }

  /** Asks the agent to join again (after "unable to start a conversation"); goes out ahead of waiting messages. */
  async join(): Promise<void> {
    if (this.closed) throw new SessionClosedError(this.closed);
    await this.socket?.send(JOIN_REQUEST);
  }

  /** Ends the session on the platform; SESSION_END follows and closes it here. */
  async endSession(reason?: string): Promise<void> {
    await this.send('endSession', reason === undefined ? {} : { reason }, undefined, 'End the session');
  }

  /** Closes the connection and stops reconnecting; the session stays on the platform until it expires. */
  close(): void {
    this.finish({ kind: 'closed', reason: 'closed', message: 'The messaging session was closed here.' });
  }

  dispose(): void {
    this.close();
    this.events.dispose();
    this._onExpired.dispose();
    this._onStateChange.dispose();
    this._onRecovery.dispose();
    this._onSystemMessage.dispose();
    this.ledger.dispose();
  }

  private get closed(): ClosedState | undefined {
    return this.current.kind === 'closed' ? this.current : undefined;
  }

  private async firstConnect(): Promise<void> {
    if (this.closed) throw new SessionClosedError(this.closed);
    this.setState({ kind: 'connecting' });
    const outcome = await this.openWithToken();
    if (outcome.kind === 'open') return;
    if (!this.closed)
      this.finish(
        this.finalState(outcome) ?? {
          kind: 'closed',
          reason: 'failed',
          message: outcome.error.message,
          error: outcome.error,
        },
      );
    throw outcome.error;
  }

  private async reconnect(): Promise<void> {
    let last: PlatformError | undefined;
    for (let attempt = 1; attempt <= this.policy.retries; attempt++) {
      const delayMs = backoffDelay(this.policy, attempt);
      this.setState({ kind: 'reconnecting', attempt, delayMs });
      try {
        await sleep(delayMs, this.stop.signal);
      } catch {
        return;
      }
      const outcome = await this.openWithToken();
      if (this.closed || outcome.kind === 'open') return;
      const final = this.finalState(outcome);
      if (final) return this.finish(final);
      last = outcome.error;
    }
    const message = `The connection to the messaging session was lost and ${this.policy.retries} attempts to reconnect failed${last ? `: ${last.message}` : '.'}`;
    this.finish({ kind: 'closed', reason: 'failed', message, ...(last ? { error: last } : {}) });
  }

  /**
   * One connection attempt. An expired token is renewed first; after a 401 the token is renewed
   * once and the attempt repeated, since the platform may or may not let a new token reopen it.
   */
  private async openWithToken(): Promise<Outcome> {
    let renewed = false;
    let tokenExpired = false;
    const renewAccessToken = this.options.renewAccessToken;
    const renew = async (renewWith: () => Promise<AccessToken>): Promise<Outcome | undefined> => {
      try {
        this.token = await renewWith();
        this.redactor.add(this.token.reveal());
        renewed = true;
        return undefined;
      } catch (err) {
        const error =
          err instanceof PlatformError
            ? err
            : new PlatformError({
                family: 'messaging',
                kind: 'network',
                operation: OPEN_OPERATION,
                serverMessage: this.redactor.redact(String(err)),
              });
        return { kind: error.isTransient ? 'failed' : 'refused', error };
      }
    };
    if (renewAccessToken && this.token.expiresWithin(RENEW_MARGIN_MS)) {
      const failed = await renew(renewAccessToken);
      if (failed) return failed;
      tokenExpired = true;
    }
    let outcome = await this.attempt();
    if (outcome.kind === 'refused' && outcome.error.status === 401 && renewAccessToken && !renewed && !this.closed) {
      const failed = await renew(renewAccessToken);
      if (failed) return failed;
      // A token that opened this session before and is refused now has most likely expired.
      tokenExpired = this.openedOnce;
      outcome = await this.attempt();
    }
    return outcome.kind === 'open' ? outcome : { ...outcome, tokenExpired: tokenExpired && renewed };
  }

  /** The closed state an outcome leads to, or undefined when trying again may help. */
  private finalState(outcome: Exclude<Outcome, { kind: 'open' }>): ClosedState | undefined {
    const { error } = outcome;
    if (outcome.kind === 'failed' && this.openedOnce) return undefined;
    if (outcome.kind === 'failed') return { kind: 'closed', reason: 'failed', message: error.message, error };
    if (error.status === 404) {
      return {
        kind: 'closed',
        reason: 'expired',
        message: 'The messaging session has expired or no longer exists (session not found). Start a new session.',
        error,
      };
    }
    if (error.status === 401 && outcome.tokenExpired) {
      return {
        kind: 'closed',
        reason: 'expired',
        message:
          'The access token of this messaging session has expired, and only the token that created a session can reopen it. Start a new session.',
        error,
      };
    }
    if (error.isTransient && this.openedOnce) return undefined;
    return {
      kind: 'closed',
      reason: error.kind === 'unauthorized' ? 'unauthorized' : 'failed',
      message: error.message,
      error,
    };
  }

  private attempt(): Promise<Outcome> {
    return new Promise((resolve) => {
      if (this.closed) {
        resolve({
          kind: 'failed',
          error: new PlatformError({ family: 'messaging', kind: 'cancelled', operation: OPEN_OPERATION }),
        });
        return;
      }
      this.ready = false;
      this.opened = false;
      this.historyDone = false;
      this.settleAttempt = (o) => {
        this.settleAttempt = undefined;
        resolve(o);
      };
      const url = socketUrl(this.options.messagingUrl, {
        access_token: this.token.reveal(),
        session_id: this.sessionId,
        cursor: this.events.cursor?.toString(),
      });
      const socket: SessionSocket = new SessionSocket(
        url,
        this.redactor,
        {
          handshakeTimeoutMs: this.options.handshakeTimeoutMs ?? 15_000,
          heartbeatMs: this.options.heartbeatMs ?? 25_000,
        },
        {
          opened: () => this.socketOpened(socket),
          message: (text) => this.receive(text),
          refused: (error) => {
            if (this.socket === socket) this.socket = undefined;
            this.settleAttempt?.({ kind: 'refused', error });
          },
          closed: (code, error) => {
            if (this.socket !== socket) return;
            this.socket = undefined;
            this.outbox.pause();
            this.clearWait();
            if (this.opened) return this.dropped();
            this.settleAttempt?.({
              kind: 'failed',
              error:
                error ??
                new PlatformError({
                  family: 'messaging',
                  kind: 'network',
                  operation: OPEN_OPERATION,
                  serverMessage: `closed (${code}) before the history arrived`,
                }),
            });
          },
        },
      );
      this.socket = socket;
    });
  }

  private dropped(): void {
    this.ready = false;
    this.opened = false;
    if (!this.closed && !this.moving) void this.reconnect();
  }

  /** The type a client event of this kind is sent under. */
  eventName(kind: ClientEventKind): string {
    return this.names[kind];
  }

  /** True while the session moves to a new one after "Error: Session not found". */
  get movingToNewSession(): boolean {
    return this.moving;
  }

  /** The socket is open: connect resolves now; the history is waited for, but not for ever. */
  private socketOpened(socket: SessionSocket): void {
    if (this.socket !== socket || this.closed) return;
    this.opened = true;
    this.openedOnce = true;
    this.setState({ kind: 'open' });
    this.settleAttempt?.({ kind: 'open' });
    this.clearWait();
    this.waitTimer = setTimeout(() => this.afterHistory(), this.options.historyTimeoutMs ?? 2_000);
  }

  private receive(text: string): void {
    const event = this.events.parse(text);
    if (!event) return;
    if (event.type === 'EVENT_TYPE_EVENT_BATCH') {
      const found = historyEvents(event.payload);
      if ('events' in found) return this.history(found.events, event.payload.cursor);
      this.events.unreadableHistory(event, found.unreadable);
      return this.afterHistory();
    }
    // A history event beyond the cursor means some were missed: reconnect to have them replayed in order.
    if (this.historyDone && this.events.isAhead(event)) return this.socket?.drop();
    this.events.deliver(event);
  }

  private history(events: readonly unknown[], cursor: number | undefined): void {
    this.events.history(events, cursor);
    this.afterHistory();
  }

  /** After the history (or its timeout): the join request when the agent has not joined, then wait for it. */
  private afterHistory(): void {
    this.clearWait();
    if (this.closed || this.historyDone || !this.socket) return;
    this.historyDone = true;
    this.lostWaitSince = undefined;
    this.settleLostLater();
    const autoJoin = this.options.autoJoin ?? true;
    if (this.events.joined || !autoJoin) return this.release();
    // Straight to the socket, ahead of what waits: a failed join is decided again on the next connect.
    this.socket.send(JOIN_REQUEST).catch(() => undefined);
    this.waitTimer = setTimeout(() => {
      if (this.ready) return;
      this._onRecovery.fire({
        action: 'none',
        systemText: '',
        message: 'The agent has not said that it joined; waiting messages are sent anyway.',
      });
      this.release();
    }, this.options.joinTimeoutMs ?? 10_000);
  }

  private agentJoined(): void {
    this.planner.reset();
    if (this.historyDone) this.release();
  }

  /** Sends go straight out from now on, and what waited goes first. */
  private release(): void {
    this.clearWait();
    if (this.ready || this.closed || !this.socket) return;
    this.ready = true;
    this.outbox.resume(this.socket);
  }

  /**
   * What was written on a lost connection and not shown to have arrived: a while after the history (an answer
   * in progress may still show it arrived), written again where the platform is known to echo, else unconfirmed.
   * While the platform is still writing an answer (its pieces came, its end has not), a message written meanwhile
   * may be waiting behind it, read but not yet recorded: it is settled only after that answer ends (and the grace
   * again), or once it has waited as long as an answer may take.
   */
  private settleLostLater(): void {
    clearTimeout(this.lostTimer);
    const since = (this.lostWaitSince ??= Date.now());
    const longest = this.options.answerWaitMs ?? 15_000;
    this.lostTimer = setTimeout(() => {
      if (this.closed || !this.socket || !this.opened) return;
      const waited = Date.now() - since;
      if (this.answering.size > 0 && waited < longest) {
        // Its end settles them (see the onMessage listener); this is in case it never comes.
        this.lostTimer = setTimeout(() => this.settleLost(), longest - waited);
        this.lostTimer.unref?.();
        return;
      }
      this.settleLost();
    }, this.options.lostGraceMs ?? 1_500);
    this.lostTimer.unref?.();
  }

  private settleLost(): void {
    this.lostWaitSince = undefined;
    if (this.closed || !this.socket || !this.opened) return;
    for (const d of this.ledger.lost()) void this.write(d).catch(() => undefined);
  }

  private clearWait(): void {
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = undefined;
  }

  /** Carries out the client action of the spec's system-message table, and says so; returns the action it takes. */
  private recover(text: string): Exclude<RecoveryAction, 'none'> | undefined {
    const plan = this.planner.plan(text);
    if (!plan || this.closed) return undefined;
    this._onRecovery.fire({ action: plan.action, systemText: text, message: plan.advice });
    const act = (): void => {
      if (this.closed) return;
      switch (plan.action) {
        case 'rejoin':
          void this.join().catch(() => undefined);
          break;
        case 'resend': {
          // Retried is what failed: the message (at the platform's word, not a guess), or the join when the
          // error came before the agent joined.
          const again = this.ledger.repeatLast();
          if (again) void this.write(again).catch(() => undefined);
          else if (!this.events.joined) void this.join().catch(() => undefined);
          break;
        }
        case 'reconnect':
          this.socket?.drop();
          break;
        case 'newSession':
          void this.startNewSession(text);
          break;
        case 'none':
          break;
      }
    };
    if (plan.later) setTimeout(act, this.options.retryLaterMs ?? 3_000).unref?.();
    else act();
    return plan.action === 'none' ? undefined : plan.action;
  }

  /** "Start a new session": with `newSession` the session moves to a new one itself; without it, it ends as expired. */
  private async startNewSession(text: string): Promise<void> {
    if (!this.options.newSession) {
      this.finish({
        kind: 'closed',
        reason: 'expired',
        message: `The messaging session is gone (${text}). Start a new session.`,
      });
      return;
    }
    this.moving = true;
    try {
      const next = await this.options.newSession();
      if (this.closed) return;
      this.currentSessionId = next.sessionId;
      this.token = next.accessToken;
      this.redactor.add(this.token.reveal());
      this.events.restart();
      this.answering.clear();
    } catch (err) {
      const error = err instanceof PlatformError ? err : undefined;
      this.finish({
        kind: 'closed',
        reason: 'expired',
        message: `The messaging session is gone (${text}) and a new one could not be started${error ? `: ${error.message}` : '.'}`,
        ...(error ? { error } : {}),
      });
      return;
    } finally {
      this.moving = false;
    }
    // To the new session: through the socket's drop when it is still open, else straight away.
    if (this.closed) return;
    if (this.socket) this.socket.drop();
    else void this.reconnect();
  }

  private ended(reason: string): void {
    if (this.moving) return;
    if (endsAsExpired(reason)) {
      this.finish({
        kind: 'closed',
        reason: 'expired',
        message: 'The messaging session expired after a period of inactivity. Start a new session.',
      });
    } else {
      this.finish({
        kind: 'closed',
        reason: 'ended',
        message: `The messaging session has ended (${reason}). Start a new session to continue.`,
      });
    }
  }

  private async send(
    kind: ClientEventKind,
    payload: Record<string, unknown>,
    custom: Record<string, unknown> | undefined,
    operation: string,
    keep = true,
  ): Promise<boolean> {
    const envelope = checkClientEvent(
      { type: CANONICAL[kind], payload, ...(custom !== undefined ? { metadata: { custom } } : {}) },
      operation,
    );
    if (this.closed) throw new SessionClosedError(this.closed);
    if (!keep && !this.ready) return false;
    // Sent under the name the session was given (the spec does not show the four assumed names).
    await this.outbox.push(JSON.stringify({ ...envelope, type: this.names[kind] }));
    return true;
  }

  private finish(state: ClosedState): void {
    if (this.closed) return;
    this.ready = false;
    this.clearWait();
    clearTimeout(this.lostTimer);
    this.stop.abort();
    const socket = this.socket;
    this.socket = undefined;
    socket?.close(1000, 'closed by the client');
    this.setState(state);
    this.outbox.close(() => new SessionClosedError(state));
    this.settleAttempt?.({
      kind: 'failed',
      error: state.error ?? new PlatformError({ family: 'messaging', kind: 'cancelled', operation: OPEN_OPERATION }),
    });
    if (state.reason === 'expired') this._onExpired.fire({ message: state.message });
  }

  private setState(state: SessionState): void {
    this.current = state;
    this._onStateChange.fire(state);
  }
}
