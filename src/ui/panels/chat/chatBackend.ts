import type { ChatLine, Fix, FixKind } from '../../../protocol/chat';
import type { L10n } from '../../common/l10n';

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
const fixLabels = (l10n: L10n): Record<FixKind, string> => ({
  resend: l10n.t('Send again'),
  edit: l10n.t('Edit the message'),
  join: l10n.t('Ask the agent to join'),
  newSession: l10n.t('Start a new session'),
  restart: l10n.t('Restart'),
  handoff: l10n.t('Ask for a person again'),
  settings: l10n.t('Check the connection profile'),
  useAnswerName: l10n.t('Use this name for answers'),
  startLocalPlatform: l10n.t('Start Local Platform'),
});

export function fixOf(l10n: L10n, kind: FixKind): Fix {
  return { kind, label: fixLabels(l10n)[kind] };
}

/** The last thing the person sent, for Send again. */
export interface SentMessage {
  text: string;
  custom?: Record<string, unknown>;
}
