import * as vscode from 'vscode';
import type { ReceivedWebhook } from '../webhookReceiver';

/** A node of the Alerts view as the refresh commands return it (the objects VS Code itself reads). */
export interface AlertsNode {
  readonly id: string;
  readonly parent: AlertsNode | undefined;
  getTreeItem(): vscode.TreeItem;
  getChildren(): Promise<AlertsNode[]>;
}

export interface Row {
  node: AlertsNode;
  item: vscode.TreeItem;
  label: string;
  description: string;
  icon: string;
  tooltip: string;
}

export function row(node: AlertsNode): Row {
  const item = node.getTreeItem();
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? '');
  const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '';
  return {
    node,
    item,
    label,
    description: typeof item.description === 'string' ? item.description : '',
    icon,
    tooltip,
  };
}

export async function rows(nodes: AlertsNode[] | PromiseLike<AlertsNode[] | undefined> | undefined): Promise<Row[]> {
  return ((await nodes) ?? []).map(row);
}

/** The top of the Alerts view after a full reload. */
export async function alertsRoots(): Promise<Row[]> {
  return rows(vscode.commands.executeCommand<AlertsNode[]>('agentWorkbench.refreshAlerts'));
}

export async function group(label: string): Promise<Row> {
  const top = await alertsRoots();
  const found = top.find((r) => r.label === label);
  if (!found) throw new Error(`no group ${label} among: ${top.map((r) => r.label).join(', ')}`);
  return found;
}

export async function groupChildren(label: string): Promise<Row[]> {
  return rows((await group(label)).node.getChildren());
}

/** The three Standard Webhooks headers of a delivery, as a receiver would hand them to a check. */
export function webhookHeaders(d: ReceivedWebhook): Record<string, string> {
  const h = (name: string): string => String(d.headers[name] ?? '');
  return {
    'webhook-id': h('webhook-id'),
    'webhook-timestamp': h('webhook-timestamp'),
    'webhook-signature': h('webhook-signature'),
  };
}
