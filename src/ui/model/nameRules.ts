// What this editor checks of a name as a person types it, before anything is sent.
// The wording takes the editor's l10n as a parameter, so the model stays without the editor.
import type { L10n } from '../common/l10n';

/**
 * What is wrong with a branch name, checked as typed; undefined when it may be sent. Only emptiness: the spec
 * shows no length or characters for branch names, so the platform judges them and its answer is shown.
 */
export function branchNameShapeProblem(l10n: L10n, name: string): string | undefined {
  return name ? undefined : l10n.t('Enter a name for the branch.');
}
