import * as vscode from 'vscode';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import type { AgentsSource } from './agents/agentsSource';
import { parseRemoteDocumentUri, remoteDocumentUri, type RemoteRef, Scheme } from '../uris';

/** A read-only document of what the platform holds now (behavior, a topic, a config's variables). */
export function remoteUri(ref: RemoteRef): vscode.Uri {
  return vscode.Uri.from(remoteDocumentUri(ref));
}

export class RemoteDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly _onDidChange = this.register(new Emitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly source: () => AgentsSource | undefined) {
    super();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const source = this.source();
    if (!source) throw new Error(vscode.l10n.t('Connect to a platform to read this document.'));
    const ref = parseRemoteDocumentUri(uri);
    if (!ref) throw new Error(vscode.l10n.t('This address does not name a document of Agent Workbench: {0}', uri.toString(true)));
    switch (ref.kind) {
      case 'behavior':
        return source.getBehavior(ref.agentId, ref.branchId);
      case 'topic': {
        const topic = (await source.listTopics(ref.agentId, ref.branchId)).find((t) => t.topicId === ref.topicId);
        if (!topic) throw new Error(vscode.l10n.t('The topic "{0}" no longer exists on branch {1}.', ref.topicName, ref.branchName));
        return `# ${topic.name}\n\n${topic.content}\n`;
      }
      case 'realtimeConfig': {
        const config = (await source.listRealtimeConfigs(ref.agentId)).find((c) => c.name === ref.config);
        if (!config) throw new Error(vscode.l10n.t('The real-time config "{0}" no longer exists.', ref.config));
        return `${JSON.stringify(config.variables, null, 2)}\n`;
      }
    }
  }

  /** Re-reads every open remote document (after a refresh). */
  refreshOpen(): void {
    for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === Scheme.remote) this._onDidChange.fire(doc.uri);
  }
}
