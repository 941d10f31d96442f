// What a failed command tells the person, and whether it offers Retry, decided without the editor.
import {
  ASSUMPTIONS_DOC,
  isPlatformError,
  mayHaveActed,
  type PlatformError,
  TRY_AGAIN_ADVICE,
  type UnconfirmedEndpoint,
} from '../../client/errors';
import type { L10n } from './l10n';

export { isAssumptionFailure, isPlatformError } from '../../client/errors';
/**
 * Families whose 500 the spec explains as "not done, try again": Outbound Calling ("call placement failed; retry
 * with exponential backoff") and External Events ("transient processing error").
 */
const SPEC_RETRY_500: ReadonlySet<string> = new Set(['outbound', 'externalEvents']);

export interface FailureReport {
  message: string;
  /** Offer Retry: only when the command can be retried and the platform said nothing was done. */
  offerRetry: boolean;
}

/** True when the platform said that nothing was done: a 429, or a 500 the spec explains as not done. */
function nothingDone(err: PlatformError): boolean {
  return err.kind === 'rateLimited' || (err.status === 500 && SPEC_RETRY_500.has(err.family));
}

/**
 * The message for a failed command, or undefined when there is nothing to say (the person cancelled).
 * `retryable` is whether the command is a write that must not repeat: never sent again by itself, and offered
 * again by hand only where the platform said nothing was done.
 */
export function failureReport(l10n: L10n, err: unknown, retryable: boolean): FailureReport | undefined {
  if ((isPlatformError(err) && err.kind === 'cancelled') || (err instanceof Error && err.name === 'AbortError'))
    return undefined;
  let message = err instanceof Error ? err.message : String(err);
  if (!isPlatformError(err)) return { message, offerRetry: false };
  // The client's words already say it may have been done (a write that must not repeat): nothing to add.
  const acted = err.toldMayHaveActed ? undefined : mayHaveActed(err);
  if (acted === 'answerLost' && retryable) {
    message += ` ${l10n.t('It may have been done before the answer was lost: refresh and check before trying again.')}`;
  } else if (acted === 'gateway' && retryable) {
    // A gateway error says nothing of whether the write reached the platform: "try again" could do it twice.
    const advice = ` ${TRY_AGAIN_ADVICE}`;
    if (message.endsWith(advice)) message = message.slice(0, -advice.length);
    message += ` ${l10n.t('It may have been done: check before trying again.')}`;
  }
  return { message, offerRetry: retryable && nothingDone(err) };
}

/**
 * "either topic tp_1 does not exist or this platform has no such endpoint (assumption: row …)", with what to do
 * instead: the words for a 404 from an assumed endpoint that names one item (`PlatformError.unconfirmed`).
 */
export function eitherMissing(l10n: L10n, u: UnconfirmedEndpoint): string {
  const words = l10n.t(
    'either {0} does not exist or this platform has no such endpoint (assumption: row "{1}", see {2}).',
    u.resource,
    u.row.trim().replace(/[.\s]+$/, ''),
    ASSUMPTIONS_DOC,
  );
  return u.manualPath ? `${words} ${u.manualPath}` : words;
}

/** The first sentence of a message (at most 140 characters), for a line that has room for one: a tree item, a note. */
export function firstSentence(s: string): string {
  const cut = s.search(/\.\s/);
  return cut > 0 && cut < 140 ? s.slice(0, cut) : s.length > 140 ? `${s.slice(0, 137)}…` : s;
}
