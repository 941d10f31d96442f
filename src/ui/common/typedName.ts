import type { L10n } from './l10n';

/** What the name box says while the text typed is not the agent's name; undefined once it is. */
export function typedNameProblem(l10n: L10n, typed: string, agentName: string): string | undefined {
  return typed === agentName ? undefined : l10n.t('Type exactly: {0}', agentName);
}
