import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  LOCAL_ACCOUNT,
  LOCAL_CONNECTORS,
  LOCAL_KEYS,
  LOCAL_PROJECT,
} from '../../../src/localPlatform/seed/credentials';
import { call } from '../http';
import type { EditorSuite } from './suite';

/**
 * A Chat API call of the local project as a caller of `environment` makes it (its connector token for that
 * environment), beside the editor: traffic the editor did not make.
 */
export function callerChat(editor: EditorSuite, environment: 'live' | 'pre-release') {
  return (path: string, body: unknown, method = 'POST') =>
    call<{ conversation_id: string; end_conversation?: boolean }>(
      method,
      `${editor.urls.runtime}/v1/${LOCAL_ACCOUNT.slug}/${LOCAL_PROJECT.slug}/chat/${path}`,
      { headers: { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': `${LOCAL_CONNECTORS.chatToken}_${environment}` }, body },
    );
}

/** Main's returns topic says 14 days, published to sandbox from the Agents view: the other environments say 30. */
export async function shortenReturnsInSandbox(editor: EditorSuite): Promise<void> {
  await editor.admin.editBranch('ag_support', 'br_support_main', {
    upsertTopics: [
      {
        topicId: 'kt_returns',
        name: 'Returns',
        content: 'You can return any item within 14 days of delivery for a full refund.',
      },
    ],
  });
  await vscode.commands.executeCommand('agentWorkbench.refreshAgents');
  editor.ui.setAnswer((s) => (s.modal ? s.items[0] : undefined));
  const published = await vscode.commands.executeCommand<{ deployment: { environment: string } }>(
    'agentWorkbench.publish',
    { agentId: 'ag_support' },
    { deploymentMessage: 'Shorter returns window' },
  );
  assert.equal(published?.deployment.environment, 'sandbox');
}
