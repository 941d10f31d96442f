// A push of real-time config files changes what the agent does at once: the platform applies
// variables "immediately without publishing", and configs belong to the agent, not to a branch.
// The push asks first with these words (see realtimeConfigs.ts for the question itself).
import type { L10n } from '../common/l10n';

/** `realtime/<config>.json` at the root of an agent folder (paths relative to it, with `/`). */
const REALTIME_FILE = /^realtime\/([^/]+)\.json$/;

/** The configs among the paths a push is about to send, in order, each once. */
export function realtimeConfigsIn(paths: readonly string[]): string[] {
  const configs = paths.map((p) => REALTIME_FILE.exec(p.replace(/\\/g, '/'))?.[1]).filter((c) => c !== undefined);
  return [...new Set(configs)];
}

export interface RealtimePushWarning {
  question: string;
  detail: string;
  /** The button that pushes; anything else pushes nothing. */
  go: string;
}

/** The warning before a push that sends real-time config files; undefined when it sends none. */
export function realtimePushWarning(
  l10n: L10n,
  agentName: string,
  paths: readonly string[],
): RealtimePushWarning | undefined {
  const configs = realtimeConfigsIn(paths);
  if (configs.length === 0) return undefined;
  return {
    question:
      configs.length === 1
        ? l10n.t(
            'Pushing {0} changes the real-time config "{1}" of {2} at once.',
            paths.length === 1 ? l10n.t('this file') : l10n.t('these files'),
            configs[0]!,
            agentName,
          )
        : l10n.t(
            'Pushing changes {0} real-time configs of {1} at once: {2}.',
            configs.length,
            agentName,
            configs.join(', '),
          ),
    detail: l10n.t(
      'Real-time config values take effect immediately, without publishing, in every environment including live: calls and chats in progress read the new values from their next turn. They belong to the agent, not to a branch, and are not part of a branch merge.',
    ),
    go: l10n.t('Push and Apply Now'),
  };
}
