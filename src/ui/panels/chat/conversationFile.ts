import * as vscode from 'vscode';
import { prompts } from '../../common/prompts';
import { announceSavedFile } from '../../common/savedFile';
import { type ChatSnapshot, isChatSnapshot } from '../../../protocol/chat';

/** What a saved conversation file holds: the panel's view of it (never a key or a token). */
export const CONVERSATION_FORMAT = 'agent-workbench.conversation';
export const CONVERSATION_EXTENSION = '.chat.json';

interface ConversationFile {
  format: typeof CONVERSATION_FORMAT;
  version: 1;
  savedAt: string;
  conversation: ChatSnapshot;
}

/** The file dialogs' filter: saved conversations. */
export const conversationFilters = (): Record<string, string[]> => ({
  [vscode.l10n.t('Conversation')]: ['chat.json', 'json'],
});

/** Writes the conversation where the person picks (in the workspace by default). */
export async function saveConversation(
  snapshot: ChatSnapshot,
  conversationId: string | undefined,
): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `conversation-${(conversationId ?? new Date().toISOString()).replace(/[^A-Za-z0-9_-]+/g, '-')}${CONVERSATION_EXTENSION}`;
  const uri = await prompts.saveFile({
    title: vscode.l10n.t('Save Conversation'),
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    filters: conversationFilters(),
  });
  if (!uri) return undefined;
  const file: ConversationFile = {
    format: CONVERSATION_FORMAT,
    version: 1,
    savedAt: new Date().toISOString(),
    conversation: snapshot,
  };
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(file, null, 2)}\n`));
  announceSavedFile(uri, (where) => vscode.l10n.t('Saved the conversation to {0}.', where));
  return uri;
}

/** Reads a saved conversation; says what is wrong with a file that is not one. */
export async function readConversation(uri: vscode.Uri): Promise<ChatSnapshot> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
  } catch (err) {
    throw new Error(
      vscode.l10n.t(
        '{0} could not be read as a conversation: {1}',
        vscode.workspace.asRelativePath(uri),
        err instanceof Error ? err.message : String(err),
      ),
    );
  }
  const file = parsed as Partial<ConversationFile> | null;
  if (file?.format !== CONVERSATION_FORMAT || !isChatSnapshot(file.conversation)) {
    throw new Error(
      vscode.l10n.t('{0} is not a conversation saved by Agent Workbench.', vscode.workspace.asRelativePath(uri)),
    );
  }
  return file.conversation;
}
