import * as vscode from 'vscode';

export const EXTENSION_ID = 'agent-workbench.agent-workbench';

/** What activate() returns. */
export interface WorkbenchExports {
  activationTimeMs: number;
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
