// Who made a deployment, as the Agents view tells it (no 'vscode': unit-tested with plain wording).
import type { L10n } from '../../common/l10n';

/** A deployer the platform names by an API key's label: an API key is not a person. */
const KEY_LABEL = /\b(api[ -]?)?key\b/i;

/**
 * Who made a deployment, in a person's words: as the platform names the deployer, and a key by its label (never
 * the key itself). The same whatever connection profile is active: the deployment's record does not change with it.
 */
export function actorText(l10n: L10n, createdBy: string | undefined): string {
  if (!createdBy) return l10n.t('someone unknown');
  if (!KEY_LABEL.test(createdBy)) return createdBy;
  return l10n.t('the API key "{0}" (a key of the workspace, not a person)', createdBy);
}

/** The short form of actorText for a tree row. */
export function actorShort(l10n: L10n, createdBy: string | undefined): string {
  if (!createdBy) return '';
  if (!KEY_LABEL.test(createdBy)) return createdBy;
  return l10n.t('API key "{0}"', createdBy);
}
