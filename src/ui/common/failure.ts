// What a failed command tells the person, and whether it offers Retry, decided without the editor.
import type { PlatformError } from '../../client/errors';
import type { L10n } from './l10n';

export function isPlatformError(err: unknown): err is PlatformError {
  return err instanceof Error && err.name === 'PlatformError';
}

/** Failures where the platform answered that it did nothing, so trying again cannot do a thing twice. */
const NOTHING_DONE: ReadonlySet<string> = new Set(['rateLimited', 'server', 'badGateway', 'unavailable']);
/** Failures where the answer was lost: the action may have happened. */
const ANSWER_LOST: ReadonlySet<string> = new Set(['network', 'timeout']);

export interface FailureReport {
  message: string;
  /** Offer Retry: only when the command can be retried and the platform said nothing was done. */
  offerRetry: boolean;
}

/**
 * The message for a failed command, or undefined when there is nothing to say (the person cancelled).
 * `retryable` is whether the command is one that is not repeated automatically but may be by hand.
 */
export function failureReport(l10n: L10n, err: unknown, retryable: boolean): FailureReport | undefined {
  if ((isPlatformError(err) && err.kind === 'cancelled') || (err instanceof Error && err.name === 'AbortError'))
    return undefined;
  let message = err instanceof Error ? err.message : String(err);
  if (isPlatformError(err) && ANSWER_LOST.has(err.kind) && retryable) {
    message += ` ${l10n.t('It may have been done before the answer was lost: refresh and check before trying again.')}`;
  }
  return { message, offerRetry: retryable && isPlatformError(err) && NOTHING_DONE.has(err.kind) };
}
