// Who made a deployment, as the Agents view tells it (no 'vscode': unit-tested with plain wording).
import type { L10n } from '../../common/l10n';

/** Who made a deployment, in a person's words: an API key is not a person. */
export function actorText(l10n: L10n, createdBy: string | undefined): string {
  if (!createdBy) return l10n.t('someone unknown');
  return /\b(api[ -]?)?key\b/i.test(createdBy) ? l10n.t('an API key ("{0}")', createdBy) : createdBy;
}

/** The short form of actorText for a tree row. */
export function actorShort(l10n: L10n, createdBy: string | undefined): string {
  if (!createdBy) return '';
  return /\b(api[ -]?)?key\b/i.test(createdBy) ? l10n.t('an API key') : createdBy;
}
