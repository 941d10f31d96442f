import type { MessagingClient } from '../../../client/messaging';
import type {
  AgentMessage,
  HistoryBatch,
  MessagingEvent,
  SystemMessage,
  UnrecognizedEvent,
} from '../../../client/messagingEvents';
import type { Delivery } from '../../../client/messagingLedger';
import type { SessionRecovery } from '../../../client/messagingRecovery';
import { endsAsExpired, type MessagingSession, type SessionState } from '../../../client/messagingSession';
import type { ClientEventKind, ClientEventNames, SYSTEM_ERRORS } from '../../../contract/messaging';
import type { ServerEventKind, ServerEventNames } from '../../../contract/serverEventNames';
import { Disposable, toDisposable } from '../../../core/disposable';
import type { ChatLine, FixKind } from '../../../protocol/chat';
import type { L10n } from '../../common/l10n';
import { type ChatBackend, fixOf, type SentMessage } from './chatBackend';
import type { ChatTranscript } from './chatTranscript';
import { systemErrorFix } from './systemErrorFixes';

/**
 * How long a message written on an open connection may go without its echo, where the platform echoes, before the
 * person is told it may have been dropped (WebSocket messages over the rate limit may be, MSG-28).
 */
const ECHO_WAIT_MS = 5_000;
/** The line of a message the person sent: one per message of the session's ledger. */
const SENT = 'sent:';

/**
 * What messaging mode needs of the editor: its words, the server event names a person set, and the contract's
 * system error texts (the panel gives them; a unit test gives plain words and names of its own).
 */
export interface MessagingEditor {
  l10n: L10n;
  /** The server event names set in the settings, read when a session starts. */
  serverEventNames(): Partial<ServerEventNames>;
  /** Keeps the name of one server event in the settings ("Use this name for answers"). */
  setServerEventName(kind: ServerEventKind, name: string): Promise<void>;
  /** The contract's texts of the system errors, for the one-click fix of each. */
  systemErrors(): typeof SYSTEM_ERRORS;
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
 * something, a line; streamed answers grow one line in place. What was sent and whether it arrived
 * is the session's to know (its ledger): here each of its changes only becomes the message's line.
 */
export class MessagingBackend extends Disposable implements ChatBackend {
  private session: MessagingSession | undefined;
  /** Echoes of messages that have a line already (the session matched them to its ledger). */
  private readonly ownEchoes = new Set<string>();
  /** Lines of messages the ledger told of (to tell a message refused before it had one). */
  private sentLines = 0;
  /** Answers that came as events of a name not known here: the line, and the event's name. */
  private readonly unknownAnswers = new Map<string, string>();
  private lastSent: SentMessage | undefined;
  private lastHandoffReason: string | undefined;
  private reconnects = 0;
  private reconnectLine: string | undefined;
  private wasReconnecting = false;
  /** Events that could not be read, and the line that counts them. */
  private unreadable = 0;
  private unreadableLine: string | undefined;
  /** Reconnected, and the history that says what was missed has not arrived yet. */
  private awaitingHistory = false;
  private readonly l10n: L10n;

  constructor(
    private readonly client: MessagingClient,
    private readonly t: ChatTranscript,
    private readonly panel: PanelActions,
    private readonly editor: MessagingEditor,
    private readonly eventNames: Partial<ClientEventNames> = {},
  ) {
    super();
    this.l10n = editor.l10n;
    this.register(
      toDisposable(() => {
        this.session = undefined;
      }),
    );
  }

  get conversationId(): string | undefined {
    return this.session?.conversationId ?? this.t.status.conversationId;
  }

  async start(): Promise<void> {
    this.t.setStatus({ state: 'connecting', text: this.l10n.t('Starting a messaging session…'), canSend: false });
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
      const session = this.client.session(created, {
        eventNames: this.eventNames,
        serverEventNames: this.editor.serverEventNames(),
        echoWaitMs: ECHO_WAIT_MS,
      });
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
    const type = this.nameOf('userMessage');
    this.t.inspect('out', type, { type, payload: { text }, ...(custom ? { metadata: { custom } } : {}) });
    this.t.startTurn();
    const lines = this.sentLines;
    try {
      await session.sendMessage(text, custom);
    } catch (err) {
      // Refused before the session took it (a closed session, or a message it cannot send): a line says so.
      if (this.sentLines === lines)
        this.t.upsert({
          id: this.t.localId('sent'),
          role: 'user',
          text,
          time: new Date().toISOString(),
          error: true,
          fix: fixOf(this.l10n, 'resend'),
          ...(custom ? { custom } : {}),
        });
      this.problem(err);
    }
  }

