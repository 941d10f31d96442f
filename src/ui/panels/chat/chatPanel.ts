import * as vscode from 'vscode';
import { MutableDisposable } from '../../../core/disposable';
import { Emitter } from '../../../core/event';
import { ObservableDisposable } from '../../../core/observableDisposable';
import {
  type ChatCommand,
  type ChatHeader,
  type ChatNotification,
  type ChatRequests,
  type ChatSettings,
  type ChatSnapshot,
  isChatCommand,
  isChatRequest,
} from '../../../protocol/chat';
import { requireClients, runCommand, UserFacingError } from '../../common/commandSupport';
import type { Connection } from '../../connection/connection';
import type { ConnectionProfile } from '../../../client/profile';
import { Command, PanelType } from '../../ids';
import type { Log } from '../../log';
import { messagingEventNames, messagingServerEventNames, setServerEventName } from '../../messagingSettings';
import { platformContract } from '../../model/platformClients';
import type { ExternalEventArgs, SentEvent } from '../../runtimeTools/externalEvent';
import { PanelHost, type RequestHandlers } from '../panelHost';
import { type ChatBackend, fixOf } from './chatBackend';
import { ChatApiBackend } from './chatApiBackend';
import { ChatTranscript } from './chatTranscript';
import { chatAsRecorded } from './chatAsTest';
import { saveConversation } from './conversationFile';
import { followLocalPlatform, localProfileAgain } from './localPlatformChat';
import { MessagingBackend, type MessagingEditor, type PanelActions } from './messagingBackend';

export const CHAT_VIEW_TYPE = PanelType.chat;

/** What messaging mode reads of the editor: its words, the event names set in the settings, the contract's texts. */
const MESSAGING_EDITOR: MessagingEditor = {
  l10n: vscode.l10n,
  serverEventNames: messagingServerEventNames,
  setServerEventName,
  systemErrors: () => platformContract().messagingContract.SYSTEM_ERRORS,
};

export interface ChatPanelOptions {
  /** The webview reports each line version it has painted (benchmarks and tests). */
  ackPaint?: boolean;
  /** The connection profile whose runtime keys reach the chat's agent; the chat keeps to it whatever profile is active. */
  profileId?: string;
}

/**
 * One chat panel: a webview, the conversation shown in it, and the session behind it. Several
 * can be open side by side; each has its own session. A panel restored after a reload shows the
 * conversation it had and starts nothing until Restart.
 */
