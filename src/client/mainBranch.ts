import type { Branch } from '../contract/agents';

/**
 * Whether a branch is the agent's main (the branch that gets published): as the platform marks it (`isDefault`, a
 * field the spec does not show), else by its name. The one rule of the editor, the assistant tools and the CLI.
 */
export function isMain(branch: Pick<Branch, 'name' | 'isDefault'>): boolean {
  return branch.isDefault ?? branch.name === 'main';
}
