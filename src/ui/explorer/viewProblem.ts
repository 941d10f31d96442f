// No 'vscode' here: which welcome content a view shows when it could not load, decided from the failure.
import { isPlatformError } from '../common/failure';

/**
 * Why a view could not load, as its welcome content tells it (context keys agentWorkbench.agents.problem and
 * agentWorkbench.alerts.problem). The welcome content carries the buttons, which VS Code shows only while the
 * view has no message, so the reason is told by which welcome shows, not by a message.
 */
export type ViewProblem = 'missingKey' | 'keyRefused' | 'noAccess' | 'unreachable' | 'other';

/** The problem a failure of a view's first read stands for. */
export function viewProblemOf(err: unknown): ViewProblem {
  const kind = isPlatformError(err) ? err.kind : undefined;
  switch (kind) {
    case 'notConfigured':
      return 'missingKey';
    case 'unauthorized':
      return 'keyRefused';
    case 'forbidden':
      return 'noAccess';
    case 'network':
    case 'timeout':
      return 'unreachable';
    default:
      return 'other';
  }
}
