import type { WorkbenchExports } from './extension';

/** The Agents view's node of an agent, found by its label, as a click on it passes it to a command. */
export async function agentNodeNamed(api: WorkbenchExports, name: string): Promise<unknown> {
  const roots = (await api.agentsView.getChildren()) ?? [];
  for (const node of roots) {
    const item = await api.agentsView.getTreeItem(node);
    const label = typeof item.label === 'string' ? item.label : item.label?.label;
    if (label === name) return node;
  }
  throw new Error(`no agent ${name} in the Agents view`);
}
