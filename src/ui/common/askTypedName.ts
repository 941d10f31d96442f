import * as vscode from 'vscode';
import { prompts } from './prompts';
import { typedNameProblem } from './typedName';

/**
 * Asks for the agent's name typed before a change to live, as every change to live asks it (the Promote and Rollback
 * commands, the promote tool of assistants). Resolves the text typed, or undefined when the person backs out.
 */
export async function askTypedAgentName(agentName: string): Promise<string | undefined> {
  return prompts.input({
    title: vscode.l10n.t('Confirm a change to live'),
    prompt: vscode.l10n.t('Type the agent name "{0}" to change what callers reach in live', agentName),
    placeHolder: agentName,
    ignoreFocusOut: true,
    validateInput: (v) => typedNameProblem(vscode.l10n, v, agentName),
  });
}
