import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposable';
import type { Problem } from '../../lint/runtime';
import { AGENT_MANIFEST } from '../../workspace/agentManifest';
import { runCommand, UserFacingError } from '../common/commandSupport';
import type { ProfileStore } from '../connection/profileStore';
import type { SecretVault } from '../connection/secretVault';
import { Command } from '../ids';
import { AgentLint } from './agentLint';
import { LintCodeActions } from './lintCodeActions';
import { workspaceCredentials } from './workspaceCredentials';

/** What Check Agent Folder answers: the folder and its problems (Push names the errors from it). */
export interface FolderCheck {
  folder: string;
  problems: Problem[];
}

/**
 * The checks of agent folders in the editor: diagnostics as typed, their quick fixes, and **Check Agent Folder**
 * (a folder or file URI, else the active editor's folder), which checks the files on disk and the open documents
 * now and shows the Problems panel unless `{ quiet: true }` is passed.
 */
export function registerAgentDiagnostics(
  extensionUri: vscode.Uri,
  profiles: ProfileStore,
  vault: SecretVault,
): vscode.Disposable & { readonly onDidHandOver: AgentLint['onDidHandOver'] } {
  const store = new DisposableStore();
  const lint = store.add(new AgentLint(extensionUri, () => workspaceCredentials(profiles, vault)));
  store.add(vault.onDidChange(() => lint.credentialsChanged()));
  store.add(profiles.onDidChange(() => lint.credentialsChanged()));
  store.add(
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new LintCodeActions((uri) => lint.fixesOf(uri)), {
      providedCodeActionKinds: LintCodeActions.kinds,
    }),
  );
  store.add(
    vscode.commands.registerCommand(Command.checkAgentFolder, (arg?: vscode.Uri, options?: { quiet?: boolean }) =>
      runCommand(async (): Promise<FolderCheck> => {
        const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
        // A folder is its own agent folder when it holds agent.json.
        const probe =
          uri && existsSync(path.join(uri.fsPath, AGENT_MANIFEST)) ? vscode.Uri.joinPath(uri, AGENT_MANIFEST) : uri;
        const folder = probe && lint.agentFolderOf(probe);
        if (!folder)
          throw new UserFacingError(
            vscode.l10n.t('Open a file of a checked-out agent folder (a folder with agent.json) to check it.'),
          );
        const problems = await lint.check(folder);
        if (!options?.quiet) void vscode.commands.executeCommand('workbench.actions.view.problems');
        return { folder, problems };
      }),
    ),
  );
  return { dispose: () => store.dispose(), onDidHandOver: lint.onDidHandOver };
}
