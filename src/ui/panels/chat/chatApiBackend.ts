import * as vscode from 'vscode';
import type { ChatClient } from '../../../client/chat';
import type { PlatformError } from '../../../client/errors';
import type { ChatRespondRequest } from '../../../contract/chat';
import type { ChatLine, FixKind } from '../../../protocol/chat';
import { type ChatBackend, fixOf, type SentMessage } from './chatBackend';
import type { ChatTranscript } from './chatTranscript';
import type { PanelActions } from './messagingBackend';
import { isPlatformError } from '../../common/failure';

/**
 * Chat API mode: turn-based REST. Create (with the variant and integration attributes), one
 * respond per message (with its metadata and the ASR/TTS language codes), close. Turns are
 * never repeated automatically: Send again is the person's choice.
 */
export class ChatApiBackend implements ChatBackend {
  private conversation: string | undefined;
  private lastSent: SentMessage | undefined;
  private busy = false;
  private closed = false;
  private closing = false;

  constructor(
    private readonly client: ChatClient,
    private readonly t: ChatTranscript,
    private readonly panel: PanelActions,
  ) {}

  get conversationId(): string | undefined {
    return this.conversation;
  }

  async start(): Promise<void> {
    const { variantId, integrationAttributes } = this.t.settings;
    const request = {
      ...(variantId ? { variant_id: variantId } : {}),
      ...(integrationAttributes ? { integration_attributes: integrationAttributes } : {}),
    };
    this.t.setStatus({ state: 'connecting', text: vscode.l10n.t('Starting a conversation…'), canSend: false });
    this.t.inspect('out', 'POST chat/create', request);
    this.t.startTurn();
    try {
      const reply = await this.client.create(request);
      this.t.inspect('in', 'chat/create', reply, { latencyMs: this.t.takeLatency() });
      this.started(reply.conversation_id, reply.response);
    } catch (err) {
      const accepted = tookIt(err);
      const id = textOf(accepted?.body, 'conversation_id');
      if (accepted) {
        // The platform started a conversation (2xx); what of its answer can be read is used.
        this.t.inspect('in', 'chat/create (unreadable)', accepted.body, { latencyMs: this.t.takeLatency() });
        this.t.notice(
          vscode.l10n.t(
            'The platform started a conversation, but its answer could not be read in full{0}. What could be read is shown; the whole answer is in the inspector.',
            missing(accepted),
          ),
        );
      }
      if (id) this.started(id, textOf(accepted?.body, 'response'));
      else {
        this.t.setStatus({ state: 'failed', text: message(err), canSend: false });
        this.t.notice(message(err), { error: true, fix: fixOf(vscode.l10n, 'restart') });
      }
    }
  }

  private started(conversationId: string, response: string | undefined): void {
    this.conversation = conversationId;
    this.t.setStatus({ state: 'open', text: vscode.l10n.t('Conversation started'), conversationId, canSend: true });
    if (response)
      this.t.upsert({ id: this.t.localId('turn'), role: 'agent', text: response, time: new Date().toISOString() });
  }

