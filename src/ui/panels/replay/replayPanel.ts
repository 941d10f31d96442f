import * as vscode from 'vscode';
import type { ChatClient } from '../../../client/chat';
import type { ConversationRecord } from '../../../contract/conversations';
import { type ReplayCommand, type ReplayTurn, type ReplayView, isReplayCommand } from '../../../protocol/replay';
import { requireClients } from '../../common/commandSupport';
import { failureReport } from '../../common/failure';
import type { Connection } from '../../connection/connection';
import type { Log } from '../../log';
import { ViewPanel } from '../viewPanel';
import { compare, turnsOf } from './replayTurns';

const ENVIRONMENTS = ['live', 'sandbox', 'pre-release'] as const;
const PAGE = 5_000;

/** Where a replay sends the turns: the Chat API's agent, with this variant (none: the connector's default). */
export interface ReplayTarget {
  variantId?: string;
  /** The variant the recording was made with (known once it is read). */
  recordedVariant?: boolean;
  label: string;
}

/** A replay's target as shown: the agent and the variant. */
export function replayLabel(agent: string, variant: string | undefined): string {
  return variant
    ? `${agent}, ${vscode.l10n.t('variant {0}', variant)}`
    : `${agent}, ${vscode.l10n.t("the connector's default variant")}`;
}

/**
 * Finds a recorded conversation by its id with the Conversations API (v3), which lists and does not
 * look up one id: each environment's conversations, whole pages, until it appears.
 */
