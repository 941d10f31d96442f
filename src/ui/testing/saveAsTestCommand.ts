import * as vscode from 'vscode';
import type { RecordedConversation } from '../../agentTests/fromConversation';
import { runCommand } from '../common/commandSupport';
import { Command } from '../ids';
import type { ModelKeys } from './modelKey';
import { type SavedTest, saveConversationAsTest } from './saveAsTest';

/** What the chat playground and the transcript viewer hand over: the conversation, and the agent it was with. */
export interface SaveAsTestArgs {
  readonly conversation: RecordedConversation;
  readonly agentId?: string;
}

/**
 * The one command both panels run to make a case of their conversation (they may not import this folder): it asks
 * where, writes, and opens the file at the new case; undefined when the person stopped or it failed (said to them).
 */
export function registerSaveAsTest(keys?: ModelKeys): vscode.Disposable {
  return vscode.commands.registerCommand(
    Command.saveConversationAsTest,
    (args: SaveAsTestArgs | undefined): Promise<SavedTest | undefined> =>
      runCommand(async () => {
        if (!args?.conversation) return undefined;
        return saveConversationAsTest(args.conversation, args.agentId, keys);
      }),
  );
}
