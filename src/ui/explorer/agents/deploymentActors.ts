// Who made a deployment, as the Agents view tells it (no 'vscode': unit-tested with plain wording).
import type { L10n } from '../../common/l10n';

/** A deployer the platform names by an API key's label: an API key is not a person. */
const KEY_LABEL = /\b(api[ -]?)?key\b/i;

/**
 * Who made a deployment, in a person's words. A key is named by its label on the platform, and, where the deployment
 * was made from this editor, by the profile whose key it was (never the key itself).
 */
export function actorText(l10n: L10n, createdBy: string | undefined, madeWithProfile?: string): string {
  if (!createdBy) return l10n.t('someone unknown');
  if (!KEY_LABEL.test(createdBy)) return createdBy;
  return madeWithProfile
    ? l10n.t('the API key "{0}" of profile "{1}", from this editor', createdBy, madeWithProfile)
    : l10n.t('the API key "{0}" (a key of the workspace, not a person)', createdBy);
}

/** The short form of actorText for a tree row. */
export function actorShort(l10n: L10n, createdBy: string | undefined, madeWithProfile?: string): string {
  if (!createdBy) return '';
  if (!KEY_LABEL.test(createdBy)) return createdBy;
  return madeWithProfile ? l10n.t('key of profile "{0}"', madeWithProfile) : l10n.t('API key "{0}"', createdBy);
}
