import * as vscode from 'vscode';
import type { MessagingClient } from '../../../client/messaging';
import type {
  AgentMessage,
  HistoryBatch,
  MessagingEvent,
  SystemMessage,
  UnrecognizedEvent,
} from '../../../client/messagingEvents';
import type { SessionRecovery } from '../../../client/messagingRecovery';
import type { MessagingSession, SessionState } from '../../../client/messagingSession';
import type { ClientEventKind, ClientEventNames } from '../../../contract/messaging';
import { Disposable, toDisposable } from '../../../core/disposable';
import type { ChatLine, FixKind } from '../../../protocol/chat';
import { platformContract } from '../../model/platformClients';
import { type ChatBackend, fixOf, type SentMessage } from './chatBackend';
import type { ChatTranscript } from './chatTranscript';
import { systemErrorFix } from './systemErrorFixes';

/**
 * After a reconnect, how long a message written before the drop may take to be echoed before it
 * is written again: the platform acknowledges a message only by echoing it, and one written as
 * the connection died is lost with it (docs/api-assumptions.md).
 */
const RESEND_AFTER_MS = 1_500;
/** How long the session waits for a reconnect's history before it goes on without it (its historyTimeoutMs). */
const HISTORY_WAIT_MS = 2_000;
/**
 * How long a message written on an open connection may go without its echo before the person is told: the
 * platform may drop WebSocket messages over its rate limit without an answer (MSG-28).
 */
const ECHO_WAIT_MS = 5_000;

interface Unconfirmed {
  line: ChatLine;
  custom?: Record<string, unknown>;
  /** The connection it was written on, once written. */
  writtenOn?: number;
  /** Tells the person when the echo does not come. */
  echoTimer?: ReturnType<typeof setTimeout>;
}

/** What the panel asks of itself when a fix is not the session's to carry out. */
export interface PanelActions {
  newSession(): void;
  draft(text: string): void;
}

/**
 * Messaging mode: one messaging session (access token, session, WebSocket) shown in a transcript.
 * The one file that uses the messaging session's API. Every event the session delivers (once
 * each, in order, replays removed) becomes an inspector entry and, where a person would see
 * something, a line; streamed answers grow one line in place.
 */
export class MessagingBackend extends Disposable implements ChatBackend {
  private session: MessagingSession | undefined;
  /** Messages sent here and not yet echoed by the platform, oldest first. */
  private readonly pending: Unconfirmed[] = [];
  /** Counts connections: a message written on an earlier one and never echoed may have been lost with it. */
  private connection = 0;
  private resendTimer: ReturnType<typeof setTimeout> | undefined;
  private lastSent: SentMessage | undefined;
  private lastHandoffReason: string | undefined;
  private reconnects = 0;
  private reconnectLine: string | undefined;
  private wasReconnecting = false;
  /** Events that could not be read, and the line that counts them. */
  private unreadable = 0;
  private unreadableLine: string | undefined;
  /** Reconnected, and the history that says what was missed has not arrived yet: where it resumes from. */
  private awaitingHistory: { from: number } | undefined;

  /** The system text the session is acting on itself (its onRecovery comes just before the message). */
  private actedOn: string | undefined;

  constructor(
    private readonly client: MessagingClient,
    private readonly t: ChatTranscript,
    private readonly panel: PanelActions,
    private readonly eventNames: Partial<ClientEventNames> = {},
  ) {
    super();
    this.register(
      toDisposable(() => {
        clearTimeout(this.resendTimer);
        for (const entry of this.pending) clearTimeout(entry.echoTimer);
        this.session = undefined;
      }),
    );
  }

  get conversationId(): string | undefined {
    return this.session?.conversationId ?? this.t.status.conversationId;
  }

