import * as vscode from 'vscode';
import { prompts } from './prompts';
import { typedNameProblem } from './typedName';

/**
 * Asks for the agent's name typed before a change to live, as every change to live asks it (the Promote and Rollback
 * commands, the promote tool of assistants). With `ofId`, `agentName` is the end of that agent id (an agent whose
 * name is not known here). Resolves the text typed, or undefined when the person backs out.
 */
export async function askTypedAgentName(agentName: string, ofId?: string): Promise<string | undefined> {
  return prompts.input({
    title: vscode.l10n.t('Confirm a change to live'),
    prompt: ofId
      ? vscode.l10n.t(
          'Type "{0}", the last {1} characters of the agent id {2}, to change what callers reach in live',
          agentName,
          agentName.length,
          ofId,
        )
      : vscode.l10n.t('Type the agent name "{0}" to change what callers reach in live', agentName),
    placeHolder: agentName,
    ignoreFocusOut: true,
    validateInput: (v) => typedNameProblem(vscode.l10n, v, agentName),
  });
}