  async send(text: string, custom?: Record<string, unknown>): Promise<void> {
    if (!this.conversation || this.busy || this.closed) return;
    this.lastSent = { text, ...(custom ? { custom } : {}) };
    const { asrLanguage, ttsLanguage } = this.t.settings;
    const request: ChatRespondRequest = {
      conversation_id: this.conversation,
      message: text,
      ...(custom ? { metadata: custom } : {}),
      ...(asrLanguage ? { asr_lang_code: asrLanguage } : {}),
      ...(ttsLanguage ? { tts_lang_code: ttsLanguage } : {}),
    };
    const line: ChatLine = {
      id: this.t.localId('turn'),
      role: 'user',
      text,
      time: new Date().toISOString(),
      ...(custom ? { custom } : {}),
    };
    this.t.upsert(line);
    this.t.inspect('out', 'POST chat/respond', request);
    this.busy = true;
    this.t.setStatus({ agentTyping: true, canSend: false });
    this.t.startTurn();
    try {
      const reply = await this.client.respond(request);
      this.t.inspect('in', 'chat/respond', reply, { latencyMs: this.t.takeLatency() });
      this.t.upsert({
        id: this.t.localId('turn'),
        role: 'agent',
        text: reply.response,
        time: new Date().toISOString(),
      });
      if (reply.handoff) {
        const { destination, reason } = reply.handoff;
        this.t.setStatus({ handoff: destination ?? vscode.l10n.t('destination not given') });
        const to = destination ?? vscode.l10n.t('a destination the platform did not name');
        this.t.notice(
          reason ? vscode.l10n.t('Handed off to {0} ({1}).', to, reason) : vscode.l10n.t('Handed off to {0}.', to),
        );
      }
      if (reply.end_conversation) {
        this.closed = true;
        this.t.notice(vscode.l10n.t('The agent ended the conversation.'), { fix: fixOf(vscode.l10n, 'restart') });
        this.t.setStatus({
          state: 'ended',
          text: vscode.l10n.t('The conversation has ended'),
          canSend: false,
          agentTyping: false,
        });
        return;
      }
    } catch (err) {
      const accepted = tookIt(err);
      if (accepted) {
        // The platform took the message (2xx): nothing to send again; what of its answer can be read is shown.
        this.t.inspect('in', 'chat/respond (unreadable)', accepted.body, { latencyMs: this.t.takeLatency() });
        const said = textOf(accepted.body, 'response');
        if (said !== undefined)
          this.t.upsert({ id: this.t.localId('turn'), role: 'agent', text: said, time: new Date().toISOString() });
        this.t.notice(
          vscode.l10n.t(
            'The platform took the message, but its answer could not be read in full{0}. What could be read is shown; the whole answer is in the inspector. The conversation goes on: send your next message.',
            missing(accepted),
          ),
        );
      } else {
        // The message stays as typed, with Send again; where the answer was text, it is in the inspector.
        if (isPlatformError(err) && err.kind === 'acceptedUnreadable')
          this.t.inspect('in', 'chat/respond (not JSON)', err.body, { latencyMs: this.t.takeLatency() });
        this.t.upsert({ ...line, error: true, fix: fixOf(vscode.l10n, 'resend') });
        this.t.notice(message(err), { error: true });
      }
    } finally {
      this.busy = false;
    }
    if (!this.closed) this.t.setStatus({ agentTyping: false, canSend: true });
  }

  /** The Chat API has no typing indicator. */
  typing(): void {}

  /** The Chat API hands off only when the agent decides to: there is no request for it. */
  async handoff(): Promise<void> {
    this.t.notice(vscode.l10n.t('In Chat API mode the agent decides on a handoff; ask for a person in a message.'));
  }

  async endSession(): Promise<void> {
    if (!this.conversation || this.closed || this.closing) return;
    this.closing = true;
    this.t.inspect('out', 'PUT chat/close', { conversation_id: this.conversation });
    try {
      const reply = await this.client.close(this.conversation);
      this.t.inspect('in', 'chat/close', reply);
      this.closedNow();
    } catch (err) {
      const accepted = tookIt(err);
      if (accepted) {
        this.t.inspect('in', 'chat/close (unreadable)', accepted.body);
        this.closedNow();
      } else {
        // Not closed: the conversation goes on, and End session can be tried again.
        this.t.notice(vscode.l10n.t('{0}. The conversation is still open.', message(err)), { error: true });
      }
    } finally {
      this.closing = false;
    }
  }

  private closedNow(): void {
    this.closed = true;
    this.t.notice(vscode.l10n.t('The conversation was closed.'), { fix: fixOf(vscode.l10n, 'restart') });
    this.t.setStatus({
      state: 'ended',
      text: vscode.l10n.t('The conversation was closed'),
      canSend: false,
      agentTyping: false,
    });
  }

  async fix(kind: FixKind, line: ChatLine): Promise<void> {
    this.t.upsert({ ...line, fix: undefined });
    if (kind === 'resend' && this.lastSent) await this.send(this.lastSent.text, this.lastSent.custom);
    else if (kind === 'edit') this.panel.draft(this.lastSent?.text ?? '');
    else this.panel.newSession();
  }

  /** Closing the panel closes the conversation on the platform (once; failures only end up in the log). */
  dispose(): void {
    if (this.conversation && !this.closed) {
      this.closed = true;
      this.client.close(this.conversation).catch(() => undefined);
    }
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The error of a write the platform carried out (2xx, its answer JSON) although its answer could not be read. Text
 * where JSON was due may come from something in front of the platform: the message may not have arrived, so it is not
 * one of these (the client's words say it may have been done).
 */
function tookIt(err: unknown): PlatformError | undefined {
  return isPlatformError(err) && err.kind === 'acceptedUnreadable' && !err.toldMayHaveActed ? err : undefined;
}

/** The fields of such an answer that were missing or unexpected, in words ("" when none is named). */
function missing(err: PlatformError): string {
  const fields = err.fieldErrors.map((f) => f.field).join(', ');
  return fields ? vscode.l10n.t(' (missing or unexpected: {0})', fields) : '';
}

/** A string field of an answer that could not be read as a whole, when it is there. */
function textOf(body: unknown, field: string): string | undefined {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}