export class ChatPanel extends ObservableDisposable {
  private transcript: ChatTranscript;
  /** The session of the conversation; released first when the panel closes, and when a new session replaces it. */
  private readonly backend = this.register(new MutableDisposable<ChatBackend>());
  private readonly host: PanelHost<ChatCommand, ChatRequests, ChatNotification>;
  private readonly _onDidPaint = this.register(
    new Emitter<{ rev: number; at: number; inPage?: number; elements: number }>(),
  );
  private readonly _onDidNotify = this.register(new Emitter<ChatNotification>());
  /**
   * The webview has line version `rev` in its page since `at` (epoch ms read with epochClock; only with ackPaint),
   * `inPage` ms after the message that brought it reached the page.
   */
  readonly onDidPaint = this._onDidPaint.event;
  /** Every notification made for the webview, posted or not (tests read the conversation through it). */
  readonly onDidNotify = this._onDidNotify.event;
  /** Notifications made in this turn of the event loop, not yet posted. */
  private readonly outbox: ChatNotification[] = [];
  /** When the current session was started (epoch ms): the transcript viewer looks for its conversation from then. */
  private startedAt = Date.now();
  private _header: ChatHeader | undefined;
  /** The local platform stopped under this chat: it starts anew once the platform runs again. */
  private platformStopped = false;
  /** Reads what the header says (agent, project, environment, version); set by whoever opened the chat. */
  headerSource: (() => Promise<ChatHeader>) | undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly connection: Connection,
    private readonly log: Log,
    settings: ChatSettings,
    private readonly options: ChatPanelOptions = {},
    restored?: ChatSnapshot,
  ) {
    super();
    this.transcript = this.newTranscript(settings, restored);
    this.host = new PanelHost(panel, extensionUri, {
      app: 'chat',
      isCommand: isChatCommand,
      isRequest: isChatRequest,
      onReady: () => {
        this.queue({
          type: 'snapshot',
          snapshot: this.transcript.snapshot(),
          ...(options.ackPaint ? { ackPaint: true } : {}),
        });
        if (this._header) this.queue({ type: 'header', header: this._header });
      },
      onCommand: (c) =>
        void this.command(c).catch((err: unknown) => this.log.error(err instanceof Error ? err : String(err))),
      requests: this.requests,
      onRejected: (reason) => this.log.warn(`Chat panel: ${reason}`),
      isReport: (c) => c.type === 'painted',
      // A streamed answer sends a notification per piece: straight into the page where a socket can be opened.
      direct: true,
    });
    this.register(this.host);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'agent-workbench.svg');
    this.register(panel.onDidDispose(() => this.dispose()));
    this.register(panel);
    const chatProfile = this.profile;
    this.register(
      followLocalPlatform(connection, chatProfile, {
        stopped: () => this.localPlatformStopped(),
        running: () => void this.localPlatformRunning(chatProfile!),
      }),
    );
    if (restored) {
      this.transcript.setStatus({
        state: 'closed',
        text: vscode.l10n.t('Reopened: the session is not connected. Restart to continue with the same settings.'),
        canSend: false,
        agentTyping: false,
      });
    } else {
      void this.start();
    }
  }

  get settings(): ChatSettings {
    return this.transcript.settings;
  }

  /** The profile the chat keeps to (the active one for a chat opened without one). */
  get profile(): ConnectionProfile | undefined {
    const id = this.options.profileId;
    return id ? this.connection.profiles.get(id) : this.connection.profiles.active;
  }

  /** What the header says now: the agent, its project, the environment and the version the chat talks to. */
  get header(): ChatHeader | undefined {
    return this._header;
  }

  /** Reads the header again (after a publish, a push, a restart); a failed read keeps the last one. */
  async refreshHeader(): Promise<ChatHeader | undefined> {
    const header = await this.headerSource?.().catch((err: unknown) => {
      this.log.warn(`Chat header: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    });
    if (!header || this.isDisposed) return this._header;
    this._header = header;
    this.queue({ type: 'header', header });
    this._onDidNotify.fire({ type: 'header', header });
    return header;
  }

  get conversationId(): string | undefined {
    return this.backend.value?.conversationId ?? this.transcript.status.conversationId;
  }

  /** The whole conversation as the webview is given it. */
  snapshot(inspectorLimit?: number): ChatSnapshot {
    return this.transcript.snapshot(inspectorLimit);
  }

  /** Sends as the person would from the message box. */
  send(text: string, custom?: Record<string, unknown>): Promise<void> {
    return this.command({ type: 'send', text, ...(custom ? { custom } : {}) });
  }

  /** Tells the agent the person is typing, or has stopped, as the message box does on a keystroke and on send. */
  typing(typing: boolean): Promise<void> {
    return this.command({ type: 'typing', typing });
  }

  /** Ends the session on the platform, as End session does. */
  endSession(): Promise<void> {
    return this.command({ type: 'endSession' });
  }

  /** Starts a new session with the same settings (or the ones given), from an empty conversation. */
  async restart(settings: ChatSettings = this.settings): Promise<void> {
    this.backend.value = undefined;
    this.transcript = this.newTranscript(settings);
    this.queue({
      type: 'snapshot',
      snapshot: this.transcript.snapshot(),
      ...(this.options.ackPaint ? { ackPaint: true } : {}),
    });
    await this.start();
  }

  /** Carries out the one-click fix shown on a line, as its button does. */
  async fix(lineId: string): Promise<void> {
    const line = this.transcript.line(lineId);
    if (!line?.fix) return;
    if (line.fix.kind === 'restart') await this.restart();
    else if (line.fix.kind === 'settings') await vscode.commands.executeCommand(Command.editProfile);
    // Once it runs, the chat starts anew by itself (localPlatformRunning).
    else if (line.fix.kind === 'startLocalPlatform') await vscode.commands.executeCommand(Command.startLocalPlatform);
    else if (this.backend.value) await this.backend.value.fix(line.fix.kind, line);
    else await this.newSession();
  }

  /** Asks where to save, as Save does. */
  async save(): Promise<vscode.Uri | undefined> {
    return saveConversation(this.transcript.snapshot(Number.MAX_SAFE_INTEGER), this.conversationId);
  }

  /**
   * Makes a conversation test of this conversation, as Save as Test does: its turns, handoff and end as they
   * happened, each answer as the reference; the person picks the agent folder's test file and names the case.
   */
  async saveAsTest(): Promise<unknown> {
    const conversation = chatAsRecorded(this.transcript.snapshot(Number.MAX_SAFE_INTEGER), this.conversationId);
    if (conversation.turns.length === 0)
      throw new UserFacingError(
        vscode.l10n.t('Send a message first: a test is made of the turns of the conversation.'),
      );
    const agentId = this.settings.target.agentId;
    return vscode.commands.executeCommand(Command.saveConversationAsTest, {
      conversation,
      ...(agentId ? { agentId } : {}),
    });
  }

  /**
   * Send an External Event into this conversation, as the toolbar's button does: the sender is told the
   * conversation, and what the platform accepted is said in the conversation and the inspector.
   */
  async sendExternalEvent(): Promise<SentEvent | undefined> {
    const conversationId = this.conversationId;
    if (!conversationId) return undefined;
    const args: ExternalEventArgs = { conversationId };
    const sent = await vscode.commands.executeCommand<SentEvent | undefined>(Command.sendExternalEvent, args);
    if (!sent || this.isDisposed) return sent;
    this.transcript.inspect('out', 'external event', sent);
    this.transcript.notice(
      sent.eventId
        ? vscode.l10n.t('External event {0} accepted by the platform ({1}).', sent.eventId, sent.status)
        : vscode.l10n.t('External event accepted by the platform ({0}).', sent.status),
    );
    return sent;
  }

  /** Whether streamed notifications reach the page through its own socket now, and its address (tests). */
  get directChannel(): { open: boolean; url?: string } {
    const channel = this.host.directChannel;
    return { open: channel?.isOpen ?? false, ...(channel ? { url: channel.url } : {}) };
  }

  /** Ends the page's socket as a lost connection would (tests): what follows is posted to the page instead. */
  dropDirectChannel(): void {
    this.host.directChannel?.drop();
  }

  /** Scrolls the conversation in the page to its first or last line. */
  scroll(to: 'top' | 'bottom'): void {
    this.queue({ type: 'scroll', to });
  }

  async copyConversationId(): Promise<string | undefined> {
    const id = this.conversationId;
    if (id) await vscode.env.clipboard.writeText(id);
    return id;
  }

  private newTranscript(settings: ChatSettings, restored?: ChatSnapshot): ChatTranscript {
    this.panel.title = vscode.l10n.t('Chat: {0}', settings.target.label);
    return new ChatTranscript(
      vscode.l10n,
      settings,
      (n) => {
        this.queue(n);
        this._onDidNotify.fire(n);
      },
      restored,
    );
  }

  /**
   * Notifications go to the webview in one message per task: a streamed piece makes an inspector entry and a
   * line version together. Posted messages wait for the turn of the event loop to end (each costs far more
   * than its size, so more pieces may join it); through the page's own socket they leave as soon as the task
   * that made them ends. A line changed twice meanwhile is sent in its newest version only.
   */
  private queue(n: ChatNotification): void {
    // A snapshot holds everything made before it.
    if (n.type === 'snapshot') this.outbox.splice(0);
    if (n.type === 'line') {
      const older = this.outbox.findIndex((o) => o.type === 'line' && o.line.id === n.line.id);
      if (older >= 0) this.outbox.splice(older, 1);
    }
    this.outbox.push(n);
    if (this.outbox.length > 1) return;
    const flush = () => {
      const notifications = this.outbox.splice(0);
      if (this.isDisposed || notifications.length === 0) return;
      this.host.notify(notifications.length === 1 ? notifications[0]! : { type: 'batch', notifications });
    };
    if (this.host.directChannel?.isOpen) queueMicrotask(flush);
    else setImmediate(flush);
  }

  /** Opens this chat's conversation in the transcript viewer, where the platform has recorded it. */
  async openTranscript(): Promise<unknown> {
    const conversationId = this.conversationId;
    if (!conversationId) throw new UserFacingError(vscode.l10n.t('This chat has no conversation id yet.'));
    const target = this.settings.target;
    return vscode.commands.executeCommand(Command.openConversation, {
      conversationId,
      ...(target.agentId ? { agentId: target.agentId } : {}),
      ...(target.environment ? { environment: target.environment } : {}),
      // The platform's clock may differ from the editor's a little: look from a while before.
      from: new Date(this.startedAt - 10 * 60_000).toISOString(),
    });
  }

  private async start(): Promise<void> {
    this.startedAt = Date.now();
    const actions: PanelActions = {
      newSession: () => void this.newSession(),
      draft: (text) => this.queue({ type: 'draft', text }),
    };
    let backend: ChatBackend;
    void this.refreshHeader();
    try {
      const clients = this.clients();
      backend =
        this.settings.mode === 'messaging'
          ? new MessagingBackend(clients.messaging, this.transcript, actions, MESSAGING_EDITOR, messagingEventNames())
          : new ChatApiBackend(clients.chat, this.transcript, actions);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.transcript.setStatus({ state: 'failed', text: message, canSend: false });
      this.transcript.notice(message, { error: true, fix: fixOf(vscode.l10n, 'restart') });
      return;
    }
    this.backend.value = backend;
    // A panel closed meanwhile has released the session at once: nothing to start.
    if (this.backend.value === backend) await backend.start();
  }

  /**
   * The clients of the profile the chat was opened with (its runtime keys reach the chat's agent), whatever
   * profile is active now; the active profile's for a chat opened without one.
   */
  private clients() {
    const profileId = this.options.profileId;
    if (!profileId || profileId === this.connection.profiles.active?.id) return requireClients(this.connection);
    const profile = this.connection.profiles.get(profileId);
    if (!profile)
      throw new UserFacingError(
        vscode.l10n.t(
          'This chat was opened with the connection profile "{0}", which is not available now: open the chat again from {1}.',
          profileId,
          this.settings.target.label,
        ),
      );
    return this.connection.clientsFor(profile);
  }

  /**
   * The local platform stopped under the chat: its session went with it. That is said as it is (not as a fault of
   * the profile's addresses, which the session's failing reconnects would report), with Start Local Platform.
   */
  private localPlatformStopped(): void {
    if (this.isDisposed || this.platformStopped) return;
    this.platformStopped = true;
    this.backend.value = undefined;
    const text = vscode.l10n.t('The local platform stopped.');
    this.transcript.setStatus({ state: 'closed', text, canSend: false, agentTyping: false, handoff: undefined });
    this.transcript.notice(
      vscode.l10n.t(
        'The local platform stopped, and this conversation with it. Start Local Platform: the chat then starts a new session by itself.',
      ),
      { error: true, fix: fixOf(vscode.l10n, 'startLocalPlatform') },
    );
  }

  /** The local platform runs again: a chat it stopped starts a new session with the same settings. */
  private async localPlatformRunning(profile: ConnectionProfile): Promise<void> {
    if (this.isDisposed || !this.platformStopped) return;
    this.platformStopped = false;
    await localProfileAgain(this.connection, profile).catch((err: unknown) =>
      this.log.warn(`Chat: the profile ${profile.name} again: ${err instanceof Error ? err.message : String(err)}`),
    );
    if (!this.isDisposed) await this.newSession();
  }

  /** A new session in the same panel, keeping what was said so far above it. */
  private async newSession(): Promise<void> {
    this.backend.value = undefined;
    this.transcript.notice(vscode.l10n.t('A new session was started with the same settings.'));
    await this.start();
  }

  private async command(c: ChatCommand): Promise<void> {
    switch (c.type) {
      case 'send':
        if (c.text.trim()) await this.backend.value?.send(c.text, c.custom);
        break;
      case 'typing':
        this.backend.value?.typing(c.typing);
        break;
      case 'handoff':
        await this.backend.value?.handoff(c.reason);
        break;
      case 'endSession':
        await this.backend.value?.endSession();
        break;
      case 'restart':
        await this.restart(c.settings ?? this.settings);
        break;
      case 'fix':
        await this.fix(c.lineId);
        break;
      case 'sendExternalEvent':
        await this.sendExternalEvent();
        break;
      case 'openTranscript':
        await runCommand(() => this.openTranscript());
        break;
      case 'saveAsTest':
        await runCommand(() => this.saveAsTest());
        break;
      case 'problem':
        this.log.warn(`Chat panel page: ${c.message}`);
        break;
      case 'painted':
        for (const { rev, at, inPage } of c.paints) this._onDidPaint.fire({ rev, at, inPage, elements: c.elements });
        break;
    }
  }

  /** What the page asks, each answered with its request's result. */
  private get requests(): RequestHandlers<ChatRequests> {
    return {
      save: async () => {
        const file = await this.save();
        return file ? { file: vscode.workspace.asRelativePath(file) } : {};
      },
      copyConversationId: async () => {
        const conversationId = await this.copyConversationId();
        return conversationId ? { conversationId } : {};
      },
    };
  }
}
