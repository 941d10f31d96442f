import * as vscode from 'vscode';
import type { LocalPlatformUrls } from '../../localPlatform/server';
import type { Connection } from '../connection/connection';
import type { LocalPlatformHost } from './localPlatformHost';

/** Start and stop the local platform inside the editor; while it runs, the Local profile points at it. */
export function registerLocalPlatformCommands(host: LocalPlatformHost, connection: Connection): vscode.Disposable {
  return vscode.Disposable.from(
    host.onDidChange((lp) => {
      if (!lp) connection.detachLocal();
    }),
    vscode.commands.registerCommand('agentWorkbench.startLocalPlatform', async (): Promise<LocalPlatformUrls | undefined> => {
      try {
        const lp = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting the local platform…') },
          () => host.start(),
        );
        await connection.attachLocal(lp);
        void vscode.window.showInformationMessage(vscode.l10n.t('The local platform is running on {0}.', lp.urls.origin));
        return lp.urls;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        void vscode.window.showErrorMessage(vscode.l10n.t('The local platform could not start: {0}', message));
        return undefined;
      }
    }),
    vscode.commands.registerCommand('agentWorkbench.stopLocalPlatform', () => host.stop()),
  );
}
