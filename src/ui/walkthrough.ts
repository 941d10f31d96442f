import * as vscode from 'vscode';

const SHOWN_KEY = 'agentWorkbench.walkthroughShown';
/** The Getting Started walkthrough, as package.json contributes it (`<publisher>.<name>#<id>`). */
export const WALKTHROUGH_ID = 'agent-workbench.agent-workbench#gettingStarted';

/**
 * Opens the Getting Started walkthrough on the first start, so a new user's first screen says where to begin.
 * Once only, and not where the person (or a test host) asked for a quiet start: VS Code's own setting for opening
 * walkthroughs on install, or no startup editor.
 */
export function openWalkthroughOnFirstStart(context: vscode.ExtensionContext): void {
  if (context.extensionMode === vscode.ExtensionMode.Test || context.globalState.get<boolean>(SHOWN_KEY)) return;
  const workbench = vscode.workspace.getConfiguration('workbench');
  if (workbench.get<boolean>('welcomePage.walkthroughs.openOnInstall') === false) return;
  if (workbench.get<string>('startupEditor') === 'none') return;
  void context.globalState.update(SHOWN_KEY, true);
  void vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
}
