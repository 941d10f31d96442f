import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';

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

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that keeps what it gets (the local platform delivers only to loopback). */
export async function startReceiver(): Promise<{
  url: string;
  received: Delivery[];
  waitFor(count: number): Promise<Delivery[]>;
  close(): Promise<void>;
}> {
  const received: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/alerts`,
    received,
    async waitFor(count) {
      const deadline = Date.now() + 10_000;
      while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (received.length < count) throw new Error(`expected ${count} deliveries, got ${received.length}`);
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The three Standard Webhooks headers of a delivery, as a receiver would hand them to a check. */
export function webhookHeaders(d: Delivery): Record<string, string> {
  const h = (name: string): string => String(d.headers[name] ?? '');
  return {
    'webhook-id': h('webhook-id'),
    'webhook-timestamp': h('webhook-timestamp'),
    'webhook-signature': h('webhook-signature'),
  };
}
