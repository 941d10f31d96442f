import { isPlatformError, mayHaveActed, TRY_AGAIN_ADVICE } from '../client/errors';
import type { ToolKind } from './tool';

/**
 * A failure as the tool's answer: the platform's error in the sentence the person sees (the client words it, see
 * src/client/errors.ts), and for a change whose answer was lost, that it may have been done, as the editor's
 * failure wording says (src/ui/common/failure.ts), so that the model reads the state before trying again.
 */
export function failureText(err: unknown, kind: ToolKind): string {
  if (err instanceof Error && err.name === 'AbortError') return 'Cancelled: nothing more was done.';
  if (!isPlatformError(err)) return err instanceof Error ? err.message : String(err);
  if (err.kind === 'cancelled') return 'Cancelled: nothing more was done.';
  let message = err.message;
  // The client's words already say it may have been done (a write that must not repeat).
  if (err.toldMayHaveActed) return message;
  if (kind === 'change' && mayHaveActed(err) === 'answerLost')
    message += ' It may have been done before the answer was lost: read the state again before trying again.';
  else if (kind === 'change' && mayHaveActed(err) === 'gateway') {
    const advice = ` ${TRY_AGAIN_ADVICE}`;
    if (message.endsWith(advice)) message = message.slice(0, -advice.length);
    message += ' It may have been done: read the state again before trying again.';
  }
  return message;
}
