import * as vscode from 'vscode';
import type { ConversationsClient } from '../../../client/conversations';
import type { ConversationRecord } from '../../../contract/conversations';
import { toDisposable } from '../../../core/disposable';
import { Emitter, type Event } from '../../../core/event';
import { ObservableDisposable } from '../../../core/observableDisposable';
import type {
  ConversationDetail,
  DetailSnapshot,
  DetailStatus,
  ExportFormat,
  FindResult,
  TranscriptsCommand,
  TranscriptsNotification,
  TranscriptsRequests,
} from '../../../protocol/transcripts';
import { requireClients, runCommand, UserFacingError } from '../../common/commandSupport';
import { failureReport } from '../../common/failure';
import { prompts } from '../../common/prompts';
import type { Connection } from '../../connection/connection';
import { Command } from '../../ids';
import type { RequestHandlers } from '../panelHost';
import { findConversation, hintsOf, type LookupHints } from './conversationLookup';
import type { Painted } from './transcriptsWebview';
import { recordAsRecorded } from './recordAsTest';
import { detailOf, findTurns, transcriptJson, transcriptMarkdown } from './transcriptView';

/** Replay, offered by its own panel when installed: the user turns sent again, the answers compared. */
const REPLAY_COMMAND = 'agentWorkbench.replayConversation';

/** How often a conversation in progress is read again. */
export const IN_PROGRESS_REFRESH_MS = 5_000;

export interface OpenConversationArgs {
  conversationId: string;
  agentId?: string;
  /** Where to look first and when it started (the chat playground knows both). */
  hints?: LookupHints;
  /** The turn (from 1) to show first. */
  turn?: number;
  /**
   * A conversation that may not be recorded yet (a test call just placed): read again every few
   * seconds until it appears, for at most this long (milliseconds).
   */
  awaitRecordingMs?: number;
}

/** Where a conversation is shown: the page of its own panel, or the list's page beside the rows. */
export interface DetailSink {
  notify(n: TranscriptsNotification): void;
  /** Sends the conversation's whole state again. */
  resend(snapshot: DetailSnapshot): number;
  readonly onDidPaint: Event<Painted>;
  readonly onDidNotify: Event<TranscriptsNotification>;
}

/**
 * One conversation: its turns as a timeline with latency bars, metrics, state and handoff. A
 * conversation in progress is read again every few seconds until it ends. Find, export, copy its
 * id, open its agent in the tree, replay it. Shown in a panel of its own (ConversationPanel) or
 * beside the list it was opened from, in the list's page.
 */
export class ConversationView extends ObservableDisposable {
  private record: ConversationRecord | undefined;
  private detail: ConversationDetail | undefined;
  private found: FindResult | undefined;
  private revealed: boolean;
  private state: DetailStatus = { text: '', loading: true, revealed: false };
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Until when a conversation not recorded yet is looked for again (epoch ms). */
  private readonly awaitingUntil: number;
  private readonly abort = new AbortController();
  private readonly _onDidChange = this.register(new Emitter<ConversationDetail>());
  /** The record was read (again). */
  readonly onDidChange = this._onDidChange.event;
  /** Settles once the first read is shown (or failed). */
  readonly loaded: Promise<void>;

  constructor(
    private readonly connection: Connection,
    readonly args: OpenConversationArgs,
    private readonly sink: DetailSink,
    options: { record?: ConversationRecord; revealed?: boolean } = {},
  ) {
    super();
    // Closed: a read under way is abandoned, and none is scheduled.
    this.register(
      toDisposable(() => {
        this.abort.abort();
        if (this.timer) clearTimeout(this.timer);
      }),
    );
    this.revealed = options.revealed ?? false;
    this.state = { ...this.state, revealed: this.revealed };
    this.awaitingUntil = Date.now() + (args.awaitRecordingMs ?? 0);
    if (options.record) {
      this.show(options.record);
      this.loaded = Promise.resolve();
    } else {
      this.setStatus(vscode.l10n.t('Looking for conversation {0}…', args.conversationId), true);
      this.loaded = this.read(args.hints ?? {});
    }
  }

