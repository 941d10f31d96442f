import * as path from 'node:path';
import * as vscode from 'vscode';
import { AGENT_MANIFEST } from '../workspace/agentManifest';
import { BEHAVIOR_FILE } from '../workspace/layout';

const SHOWN_KEY = 'agentWorkbench.walkthroughShown';
/** The Getting Started walkthrough, as package.json contributes it (`<publisher>.<name>#<id>`). */
export const WALKTHROUGH_ID = 'agent-workbench.agent-workbench#gettingStarted';

/**
 * The steps the walkthrough ticks when they are done (a context key each, `agentWorkbench.walkthrough.<step>`, that
 * package.json's completionEvents name), not when their command opens a picker or a question.
 */
export type WalkthroughStep = 'editBehavior' | 'push' | 'publish' | 'chat' | 'test' | 'conversations';

/** Ticks a step of the walkthrough. */
export function walkthroughStepDone(step: WalkthroughStep): void {
  void vscode.commands.executeCommand('setContext', `agentWorkbench.walkthrough.${step}`, true);
}

/**
 * For a command's result: ticks the step when the command did what it says (a result came), not when the person
 * stopped at a picker or a question, or it failed (undefined). The result goes on unchanged.
 */
export function tickWhenDone(step: WalkthroughStep): <T>(result: T) => T {
  return (result) => {
    if (result !== undefined && result !== false) walkthroughStepDone(step);
    return result;
  };
}

/** Ticks Edit its behavior when a behavior.md of an agent folder is saved. */
export function watchWalkthroughEdits(): vscode.Disposable {
  return vscode.workspace.onDidSaveTextDocument((doc) => {
    if (doc.uri.scheme !== 'file' || path.basename(doc.uri.fsPath) !== BEHAVIOR_FILE) return;
    void vscode.workspace.fs.stat(vscode.Uri.file(path.join(path.dirname(doc.uri.fsPath), AGENT_MANIFEST))).then(
      () => walkthroughStepDone('editBehavior'),
      () => undefined,
    );
  });
}

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
