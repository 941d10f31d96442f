import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentFolders } from './agentFolders';
import { runCommand } from '../common/commandSupport';
import type { Connection } from '../connection/connection';
import { BEHAVIOR_FILE } from '../../workspace/layout';
import { Command } from '../ids';
import { FolderPicker, type FolderArg } from './folderPicker';

/** Open Behavior: the behavior.md of a checked-out agent folder (asked when the workspace has several), ready to edit. */
export function registerOpenBehaviorCommand(connection: Connection, index: AgentFolders): vscode.Disposable {
  const folders = new FolderPicker(connection, index);
  return vscode.commands.registerCommand(Command.openBehavior, (arg?: FolderArg) =>
    runCommand(async () => {
      const target = await folders.resolve(arg, vscode.l10n.t('The agent whose behavior to edit'));
      if (!target) return undefined;
      const file = vscode.Uri.file(path.join(target.folder, BEHAVIOR_FILE));
      await vscode.window.showTextDocument(file, { preview: false });
      return file.fsPath;
    }),
  );
}
