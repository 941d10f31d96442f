// What the platform accepts as a name, checked as a person types it. The limits are the contract's;
// the wording takes the editor's l10n as a parameter, so the model stays without the editor.
import type { L10n } from '../common/l10n';
import { platformContract } from './platformClients';

/** What is wrong with the form of a branch name (length, characters), checked as typed; undefined when it may be sent. */
export function branchNameShapeProblem(l10n: L10n, name: string): string | undefined {
  const { BRANCH_NAME_MAX, BRANCH_NAME_PATTERN } = platformContract().agentsContract;
  if (!name || name.length > BRANCH_NAME_MAX) return l10n.t('A branch name has 1 to {0} characters.', BRANCH_NAME_MAX);
  if (!BRANCH_NAME_PATTERN.test(name))
    return l10n.t('Use letters, digits, ".", "_", "-" and "/", starting with a letter or digit.');
  return undefined;
}