  get conversationId(): string {
    return this.args.conversationId;
  }

  get onDidPaint() {
    return this.sink.onDidPaint;
  }
  get onDidNotify() {
    return this.sink.onDidNotify;
  }

  /** The record as last read, if it was found. */
  get recordRead(): ConversationRecord | undefined {
    return this.record;
  }

  /** What the panel shows now (tests read the conversation through it). */
  get shown(): ConversationDetail | undefined {
    return this.detail;
  }
  get status(): DetailStatus {
    return this.state;
  }

  snapshot(): DetailSnapshot {
    return {
      kind: 'detail',
      conversationId: this.args.conversationId,
      ...(this.detail ? { detail: this.detail } : {}),
      status: this.state,
      ...(this.found ? { find: this.found } : {}),
      ...(this.args.turn ? { turn: this.args.turn } : {}),
    };
  }

  /** Reads the record again from the platform (in progress: every few seconds by itself). */
  async refresh(): Promise<void> {
    await this.read(this.record ? hintsOf(this.record) : (this.args.hints ?? {}));
  }

  private async read(hints: LookupHints): Promise<void> {
    try {
      const client: ConversationsClient = requireClients(this.connection).conversations;
      const record = await findConversation(client, this.args.conversationId, hints, this.abort.signal);
      if (this.isDisposed) return;
      if (!record && this.awaitingUntil > Date.now()) {
        this.setStatus(
          vscode.l10n.t(
            'Waiting for conversation {0} to be recorded: read again every {1} seconds.',
            this.args.conversationId,
            IN_PROGRESS_REFRESH_MS / 1000,
          ),
          true,
        );
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.refresh(), IN_PROGRESS_REFRESH_MS);
        return;
      }
      if (!record && this.record) {
        // Read before, not found this time: what was read stays, and one in progress is read again.
        this.setStatus(
          vscode.l10n.t(
            'Conversation {0} was not found when read again; what was read before is shown.',
            this.args.conversationId,
          ),
          false,
          true,
        );
        this.schedule();
        return;
      }
      if (!record) {
        this.setStatus(
          vscode.l10n.t(
            'Conversation {0} was not found in this project (live, sandbox or pre-release). It may belong to another project, or not be recorded yet.',
            this.args.conversationId,
          ),
          false,
          true,
        );
        return;
      }
      this.show(record);
    } catch (err) {
      if (this.isDisposed) return;
      this.setStatus(failureReport(vscode.l10n, err, false)?.message ?? String(err), false, true);
      this.schedule();
    }
  }

  private show(record: ConversationRecord): void {
    this.record = record;
    this.detail = detailOf(record, {
      revealed: this.revealed,
      ...(this.args.agentId ? { agentId: this.args.agentId } : {}),
      readAt: new Date().toISOString(),
    });
    if (this.found) this.found = findTurns(this.detail.turns, this.found.query);
    const time = new Date().toLocaleTimeString();
    this.state = {
      text: record.in_progress
        ? vscode.l10n.t('In progress: read at {0}, read again every {1} seconds.', time, IN_PROGRESS_REFRESH_MS / 1000)
        : vscode.l10n.t('Finished. Read at {0}.', time),
      loading: false,
      revealed: this.revealed,
    };
    this.sink.resend(this.snapshot());
    this._onDidChange.fire(this.detail);
    this.schedule();
  }

  /** A conversation in progress (or one whose read failed) is read again after a while. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.isDisposed || (this.record && !this.record.in_progress)) return;
    if (!this.record && !this.state.error) return;
    this.timer = setTimeout(() => void this.refresh(), IN_PROGRESS_REFRESH_MS);
  }

  private setStatus(text: string, loading: boolean, error = false): void {
    this.state = { text: error ? '' : text, loading, revealed: this.revealed, ...(error ? { error: text } : {}) };
    this.sink.notify({ type: 'detailStatus', status: this.state });
  }

  /** The turns that match `text`, each shown with the turns around it; empty text shows every turn. */
  find(text: string): FindResult | undefined {
    this.found = this.detail ? findTurns(this.detail.turns, text) : undefined;
    this.sink.notify({ type: 'found', find: this.found });
    return this.found;
  }

  reveal(revealed: boolean): void {
    this.revealed = revealed;
    if (this.record) this.show(this.record);
  }

  /** Writes the conversation as JSON or Markdown where the person picks. */
  async export(format: ExportFormat): Promise<vscode.Uri | undefined> {
    const record = this.record;
    if (!record) throw new UserFacingError(vscode.l10n.t('The conversation is not loaded yet.'));
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `conversation-${record.id.replace(/[^A-Za-z0-9_-]+/g, '-')}${format === 'json' ? '.json' : '.md'}`;
    const uri = await prompts.saveFile({
      title: vscode.l10n.t('Export Conversation'),
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      filters: format === 'json' ? { [vscode.l10n.t('JSON')]: ['json'] } : { [vscode.l10n.t('Markdown')]: ['md'] },
    });
    if (!uri) return undefined;
    const text =
      format === 'json' ? transcriptJson(record, new Date().toISOString()) : transcriptMarkdown(record, this.revealed);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    return uri;
  }

  async copyId(): Promise<string> {
    await vscode.env.clipboard.writeText(this.record?.id ?? this.args.conversationId);
    return this.args.conversationId;
  }

  /** Shows the conversation's agent in the Agents view. */
  async openAgent(): Promise<void> {
    if (!this.args.agentId)
      throw new UserFacingError(
        vscode.l10n.t('This conversation was not opened from an agent: open it from the Agents view to go back to it.'),
      );
    await vscode.commands.executeCommand(Command.revealAgent, this.args.agentId);
  }

  async replay(): Promise<void> {
    const commands = await vscode.commands.getCommands(true);
    if (!commands.includes(REPLAY_COMMAND))
      throw new UserFacingError(vscode.l10n.t('Replay is not available in this version of Agent Workbench.'));
    // The record's own id: a conversation opened by a test call's sid is found under its id.
    await vscode.commands.executeCommand(REPLAY_COMMAND, {
      conversationId: this.record?.id ?? this.args.conversationId,
      ...(this.args.agentId ? { agentId: this.args.agentId } : {}),
    });
  }

  /**
   * Makes a conversation test of this conversation, as Create Test from Conversation does: its user turns and
   * handoff as recorded, each recorded answer as the reference; the person picks the test file and names the case.
   */
  async createTest(): Promise<unknown> {
    const record = this.record;
    if (!record) throw new UserFacingError(vscode.l10n.t('The conversation is not loaded yet.'));
    const conversation = recordAsRecorded(record);
    if (conversation.turns.length === 0)
      throw new UserFacingError(vscode.l10n.t('This conversation has no user turn to make a test of.'));
    return vscode.commands.executeCommand(Command.saveConversationAsTest, {
      conversation,
      ...(this.args.agentId ? { agentId: this.args.agentId } : {}),
    });
  }

  /** What the page asks of the conversation it shows. */
  async command(c: TranscriptsCommand): Promise<void> {
    switch (c.type) {
      case 'find':
        this.find(c.text);
        break;
      case 'reveal':
        this.reveal(c.revealed);
        break;
      case 'refresh':
      case 'refreshDetail':
        await this.refresh();
        break;
      case 'openAgent':
        await runCommand(() => this.openAgent());
        break;
      case 'replay':
        await runCommand(() => this.replay());
        break;
      case 'createTest':
        await runCommand(() => this.createTest());
        break;
      default:
        break;
    }
  }

  /** What the page asks of the conversation it shows, each answered with its request's result. */
  readonly requests: RequestHandlers<TranscriptsRequests> = {
    export: async (r) => {
      const file = await runCommand(() => this.export(r.format));
      return file ? { file: vscode.workspace.asRelativePath(file) } : {};
    },
    copyId: async () => ({ conversationId: await this.copyId() }),
  };
}
