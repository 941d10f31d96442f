// No 'vscode' here: which welcome content a view shows when it could not load, decided from the failure.
import { isPlatformError } from '../common/failure';

/**
 * Why a view could not load, as its welcome content tells it (context keys agentWorkbench.agents.problem and
 * agentWorkbench.alerts.problem). The welcome content carries the buttons, which VS Code shows only while the
 * view has no message, so the reason is told by which welcome shows, not by a message.
 */
export type ViewProblem =
  'missingKey' | 'keyRefused' | 'noAccess' | 'unreachable' | 'noAnswer' | 'busy' | 'server' | 'unreadable' | 'other';

/** The problem a failure of a view's first read stands for. */
export function viewProblemOf(err: unknown): ViewProblem {
  if (!isPlatformError(err)) return 'other';
  switch (err.kind) {
    case 'notConfigured':
      return 'missingKey';
    case 'unauthorized':
      return 'keyRefused';
    case 'forbidden':
      return 'noAccess';
    case 'network':
      // Closed after the request went out: the platform was reached, its answer lost.
      return err.closed ? 'noAnswer' : 'unreachable';
    case 'timeout':
      return 'noAnswer';
    case 'rateLimited':
      return 'busy';
    case 'server':
    case 'badGateway':
    case 'unavailable':
      return 'server';
    case 'unexpectedResponse':
      return 'unreadable';
    default:
      return 'other';
  }
}