  async start(): Promise<void> {
    this.t.setStatus({ state: 'connecting', text: vscode.l10n.t('Starting a messaging session…'), canSend: false });
    try {
      this.t.inspect('out', 'POST /api/v1/access-token', {});
      const token = await this.client.accessToken();
      this.t.inspect('in', 'access token', {
        access_token: '‹not shown›',
        token_type: 'Bearer',
        expires_in: token.expiresInSeconds,
      });
      const options = { streamingEnabled: this.t.settings.streaming, platform: 'web' as const };
      this.t.inspect('out', 'POST /api/v1/sessions', {
        streaming_enabled: options.streamingEnabled,
        platform: options.platform,
      });
      const created = await this.client.createSession(options, token);
      // The panel closed meanwhile: no connection is opened for it.
      if (this.isDisposed) return;
      this.t.inspect('in', 'session', { session_id: created.sessionId });
      const session = this.client.session(created, { eventNames: this.eventNames });
      this.session = session;
      this.listen(session);
      // After its listeners: closing the session tells nobody, as the panel that closed it needs no news of it.
      this.register(session);
      this.t.inspect('out', 'WebSocket', { session_id: created.sessionId, cursor: session.cursor ?? null });
      await session.connect();
    } catch (err) {
      // A session that closed while connecting has said why through its state already.
      if (this.session?.state.kind !== 'closed') this.failed(err);
    }
  }

  /** The name a client event goes out under (the person's setting, else the assumed one): the inspector shows it. */
  private nameOf(kind: ClientEventKind): string {
    return this.session?.eventName(kind) ?? this.eventNames[kind] ?? kind;
  }

