import type { SYSTEM_ERRORS } from '../../../contract/messaging';
import type { FixKind } from '../../../protocol/chat';

type SystemErrors = typeof SYSTEM_ERRORS;

/**
 * The spec's client action for each system error (Messaging > system messages), as the one-click
 * fix the panel offers. "Retry; then new session" and "retry after a few seconds" are Send again;
 * "configuration issue" opens the profile; "fix the message" puts it back into the message box.
 */
const ACTIONS: Record<Exclude<keyof SystemErrors, 'notAllowedPrefix'>, FixKind> = {
  invalidFormat: 'edit',
  overload: 'resend',
  startFailed: 'join',
  responseFailed: 'resend',
  streamInterrupted: 'resend',
  sessionNotFound: 'newSession',
  sessionLookupFailed: 'resend',
  connectorNotFound: 'settings',
  conversationNotFound: 'join',
  conversationIdNotFound: 'join',
  handoffConnectFailed: 'handoff',
  handoffForwardFailed: 'resend',
  handoffNotInitiated: 'settings',
};

/** The fix for a system error's text, or undefined for a text the spec does not list. */
export function systemErrorFix(text: string, errors: SystemErrors): FixKind | undefined {
  if (text.startsWith(errors.notAllowedPrefix)) return 'edit';
  const key = (Object.keys(ACTIONS) as Array<keyof typeof ACTIONS>).find((k) => errors[k] === text);
  return key ? ACTIONS[key] : undefined;
}