  /** Where a message the person sent stands, as the session's ledger says: its line. */
  private delivery(d: Delivery): void {
    const id = `${SENT}${d.id}`;
    const before = this.t.line(id);
    if (!before) this.sentLines += 1;
    const {
      streaming: _s,
      error: _e,
      note: _n,
      fix: _f,
      ...line
    } = before ?? {
      id,
      role: 'user' as const,
      text: d.text,
      time: new Date().toISOString(),
      ...(d.custom ? { custom: d.custom } : {}),
    };
    switch (d.state) {
      case 'queued':
        if (d.rewrites > 0) this.t.inspect('note', 'sent again: the platform did not show it had it', { text: d.text });
        return this.t.upsert({ ...line, streaming: true });
      case 'written':
        return this.t.upsert({ ...line, streaming: true });
      case 'delivered':
        if (d.echoId) this.ownEchoes.add(d.echoId);
        return this.t.upsert(line);
      case 'unconfirmed':
        // Where the platform echoes, a missing echo is a sign of loss; elsewhere only a doubt.
        this.t.upsert({
          ...line,
          ...(d.echoKnown ? { error: true } : {}),
          note: this.l10n.t('not confirmed'),
          fix: fixOf(this.l10n, 'resend'),
        });
        if (d.doubt === 'quiet' && d.echoKnown) this.notEchoed(d.text);
        return;
      case 'replaced':
        // Sent again as a message of its own: this one stays as it was, without a second Send again.
        return this.t.upsert({ ...(before ?? line), streaming: false, fix: undefined });
      case 'failed':
        return this.t.upsert({ ...line, error: true, fix: fixOf(this.l10n, 'resend') });
    }
  }

  /** A message written on the open connection and not echoed, where the platform echoes: it may have dropped it. */
  private notEchoed(text: string): void {
    const quoted = text.length > 60 ? `${text.slice(0, 57)}…` : text;
    this.t.notice(
      this.l10n.t(
        'The platform has not echoed "{0}" after {1} s: it may have dropped it. Send it again if no answer comes.',
        quoted,
        ECHO_WAIT_MS / 1000,
      ),
    );
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
        // A message of the person's own that is not confirmed is sent again as a new one; after a system error, the last.
        const own = line.role === 'user' && line.id.startsWith(SENT) ? line.id.slice(SENT.length) : undefined;
        if (own && this.session) {
          const type = this.nameOf('userMessage');
          this.t.inspect('out', type, { type, payload: { text: line.text } });
          this.t.startTurn();
          await this.session.sendAgain(own).catch((err: unknown) => this.problem(err));
        } else if (this.lastSent) await this.send(this.lastSent.text, this.lastSent.custom);
        break;
      }
      case 'useAnswerName':
        await this.useAnswerName(line);
        break;
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

  /** Events of the name this answer came as are read as the agent's answers: in the settings and in this session. */
  private async useAnswerName(line: ChatLine): Promise<void> {
    const name = this.unknownAnswers.get(line.id);
    if (!name) return;
    await this.editor.setServerEventName('agentMessage', name);
    this.session?.useServerEventName('agentMessage', name);
    this.t.notice(
      this.l10n.t(
        "Events named {0} are read as the agent's answers from now on (setting agentWorkbench.messaging.serverEventNames, agentMessage).",
        name,
      ),
    );
  }

