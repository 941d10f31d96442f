import { TRY_AGAIN_ADVICE } from '../client/errors';
import type { ToolKind } from './tool';

interface PlatformFailure {
  name: string;
  message: string;
  kind: string;
}

/** A PlatformError, known by its name, as the editor knows it: the client bundle has its own copy of the class. */
function isPlatformFailure(err: unknown): err is Error & PlatformFailure {
  return err instanceof Error && err.name === 'PlatformError' && typeof (err as { kind?: unknown }).kind === 'string';
}

/** Failures where the answer was lost: a change may have happened. */
const ANSWER_LOST = new Set(['network', 'timeout']);
/** A gateway's error says nothing of whether the platform behind it acted. */
const GATEWAY = new Set(['badGateway', 'unavailable']);

/**
 * A failure as the tool's answer: the platform's error in the sentence the person sees (the client words it, see
 * src/client/errors.ts), and for a change whose answer was lost, that it may have been done, as the editor's
 * failure wording says (src/ui/common/failure.ts), so that the model reads the state before trying again.
 */
export function failureText(err: unknown, kind: ToolKind): string {
  if (err instanceof Error && err.name === 'AbortError') return 'Cancelled: nothing more was done.';
  if (!isPlatformFailure(err)) return err instanceof Error ? err.message : String(err);
  if (err.kind === 'cancelled') return 'Cancelled: nothing more was done.';
  let message = err.message;
  if (kind === 'change' && ANSWER_LOST.has(err.kind))
    message += ' It may have been done before the answer was lost: read the state again before trying again.';
  else if (kind === 'change' && GATEWAY.has(err.kind)) {
    const advice = ` ${TRY_AGAIN_ADVICE}`;
    if (message.endsWith(advice)) message = message.slice(0, -advice.length);
    message += ' It may have been done: read the state again before trying again.';
  }
  return message;
}
