import * as vscode from 'vscode';
import type { ConversationRecord } from '../../../contract/conversations';
import type { Connection } from '../../connection/connection';
import type { Log } from '../../log';
import { ConversationView, type OpenConversationArgs } from './conversationView';
import { TranscriptsWebview, type TranscriptsWebviewOptions } from './transcriptsWebview';

/** One conversation in a panel of its own (opened by id, from a chat, or moved out of the list's page). */
export class ConversationPanel extends ConversationView {
  readonly panel: vscode.WebviewPanel;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    connection: Connection,
    log: Log,
    args: OpenConversationArgs,
    record?: ConversationRecord,
    options: TranscriptsWebviewOptions & { revealed?: boolean } = {},
  ) {
    // The page asks the conversation only once this constructor has run, when `late.view` is set.
    const late: { view?: ConversationView } = {};
    const webview = new TranscriptsWebview(
      panel,
      extensionUri,
      log,
      {
        snapshot: () => late.view!.snapshot(),
        command: (c) => late.view!.command(c),
        requests: {
          export: (r) => late.view!.requests.export(r),
          copyId: (r) => late.view!.requests.copyId(r),
        },
      },
      options,
    );
    super(connection, args, webview, {
      ...(record ? { record } : {}),
      ...(options.revealed ? { revealed: true } : {}),
    });
    late.view = this;
    this.panel = panel;
    this.register(webview);
    panel.title = vscode.l10n.t('Conversation {0}', args.conversationId);
    this.register(panel.onDidDispose(() => this.dispose()));
    this.register(panel);
  }
}
