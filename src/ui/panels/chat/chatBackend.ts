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
  /** Carries out a one-click fix shown on `line`; `newSession`, `restart` and `settings` are the panel's. */
  fix(kind: FixKind, line: ChatLine): Promise<void>;
  readonly conversationId: string | undefined;
  dispose(): void;
}

/** The words of each fix button. */
function fixLabel(kind: FixKind): string {
  switch (kind) {
    case 'resend':
      return vscode.l10n.t('Send again');
    case 'edit':
      return vscode.l10n.t('Edit the message');
    case 'join':
      return vscode.l10n.t('Ask the agent to join');
    case 'newSession':
      return vscode.l10n.t('Start a new session');
    case 'restart':
      return vscode.l10n.t('Restart');
    case 'handoff':
      return vscode.l10n.t('Ask for a person again');
    case 'settings':
      return vscode.l10n.t('Check the connection profile');
  }
}

export function fixOf(kind: FixKind): Fix {
  return { kind, label: fixLabel(kind) };
}

/** The last thing the person sent, for Send again. */
export interface SentMessage {
  text: string;
  custom?: Record<string, unknown>;
}