export async function findConversation(
  connection: Connection,
  conversationId: string,
  signal: AbortSignal,
): Promise<ConversationRecord | undefined> {
  const client = requireClients(connection).conversations;
  for (const env of ENVIRONMENTS) {
    for await (const page of client.pages({ client_env: env, limit: PAGE }, { signal })) {
      const found = page.find((c) => c.id === conversationId);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Replay: sends the user turns of a recorded conversation to the agent through the Chat API (a new
 * conversation, one respond per turn, never repeated automatically) and shows each recorded answer
 * beside the new one with the words that differ marked. Cancel stops after the turn being sent.
 */
export class ReplayPanel extends ViewPanel<ReplayView, ReplayCommand> {
  private abort: AbortController | undefined;
  private record: ConversationRecord | undefined;
  private variantId: string | undefined;
  private running: Promise<void> | undefined;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly connection: Connection,
    log: Log,
    conversationId: string,
    private readonly target: ReplayTarget,
    restored?: ReplayView,
  ) {
    super(
      panel,
      extensionUri,
      log,
      restored ?? {
        state: 'loading',
        conversationId,
        source: vscode.l10n.t('Looking for conversation {0}…', conversationId),
        target: target.label,
        ...(target.variantId ? { variantId: target.variantId } : {}),
        turns: [],
      },
      { app: 'replay', name: 'Replay', isCommand: isReplayCommand },
    );
    panel.title = vscode.l10n.t('Replay: {0}', conversationId);
    this.variantId = target.variantId;
  }

  protected onCommand(c: ReplayCommand): void {
    if (c.type === 'cancel') this.cancel();
    else if (c.type === 'again' && this.view.state !== 'running' && this.view.state !== 'loading') void this.start();
  }

  /** Stops after the turn being sent; the turns not sent say so. */
  cancel(): void {
    this.abort?.abort();
  }

  /** Finished (done, cancelled or failed). */
  get finished(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Loads the recording (once) and replays it. */
  start(): Promise<void> {
    this.running = this.run();
    return this.running;
  }

  private async run(): Promise<void> {
    const abort = (this.abort = new AbortController());
    const id = this.view.conversationId;
    try {
      if (!this.record) {
        this.update({ state: 'loading', message: undefined });
        const record = await findConversation(this.connection, id, abort.signal);
        if (!record) {
          this.update({
            state: 'failed',
            source: vscode.l10n.t('Conversation {0}', id),
            message: vscode.l10n.t(
              'No conversation {0} in any environment of this project: check the id and the connection profile.',
              id,
            ),
          });
          return;
        }
        this.record = record;
        if (this.target.recordedVariant) {
          // Sent to the variant that answered the recording, so only what changed since differs.
          this.variantId = record.variant_id || undefined;
          this.update({
            target: replayLabel(this.target.label, record.variant_name || record.variant_id || undefined),
            variantId: this.variantId,
          });
        }
      }
      const record = this.record;
      const turns = turnsOf(record);
      if (record.turns.length === 0) {
        this.update({
          state: 'failed',
          source: sourceOf(record),
          message: vscode.l10n.t(
            'The recording has no turns: transcript visibility is off for this project, so there is nothing to replay.',
          ),
        });
        return;
      }
      this.update({
        state: 'running',
        source: sourceOf(record),
        turns,
        message: undefined,
        newConversationId: undefined,
      });
      await this.replay(turns, abort.signal);
    } catch (err) {
      this.update({ state: 'failed', message: failureReport(vscode.l10n, err, false)?.message ?? '' });
    }
  }

  private async replay(turns: ReplayTurn[], signal: AbortSignal): Promise<void> {
    const client: ChatClient = requireClients(this.connection).chat;
    const set = (i: number, change: Partial<ReplayTurn>) => {
      const next = this.view.turns.slice();
      const turn = { ...next[i]!, ...change };
      if (turn.replayed !== undefined && turn.state === 'done' && !turn.uncompared)
        Object.assign(turn, compare(turn.recorded, turn.replayed));
      next[i] = turn;
      this.update({ turns: next });
    };
    const rest = (from: number, state: ReplayTurn['state'], error: string) => {
      const next = this.view.turns.map((t, i) => (i >= from ? { ...t, state, error } : t));
      this.update({ turns: next });
    };
    let conversationId: string | undefined;
    let ended = false;
    try {
      set(0, { state: 'sending' });
      try {
        const created = await client.create(this.variantId ? { variant_id: this.variantId } : {}, signal);
        conversationId = created.conversation_id;
        this.update({ newConversationId: conversationId });
        set(0, { state: 'done', replayed: created.response });
      } catch (err) {
        if (signal.aborted) return rest(0, 'cancelled', vscode.l10n.t('Cancelled before it was sent.'));
        const message = failureReport(vscode.l10n, err, false)?.message ?? '';
        set(0, { state: 'failed', error: message });
        rest(1, 'skipped', vscode.l10n.t('Not sent: the conversation could not be started.'));
        this.update({ state: 'failed', message });
        return;
      }
      for (let i = 1; i < turns.length; i++) {
        if (signal.aborted) return rest(i, 'cancelled', vscode.l10n.t('Cancelled before it was sent.'));
        if (ended) return rest(i, 'skipped', vscode.l10n.t('Not sent: the agent ended the conversation earlier.'));
        set(i, { state: 'sending' });
        try {
          const reply = await client.respond({ conversation_id: conversationId, message: turns[i]!.user }, signal);
          set(i, { state: 'done', replayed: reply.response });
          ended = reply.end_conversation === true;
        } catch (err) {
          if (signal.aborted) return rest(i, 'cancelled', vscode.l10n.t('Cancelled while it was being sent.'));
          set(i, { state: 'failed', error: failureReport(vscode.l10n, err, false)?.message ?? '' });
        }
      }
    } finally {
      if (conversationId && !ended) void client.close(conversationId).catch(() => undefined);
      this.finish(signal.aborted);
    }
  }

  private finish(cancelled: boolean): void {
    if (this.view.state === 'failed') return;
    const done = this.view.turns.filter((t) => t.state === 'done' && !t.uncompared);
    const differ = done.filter((t) => !t.same).length;
    const failed = this.view.turns.filter((t) => t.state === 'failed').length;
    const parts = [
      vscode.l10n.t('{0} of {1} answers differ from the recording.', differ, done.length),
      failed ? vscode.l10n.t('{0} turns failed.', failed) : '',
      cancelled ? vscode.l10n.t('Cancelled.') : '',
    ].filter(Boolean);
    this.update({ state: cancelled ? 'cancelled' : 'done', message: parts.join(' ') });
  }

  override dispose(): void {
    this.abort?.abort();
    super.dispose();
  }
}

function sourceOf(r: ConversationRecord): string {
  const variant = r.variant_name || r.variant_id;
  return vscode.l10n.t(
    'Recorded {0} on {1}, {2}{3}, {4} turns',
    r.started_at.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'),
    r.channel || vscode.l10n.t('an unknown channel'),
    r.environment || vscode.l10n.t('an unknown environment'),
    variant ? `, ${vscode.l10n.t('variant {0}', variant)}` : '',
    r.num_turns,
  );
}
