import * as vscode from 'vscode';
import { prompts } from './prompts';

/**
 * Says where a file was written, with Open and, for a file in the workspace, Reveal in Explorer. Called only
 * after the write succeeded; the message does not hold up the command that wrote it.
 */
export function announceSavedFile(uri: vscode.Uri, message: (where: string) => string): void {
  const open = vscode.l10n.t('Open');
  const reveal = vscode.l10n.t('Reveal in Explorer');
  const inWorkspace = vscode.workspace.getWorkspaceFolder(uri) !== undefined;
  const where = inWorkspace ? vscode.workspace.asRelativePath(uri) : uri.fsPath;
  void prompts.info(message(where), ...(inWorkspace ? [open, reveal] : [open])).then(async (choice) => {
    if (choice === open) await vscode.window.showTextDocument(uri, { preview: false });
    else if (choice === reveal) await vscode.commands.executeCommand('revealInExplorer', uri);
  });
}
