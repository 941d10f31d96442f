import * as vscode from 'vscode';
import { prompts } from '../common/prompts';
import { realtimePushWarning } from './realtimeWarning';

export { realtimeConfigsIn, realtimePushWarning } from './realtimeWarning';

/**
 * Asks before a push that sends real-time config files (paths relative to the agent folder) and
 * resolves true when it may go ahead: at once when it sends none, else only on the person's
 * explicit "Push and Apply Now". A modal question every time, with no setting to silence it: the
 * change reaches live conversations the moment it is sent.
 */
export async function confirmRealtimePush(agentName: string, paths: readonly string[]): Promise<boolean> {
  const warning = realtimePushWarning(vscode.l10n, agentName, paths);
  if (!warning) return true;
  const answer = await prompts.ask(warning.question, { detail: warning.detail, severity: 'warning' }, warning.go);
  return answer === warning.go;
}
