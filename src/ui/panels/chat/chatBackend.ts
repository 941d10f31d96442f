import * as vscode from 'vscode';
import type { ChatLine, Fix, FixKind } from '../../../protocol/chat';

/**
 * One conversation with the platform, in one of the panel's modes. The panel talks to this and
 * never to a client directly, so each mode's use of its client stays in one file.
 */
export interface ChatBackend {
  /** Starts the conversation (a session or a Chat API create); errors become lines, never throws. */
  start(): Promise<void>;
  send(text: string, custom?: Record<string, unknown>): Promise<void>;
  typing(typing: boolean): void;
  handoff(reason?: string): Promise<void>;
  endSession(): Promise<void>;
  /** Carries out a one-click fix shown on `line`; `newSession`, `restart`, `settings` and `startLocalPlatform` are the panel's. */
  fix(kind: FixKind, line: ChatLine): Promise<void>;
  readonly conversationId: string | undefined;
  dispose(): void;
}

/** The words of each fix button (read when a fix is offered, so in the editor's language). */
const fixLabels = (): Record<FixKind, string> => ({
  resend: vscode.l10n.t('Send again'),
  edit: vscode.l10n.t('Edit the message'),
  join: vscode.l10n.t('Ask the agent to join'),
  newSession: vscode.l10n.t('Start a new session'),
  restart: vscode.l10n.t('Restart'),
  handoff: vscode.l10n.t('Ask for a person again'),
  settings: vscode.l10n.t('Check the connection profile'),
  useAnswerName: vscode.l10n.t('Use this name for answers'),
  startLocalPlatform: vscode.l10n.t('Start Local Platform'),
});

export function fixOf(kind: FixKind): Fix {
  return { kind, label: fixLabels()[kind] };
}

/** The last thing the person sent, for Send again. */
export interface SentMessage {
  text: string;
  custom?: Record<string, unknown>;
}