  private listen(s: MessagingSession): void {
    for (const sub of [
      s.onDelivery((d) => this.delivery(d)),
      s.onEvent((e) => this.event(e)),
      s.onHistory((batch) => this.historyRead(batch)),
      s.onMessage((m) => this.agentMessage(m)),
      s.onTyping((typing) => this.t.setStatus({ agentTyping: typing })),
      s.onSystemMessage((m) => this.systemMessage(m)),
      s.onUnrecognizedEvent((u) => this.unrecognized(u)),
      s.onStateChange((state) => this.state(state)),
      s.onRecovery((r) => this.recovery(r)),
      s.onExpired(({ message }) => this.t.notice(message, { error: true, fix: fixOf(this.l10n, 'newSession') })),
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
      case 'EVENT_TYPE_USER_MESSAGE':
        // The echo of a message sent here confirmed its line; another (sent before, elsewhere) gets one.
        if (this.ownEchoes.delete(e.id)) break;
        this.t.upsert({ id: e.id, role: 'user', text: e.payload.text, time, ...(custom ? { custom } : {}) });
        break;
      case 'EVENT_TYPE_VIRTUAL_AGENT_JOINED':
        // The conversation id is not always in the event: one known before stays.
        if (e.payload.conversation_id) this.t.setStatus({ conversationId: e.payload.conversation_id });
        this.t.notice(
          e.payload.conversation_id
            ? this.l10n.t(
                '{0} joined (conversation {1}).',
                e.payload.agent_name ?? this.l10n.t('The agent'),
                e.payload.conversation_id,
              )
            : this.l10n.t('{0} joined.', e.payload.agent_name ?? this.l10n.t('The agent')),
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
        this.t.notice(this.l10n.t('Handed off to {0} ({1}).', e.payload.destination, e.payload.reason));
        break;
      case 'EVENT_TYPE_HANDOFF_ENDED':
        this.t.setStatus({ handoff: undefined });
        this.t.notice(this.l10n.t('The handoff ended ({0}).', e.payload.reason));
        break;
      case 'SESSION_END':
        if (this.session?.movingToNewSession)
          this.t.notice(this.l10n.t('The old session ended; the conversation goes on in a new one.'));
        // Expired: said once, by the expiry's own line with its button.
        else if (!endsAsExpired(e.payload.reason))
          this.t.notice(this.l10n.t('The session ended ({0}).', e.payload.reason), {
            fix: fixOf(this.l10n, 'newSession'),
          });
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
    this.t.inspect('note', `client action: ${r.action}`, { system_text: r.systemText, message: r.message });
    this.t.notice(r.message);
  }

  private systemMessage(m: SystemMessage): void {
    // The typing indicator goes out by itself, unasked: its refusal is said once, as a note, and it stops.
    if (m.refused) {
      if (m.refused.first)
        this.t.notice(
          this.l10n.t(
            'This platform does not take the typing indicator ({0}: "{1}"), so it is not sent again in this session.',
            m.refused.type,
            m.text,
          ),
        );
      return;
    }
    // No one-click fix for what the session is already doing: a second re-send would send the message twice.
    const fix = m.isError && !m.sessionAction ? systemErrorFix(m.text, this.editor.systemErrors()) : undefined;
    this.t.upsert({
      id: `sys:${m.event.id}`,
      role: 'system',
      text: m.text,
      time: m.event.timestamp,
      error: m.isError,
      ...(fix ? { fix: fixOf(this.l10n, fix) } : {}),
    });
  }

  /**
   * An event the playground cannot read: in the inspector as it came, and counted in one line of the
   * conversation, so that a platform speaking differently is seen without opening the inspector.
   */
  private unrecognized(u: UnrecognizedEvent): void {
    this.t.inspect('in', `unrecognized: ${u.problem}`, u.raw, { unrecognized: true });
    if (u.type !== undefined && u.text !== undefined) return this.unknownAnswer(u.type, u.text);
    this.unreadable += 1;
    const text =
      this.unreadable === 1
        ? this.l10n.t(
            'An event this playground cannot read arrived ({0}); it is in the inspector as it came.',
            u.problem,
          )
        : this.l10n.t(
            '{0} events this playground cannot read arrived, the last: {1}; they are in the inspector as they came.',
            this.unreadable,
            u.problem,
          );
    const said = this.unreadableLine ? this.t.line(this.unreadableLine) : undefined;
    if (said) this.t.upsert({ ...said, text });
    else this.unreadableLine = this.t.notice(text).id;
  }

  /**
   * An event of a name not known here whose payload carries one text: most likely the agent's answer under another
   * name. Shown as an answer, marked with the name, with the one click that reads that name as answers from now on.
   */
  private unknownAnswer(type: string, text: string): void {
    const id = this.t.localId('answer');
    this.unknownAnswers.set(id, type);
    this.t.upsert({
      id,
      role: 'agent',
      text,
      time: new Date().toISOString(),
      note: this.l10n.t('as {0}', type),
      fix: fixOf(this.l10n, 'useAnswerName'),
    });
    this.t.setStatus({ agentTyping: false });
  }

  private state(state: SessionState): void {
    switch (state.kind) {
      case 'connecting':
        this.t.setStatus({ state: 'connecting', text: this.l10n.t('Connecting…'), canSend: true });
        break;
      case 'reconnecting':
        this.wasReconnecting = true;
        // No one is seen typing through a lost connection; the history says what happened meanwhile.
        this.t.setStatus({
          state: 'reconnecting',
          text: this.l10n.t('Connection lost: reconnecting (attempt {0})…', state.attempt),
          canSend: true,
          agentTyping: false,
        });
        break;
      case 'open':
        if (this.wasReconnecting) this.reconnected();
        else this.t.setStatus({ state: 'open', text: this.l10n.t('Connected'), canSend: true });
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
            fix: fixOf(this.l10n, state.reason === 'unauthorized' ? 'settings' : 'restart'),
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
    this.awaitingHistory = true;
    this.sayReconnected(this.l10n.t('reading what the platform replays of what was missed…'));
  }

  /** The reconnect's history arrived: what was missed is in the conversation, each event once, counted as it came. */
  private historyRead(batch: HistoryBatch): void {
    if (!this.awaitingHistory) return;
    this.awaitingHistory = false;
    if (batch.unreadable !== undefined) {
      this.sayReconnected(
        this.l10n.t(
          "the platform's replay of what was missed cannot be read ({0}); it is in the inspector as it came.",
          batch.unreadable,
        ),
        true,
      );
      return;
    }
    const caught = batch.fresh === 1 ? this.l10n.t('1 missed event') : this.l10n.t('{0} missed events', batch.fresh);
    this.sayReconnected(
      this.l10n.t('{0} caught up (the platform replayed {1}), none shown twice.', caught, batch.events),
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
        ? this.l10n.t('Reconnected by itself ({0} times); {1}', this.reconnects, how)
        : this.l10n.t('Reconnected by itself; {0}', how);
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
    this.t.notice(message, { error: true, fix: fixOf(this.l10n, 'restart') });
  }

  private problem(err: unknown): void {
    this.t.notice(err instanceof Error ? err.message : String(err), { error: true });
  }
}
