import * as vscode from 'vscode';
import type { ConnectionProfile } from '../../../src/client/profile';
import type { TestingApi } from '../../../src/extension';

export const EXTENSION_ID = 'agent-workbench.agent-workbench';

/** What activate() returns. */
export interface WorkbenchExports {
  activationTimeMs: number;
  logUri: vscode.Uri;
  agentsView: vscode.TreeDataProvider<unknown>;
  testing?: TestingApi;
}

export interface LocalPlatformUrls {
  origin: string;
  runtime: string;
  build: string;
  messaging: string;
  admin: string;
}

export function getExtension(): vscode.Extension<WorkbenchExports> {
  const ext = vscode.extensions.getExtension<WorkbenchExports>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext;
}

export async function activateExtension(): Promise<WorkbenchExports> {
  return getExtension().activate();
}

/** Records a figure for `npm run bench` (collected into the results file). */
export function recordMetric(name: string, value: number): void {
  const metrics = (globalThis as { agentWorkbenchMetrics?: Record<string, number> }).agentWorkbenchMetrics;
  if (metrics) metrics[name] = value;
}

/** Reads a tree the way VS Code does: children, then each child's TreeItem. */
export async function treeItems(
  provider: vscode.TreeDataProvider<unknown>,
  parent?: unknown,
): Promise<Array<{ node: unknown; item: vscode.TreeItem; label: string; description: string }>> {
  const children = (await provider.getChildren(parent)) ?? [];
  return Promise.all(
    children.map(async (node) => {
      const item = await provider.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      return { node, item, label, description: typeof item.description === 'string' ? item.description : '' };
    }),
  );
}

/** Finds a child by its label, failing with the labels that were there. */
export async function child(
  provider: vscode.TreeDataProvider<unknown>,
  parent: unknown,
  label: string | RegExp,
): Promise<{ node: unknown; item: vscode.TreeItem; label: string; description: string }> {
  const items = await treeItems(provider, parent);
  const found = items.find((i) => (typeof label === 'string' ? i.label === label : label.test(i.label)));
  if (!found) throw new Error(`no tree item ${String(label)} among: ${items.map((i) => i.label).join(', ')}`);
  return found;
}

/** Activates the extension, starts the editor's local platform and switches to its profile (a suite's setup). */
export async function startLocalPlatformInEditor(): Promise<LocalPlatformUrls> {
  await activateExtension();
  const urls = (await vscode.commands.executeCommand<LocalPlatformUrls>('agentWorkbench.startLocalPlatform'))!;
  await vscode.commands.executeCommand('agentWorkbench.switchProfile', 'local');
  return urls;
}

/** Runs a command that opens a panel and returns what it returned (the panel), failing when it opened none. */
export async function openPanel<T>(command: string, args?: unknown): Promise<T> {
  const panel = await vscode.commands.executeCommand<T | undefined>(command, args);
  if (!panel) throw new Error(`${command} did not open a panel`);
  return panel;
}

/**
 * A profile of a platform other than the local one, as the editor sees it (a custom region at the local platform's
 * addresses): saved by a test with the keys it gives it, and removed after.
 */
export function otherPlatformProfile(
  urls: LocalPlatformUrls,
  id: string,
  name: string,
  projectId: string,
): ConnectionProfile {
  return {
    id,
    name,
    accountId: 'acme',
    projectId,
    region: 'custom',
    runtimeUrl: urls.runtime,
    buildUrl: urls.build,
    messagingUrl: urls.messaging,
  };
}
