import * as vscode from 'vscode';
import { LocalPlatformHost } from './ui/localPlatform/localPlatformHost';

/** What activate() hands to other extensions and to the tests (`vscode.extensions.getExtension(...).exports`). */
export interface AgentWorkbenchApi {
  /** Time spent in activate(), read by the activation benchmark. */
  readonly activationTimeMs: number;
}

/** Composition root: builds the objects and registers them; everything heavy loads on first use. */
export function activate(context: vscode.ExtensionContext): AgentWorkbenchApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Agent Workbench', { log: true });
  const localPlatform = new LocalPlatformHost(context.extensionPath, log);
  context.subscriptions.push(
    log,
    localPlatform,
    vscode.commands.registerCommand('agentWorkbench.startLocalPlatform', async () => {
      try {
        const lp = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting the local platform…') },
          () => localPlatform.start(),
        );
        void vscode.window.showInformationMessage(vscode.l10n.t('The local platform is running on {0}.', lp.urls.origin));
        return lp.urls;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        log.error(`Local platform failed to start: ${message}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('The local platform could not start: {0}', message));
        return undefined;
      }
    }),
    vscode.commands.registerCommand('agentWorkbench.stopLocalPlatform', () => localPlatform.stop()),
    vscode.commands.registerCommand('agentWorkbench.connect', () => {
      void vscode.window.showInformationMessage(vscode.l10n.t('Connection profiles are not available yet. Start the local platform to try Agent Workbench offline.'));
    }),
    vscode.commands.registerCommand('agentWorkbench.showLog', () => log.show()),
  );
  const ms = performance.now() - started;
  log.info(`Activated in ${ms.toFixed(2)} ms`);
  activationTimeMs = ms;
  return { activationTimeMs: ms };
}

/** Time spent in activate(), read by the activation benchmark. */
export let activationTimeMs = 0;

export function deactivate(): void {
  // Disposables in context.subscriptions are released by VS Code.
}
