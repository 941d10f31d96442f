import type { L10n } from './l10n';

/** What the name box says while the text typed is not the agent's name; undefined once it is. */
export function typedNameProblem(l10n: L10n, typed: string, agentName: string): string | undefined {
  return typed === agentName ? undefined : l10n.t('Type exactly: {0}', agentName);
}

/** How many characters of an agent id are typed where the agent's name is not known. */
export const ID_TAIL = 6;

/**
 * What a person types to confirm a change to live, for an agent whose name is `name` (the id itself where only the
 * id is known): the name; for an agent known only by a long id, the id's last characters, which tell it apart as
 * well without typing the whole id.
 */
export function typedConfirmation(agentId: string, name: string): { text: string; ofId?: string } {
  if (name !== agentId || agentId.length <= 2 * ID_TAIL) return { text: name };
  return { text: agentId.slice(-ID_TAIL), ofId: agentId };
}
