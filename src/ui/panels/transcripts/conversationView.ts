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
import { durationWords } from '../../../protocol/timeWords';
import { requireClients, runCommand, UserFacingError } from '../../common/commandSupport';
import { failureReport } from '../../common/failure';
import { announceSavedFile } from '../../common/savedFile';
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
/** A conversation in progress whose record has not changed for this long is no longer read again by itself. */
export const IN_PROGRESS_IDLE_MS = 10 * 60_000;

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
  /** The conversation of a test call placed from here: the call's status says why it has not ended. */
  callSid?: string;
  /** How long a record in progress may stay unchanged before it is no longer read again (tests shorten it). */
  idleMs?: number;
}

/** The call's state as far as a conversation in progress needs it; undefined while connected or unknown. */
type CallState = { ended: true; status: string; reason?: string } | undefined;

/** A call's end in words: "failed: busy", "completed". */
function callWords(call: NonNullable<CallState>): string {
  return call.reason ? `${call.status}: ${call.reason.replace(/-/g, ' ')}` : call.status;
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
  /** When the record last changed (epoch ms), and what it was then. */
  private changedAt = Date.now();
  private lastSeen = '';
  /** The platform has no call status endpoint: not asked again. */
  private noCallStatus = false;
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
      const call = record?.in_progress !== false ? await this.callState() : undefined;
      if (this.isDisposed) return;
      if (!record && call) {
        // The call ended without a conversation (busy, unanswered): nothing will be recorded.
        this.setStatus(
          vscode.l10n.t(
            'The call {0} ended without a conversation ({1}): nothing was recorded.',
            this.args.callSid ?? this.args.conversationId,
            callWords(call),
          ),
          false,
          true,
        );
        return;
      }
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
      this.show(record, call);
    } catch (err) {
      if (this.isDisposed) return;
      this.setStatus(failureReport(vscode.l10n, err, false)?.message ?? String(err), false, true);
      this.schedule();
    }
  }

  private show(record: ConversationRecord, call?: CallState): void {
    const seen = `${record.in_progress}:${record.num_turns}:${record.turns.length}`;
    if (seen !== this.lastSeen) {
      this.lastSeen = seen;
      this.changedAt = Date.now();
    }
    this.record = record;
    this.detail = detailOf(record, {
      revealed: this.revealed,
      ...(this.args.agentId ? { agentId: this.args.agentId } : {}),
      readAt: new Date().toISOString(),
    });
    if (this.found) this.found = findTurns(this.detail.turns, this.found.query);
    const time = new Date().toLocaleTimeString();
    const idle = record.in_progress && this.idle;
    this.state = {
      text: !record.in_progress
        ? vscode.l10n.t('Finished. Read at {0}.', time)
        : call
          ? vscode.l10n.t(
              'The call ended ({0}), but the platform still records the conversation as in progress: read at {1}{2}',
              callWords(call),
              time,
              idle ? vscode.l10n.t('; no longer read again by itself. Refresh reads it again.') : '.',
            )
          : idle
            ? vscode.l10n.t(
                'Still in progress with no new turn for {0}{1}: no longer read again by itself (read at {2}). Refresh reads it again.',
                durationWords(this.idleMs / 1000),
                this.args.callSid ? vscode.l10n.t(': the call is still connected, nobody has hung up') : '',
                time,
              )
            : vscode.l10n.t(
                'In progress: read at {0}, read again every {1} seconds.',
                time,
                IN_PROGRESS_REFRESH_MS / 1000,
              ),
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
    // A record that stopped changing is not read again forever: the status says why, and Refresh reads it.
    if (this.record && this.idle) return;
    this.timer = setTimeout(() => void this.refresh(), IN_PROGRESS_REFRESH_MS);
  }

  private get idleMs(): number {
    return this.args.idleMs ?? IN_PROGRESS_IDLE_MS;
  }

  private get idle(): boolean {
    return Date.now() - this.changedAt >= this.idleMs;
  }

  /** The status of the call this conversation belongs to, when it ended; undefined while connected or not known. */
  private async callState(): Promise<CallState> {
    if (!this.args.callSid || this.noCallStatus) return undefined;
    try {
      const status = await requireClients(this.connection).outbound.callStatus(this.args.callSid, this.abort.signal);
      if (status.status !== 'completed' && status.status !== 'failed') return undefined;
      return {
        ended: true,
        status: status.status,
        ...(status.failure_reason ? { reason: status.failure_reason } : {}),
      };
    } catch {
      // Where the platform has no call status (an assumed endpoint), the record alone is shown.
      this.noCallStatus = true;
      return undefined;
    }
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
    announceSavedFile(uri, (where) => vscode.l10n.t('Exported conversation {0} to {1}.', record.id, where));
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
   * Makes a conversation test of this conversation, as Save Conversation as Test does: its user turns and
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