  async send(text: string, custom?: Record<string, unknown>): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.lastSent = { text, ...(custom ? { custom } : {}) };
    const line: ChatLine = {
      id: this.t.localId('sent'),
      role: 'user',
      text,
      time: new Date().toISOString(),
      streaming: true,
      ...(custom ? { custom } : {}),
    };
    const entry: Unconfirmed = { line, ...(custom ? { custom } : {}) };
    this.pending.push(entry);
    this.t.upsert(line);
    this.t.startTurn();
    await this.write(entry);
  }

  private async write(entry: Unconfirmed): Promise<void> {
    const { text } = entry.line;
    const type = this.nameOf('userMessage');
    this.t.inspect('out', type, {
      type,
      payload: { text },
      ...(entry.custom ? { metadata: { custom: entry.custom } } : {}),
    });
    try {
      await this.session?.sendMessage(text, entry.custom);
      entry.writtenOn = this.connection;
      clearTimeout(entry.echoTimer);
      entry.echoTimer = setTimeout(() => this.notEchoed(entry), ECHO_WAIT_MS);
    } catch (err) {
      const i = this.pending.indexOf(entry);
      if (i >= 0) this.pending.splice(i, 1);
      this.t.upsert({ ...entry.line, streaming: false, error: true, fix: fixOf('resend') });
      this.problem(err);
    }
  }

  /**
   * A message written on the open connection and not echoed: the platform may have dropped it (over its rate
   * limit, MSG-28), so the line says so and offers to send it again. It stays waiting: a late echo confirms it.
   */
  private notEchoed(entry: Unconfirmed): void {
    if (!this.pending.includes(entry) || entry.writtenOn !== this.connection) return;
    if (this.session?.state.kind !== 'open') return;
    this.t.upsert({ ...entry.line, streaming: false, error: true, fix: fixOf('resend') });
    const quoted = entry.line.text.length > 60 ? `${entry.line.text.slice(0, 57)}…` : entry.line.text;
    this.t.notice(
      vscode.l10n.t(
        'The platform has not echoed "{0}" after {1} s: it may have dropped it (messages over its rate limit are dropped without an answer). Send it again if no answer comes.',
        quoted,
        ECHO_WAIT_MS / 1000,
      ),
    );
  }

  /**
   * Writes again what was written on a lost connection and is still not echoed `afterMs` from now: once the
   * reconnect's history is back, or (without one) once the session stopped waiting for it.
   */
  private resendLost(afterMs: number): void {
    clearTimeout(this.resendTimer);
    this.resendTimer = setTimeout(() => {
      if (this.session?.state.kind !== 'open') return;
      for (const entry of this.pending) {
        if (entry.writtenOn === undefined || entry.writtenOn >= this.connection) continue;
        entry.writtenOn = undefined;
        this.t.inspect('note', 'sent again: not in the history after the reconnect', { text: entry.line.text });
        void this.write(entry);
      }
    }, afterMs);
  }

  typing(typing: boolean): void {
    this.session?.sendTyping(typing).catch(() => undefined);
  }

  async handoff(reason?: string): Promise<void> {
    this.lastHandoffReason = reason;
    const type = this.nameOf('requestHandoff');
    this.t.inspect('out', type, {
      type,
      payload: reason ? { reason } : {},
    });
    await this.session?.requestHandoff(reason).catch((err: unknown) => this.problem(err));
  }

  async endSession(): Promise<void> {
    const type = this.nameOf('endSession');
    this.t.inspect('out', type, { type, payload: {} });
    await this.session?.endSession().catch((err: unknown) => this.problem(err));
  }

  async fix(kind: FixKind, line: ChatLine): Promise<void> {
    switch (kind) {
      case 'resend': {
        // A message of the person's own that got no echo is sent again as it was; after a system error, the last one.
        const own = line.role === 'user' ? this.pending.find((p) => p.line.id === line.id) : undefined;
        if (own) {
          this.pending.splice(this.pending.indexOf(own), 1);
          clearTimeout(own.echoTimer);
          this.t.upsert({ ...own.line, streaming: false, error: true });
          await this.send(own.line.text, own.custom);
        } else if (this.lastSent) await this.send(this.lastSent.text, this.lastSent.custom);
        break;
      }
      case 'edit':
        this.panel.draft(this.lastSent?.text ?? '');
        break;
      case 'join':
        this.t.inspect('out', 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', {
          type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN',
          payload: {},
        });
        await this.session?.join().catch((err: unknown) => this.problem(err));
        break;
      case 'handoff':
        await this.handoff(this.lastHandoffReason);
        break;
      default:
        this.panel.newSession();
    }
    this.t.upsert({ ...line, fix: undefined });
  }

  private listen(s: MessagingSession): void {
    for (const sub of [
      s.onEvent((e) => this.event(e)),
      s.onHistory((batch) => this.historyRead(batch)),
      s.onMessage((m) => this.agentMessage(m)),
      s.onTyping((typing) => this.t.setStatus({ agentTyping: typing })),
      s.onSystemMessage((m) => this.systemMessage(m)),
      s.onUnrecognizedEvent((u) => this.unrecognized(u)),
      s.onStateChange((state) => this.state(state)),
      s.onRecovery((r) => this.recovery(r)),
      s.onExpired(({ message }) => this.t.notice(message, { error: true, fix: fixOf('newSession') })),
    ])
      this.register(sub);
  }

  private event(e: MessagingEvent): void {
    const answer =
      e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE_CHUNK' ||
      e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE' ||
      e.type === 'EVENT_TYPE_LIVE_AGENT_MESSAGE';
    const latencyMs = answer ? this.t.takeLatency() : undefined;
    this.t.inspect('in', e.type, e, { latencyMs });
    const custom = e.metadata.custom;
    const time = e.timestamp;
    switch (e.type) {
      case 'EVENT_TYPE_USER_MESSAGE': {
        const i = this.pending.findIndex((p) => p.line.text === e.payload.text);
        const mine = i >= 0 ? this.pending.splice(i, 1)[0] : undefined;
        clearTimeout(mine?.echoTimer);
        this.t.upsert({
          id: mine?.line.id ?? e.id,
          role: 'user',
          text: e.payload.text,
          time,
          ...(custom ? { custom } : {}),
        });
        break;
      }
      case 'EVENT_TYPE_VIRTUAL_AGENT_JOINED':
        // The conversation id is not always in the event: one known before stays.
        if (e.payload.conversation_id) this.t.setStatus({ conversationId: e.payload.conversation_id });
        this.t.notice(
          e.payload.conversation_id
            ? vscode.l10n.t(
                '{0} joined (conversation {1}).',
                e.payload.agent_name ?? vscode.l10n.t('The agent'),
                e.payload.conversation_id,
              )
            : vscode.l10n.t('{0} joined.', e.payload.agent_name ?? vscode.l10n.t('The agent')),
        );
        break;
      case 'EVENT_TYPE_LIVE_AGENT_MESSAGE':
        this.t.upsert({
          // Without a message id, the event's own id (or, without one either, a new line each time).
          id: `live:${e.payload.message_id ?? (e.id || this.t.localId('live'))}`,
          role: 'liveAgent',
          ...(e.payload.agent_name ? { speaker: e.payload.agent_name } : {}),
          text: e.payload.text,
          time,
          ...(custom ? { custom } : {}),
        });
        break;
      case 'EVENT_TYPE_HANDOFF_STARTED':
        this.t.setStatus({ handoff: e.payload.destination });
        this.t.notice(vscode.l10n.t('Handed off to {0} ({1}).', e.payload.destination, e.payload.reason));
        break;
      case 'EVENT_TYPE_HANDOFF_ENDED':
        this.t.setStatus({ handoff: undefined });
        this.t.notice(vscode.l10n.t('The handoff ended ({0}).', e.payload.reason));
        break;
      case 'SESSION_END':
        if (this.session?.movingToNewSession)
          this.t.notice(vscode.l10n.t('The old session ended; the conversation goes on in a new one.'));
        else this.t.notice(vscode.l10n.t('The session ended ({0}).', e.payload.reason), { fix: fixOf('newSession') });
        break;
      default:
        break;
    }
  }

  private agentMessage(m: AgentMessage): void {
    const existing = this.t.line(`msg:${m.messageId}`);
    const custom = m.custom ?? existing?.custom;
    this.t.upsert({
      id: `msg:${m.messageId}`,
      role: 'agent',
      text: m.text,
      time: existing?.time ?? new Date().toISOString(),
      ...(m.state === 'streaming' ? { streaming: true } : {}),
      ...(m.state === 'interrupted' ? { interrupted: true } : {}),
      ...(custom ? { custom } : {}),
    });
    // The answer has arrived: the agent is no longer typing, whether or not the platform says so.
    if (m.state !== 'streaming') this.t.setStatus({ agentTyping: false });
  }

  /** The session carries out the spec's client action itself; the person is told what it did. */
  private recovery(r: SessionRecovery): void {
    this.actedOn = r.action === 'none' ? undefined : r.systemText;
    this.t.inspect('note', `client action: ${r.action}`, { system_text: r.systemText, message: r.message });
    this.t.notice(r.message);
  }

  private systemMessage(m: SystemMessage): void {
    // No one-click fix for what the session is already doing: a second re-send would send the message twice.
    const byTheSession = this.actedOn === m.text;
    this.actedOn = undefined;
    const fix =
      m.isError && !byTheSession
        ? systemErrorFix(m.text, platformContract().messagingContract.SYSTEM_ERRORS)
        : undefined;
    this.t.upsert({
      id: `sys:${m.event.id}`,
      role: 'system',
      text: m.text,
      time: m.event.timestamp,
      error: m.isError,
      ...(fix ? { fix: fixOf(fix) } : {}),
    });
  }

  /**
   * An event the playground cannot read: in the inspector as it came, and counted in one line of the
   * conversation, so that a platform speaking differently is seen without opening the inspector.
   */
  private unrecognized(u: UnrecognizedEvent): void {
    this.t.inspect('in', `unrecognized: ${u.problem}`, u.raw, { unrecognized: true });
    this.unreadable += 1;
    const text =
      this.unreadable === 1
        ? vscode.l10n.t(
            'An event this playground cannot read arrived ({0}); it is in the inspector as it came.',
            u.problem,
          )
        : vscode.l10n.t(
            '{0} events this playground cannot read arrived, the last: {1}; they are in the inspector as they came.',
            this.unreadable,
            u.problem,
          );
    const said = this.unreadableLine ? this.t.line(this.unreadableLine) : undefined;
    if (said) this.t.upsert({ ...said, text });
    else this.unreadableLine = this.t.notice(text).id;
  }

  private state(state: SessionState): void {
    switch (state.kind) {
      case 'connecting':
        this.t.setStatus({ state: 'connecting', text: vscode.l10n.t('Connecting…'), canSend: true });
        break;
      case 'reconnecting':
        if (!this.wasReconnecting) this.connection += 1;
        this.wasReconnecting = true;
        // No one is seen typing through a lost connection; the history says what happened meanwhile.
        this.t.setStatus({
          state: 'reconnecting',
          text: vscode.l10n.t('Connection lost: reconnecting (attempt {0})…', state.attempt),
          canSend: true,
          agentTyping: false,
        });
        break;
      case 'open':
        if (this.wasReconnecting) this.reconnected();
        else this.t.setStatus({ state: 'open', text: vscode.l10n.t('Connected'), canSend: true });
        break;
      case 'closed': {
        const map = {
          ended: 'ended',
          expired: 'expired',
          closed: 'closed',
          unauthorized: 'failed',
          failed: 'failed',
        } as const;
        // A session that is over has no one typing and no person on the line.
        this.t.setStatus({
          state: map[state.reason],
          text: state.message,
          canSend: false,
          agentTyping: false,
          handoff: undefined,
        });
        if (state.reason === 'failed' || state.reason === 'unauthorized') {
          this.t.notice(state.message, {
            error: true,
            fix: fixOf(state.reason === 'unauthorized' ? 'settings' : 'restart'),
          });
        }
        break;
      }
      default:
        break;
    }
  }

  /** The connection came back by itself: what was missed is read from the history that follows. */
  private reconnected(): void {
    this.wasReconnecting = false;
    this.reconnects += 1;
    const from = this.session?.cursor ?? 0;
    this.awaitingHistory = { from };
    if (this.pending.length) this.resendLost(HISTORY_WAIT_MS + RESEND_AFTER_MS);
    this.sayReconnected(vscode.l10n.t('resumed from position {0}; reading what was missed…', from));
  }

  /** The reconnect's history arrived: what was missed is in the conversation, each event once. */
  private historyRead(batch: HistoryBatch): void {
    const resumed = this.awaitingHistory;
    if (!resumed) return;
    this.awaitingHistory = undefined;
    if (this.pending.length) this.resendLost(RESEND_AFTER_MS);
    const caught =
      batch.fresh === 1 ? vscode.l10n.t('1 missed event') : vscode.l10n.t('{0} missed events', batch.fresh);
    this.sayReconnected(
      vscode.l10n.t('resumed from position {0}: {1} caught up, none shown twice.', resumed.from, caught),
      true,
    );
  }

  /**
   * Says that the connection came back by itself, and how: one line, counted, rather than one per drop. The
   * history's news goes into the line of its reconnect, wherever the events it brought put it.
   */
  private sayReconnected(how: string, sameReconnect = false): void {
    const text =
      this.reconnects > 1
        ? vscode.l10n.t('Reconnected by itself ({0} times); {1}', this.reconnects, how)
        : vscode.l10n.t('Reconnected by itself; {0}', how);
    this.t.setStatus({ state: 'open', text, canSend: true });
    const said = this.reconnectLine ? this.t.line(this.reconnectLine) : undefined;
    if (sameReconnect && said) return void this.t.upsert({ ...said, text });
    const last = this.t.all.at(-1);
    if (this.reconnectLine && last?.id === this.reconnectLine)
      this.t.upsert({ ...last, text, time: new Date().toISOString() });
    else this.reconnectLine = this.t.notice(text).id;
  }

  private failed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.t.setStatus({ state: 'failed', text: message, canSend: false });
    this.t.notice(message, { error: true, fix: fixOf('restart') });
  }

  private problem(err: unknown): void {
    this.t.notice(err instanceof Error ? err.message : String(err), { error: true });
  }
}
