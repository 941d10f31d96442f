import * as vscode from 'vscode';
import { Disposable, MutableDisposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import type { AgentsChange, AgentsModel } from '../model/agentsModel';
import { parseRemoteDocumentUri, type RemoteRef, Scheme } from '../uris';
import { workspaceRuntime } from '../workspaceRuntime';

/** The read-only documents of what the platform holds, read from the active profile's model and re-read when it changes. */
export class RemoteDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly _onDidChange = this.register(new Emitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;
  private watched: AgentsModel | undefined;
  private readonly watching = this.register(new MutableDisposable());

  constructor(
    private readonly model: () => AgentsModel | undefined,
    private readonly activeProfile: () => { id: string; name: string } | undefined,
  ) {
    super();
  }

  /**
   * After a profile switch, the open documents of other profiles are closed: they were read from another
   * platform and would otherwise be read again from this one. Says how many were closed.
   */
  async closeOtherProfiles(): Promise<number> {
    const active = this.activeProfile()?.id;
    const tabs = vscode.window.tabGroups.all.flatMap((g) =>
      g.tabs.filter((t) => {
        const uri = t.input instanceof vscode.TabInputText ? t.input.uri : undefined;
        const ref = uri && parseRemoteDocumentUri(uri);
        return ref !== undefined && ref.profile !== active;
      }),
    );
    if (tabs.length === 0) return 0;
    await vscode.window.tabGroups.close(tabs, true);
    return tabs.length;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const model = this.model();
    if (!model) throw new Error(vscode.l10n.t('Connect to a platform to read this document.'));
    const ref = parseRemoteDocumentUri(uri);
    if (!ref)
      throw new Error(
        vscode.l10n.t('This address does not name a document of Agent Workbench: {0}', uri.toString(true)),
      );
    const active = this.activeProfile();
    if (ref.profile !== active?.id)
      throw new Error(
        vscode.l10n.t(
          'This document was read through the connection profile "{0}", not "{1}" in use now: switch back to it, or open the document again from the Agents view.',
          ref.profile,
          active?.name ?? vscode.l10n.t('none'),
        ),
      );
    this.watch(model);
    const agent = model.agent(ref.agentId);
    // The text of a checked-out file, from the mirror's one serializer, so a diff against the file shows only real changes.
    const { behaviorText, topicText, realtimeText } = workspaceRuntime();
    switch (ref.kind) {
      case 'behavior':
        return behaviorText(await agent.behavior.get(ref.branchId).get());
      case 'topic': {
        const topic = (await agent.topics.get(ref.branchId).get()).find((t) => t.topicId === ref.topicId);
        if (!topic)
          throw new Error(
            vscode.l10n.t('The topic "{0}" no longer exists on branch {1}.', ref.topicName, ref.branchName),
          );
        return topicText(topic);
      }
      case 'realtimeConfig': {
        const config = (await agent.realtimeConfigs.get()).find((c) => c.name === ref.config);
        if (!config) throw new Error(vscode.l10n.t('The real-time config "{0}" no longer exists.', ref.config));
        return realtimeText(config.variables);
      }
    }
  }

  /** An open document whose part of the model changed is read again. */
  private watch(model: AgentsModel): void {
    if (this.watched === model) return;
    this.watched = model;
    this.watching.value = model.onDidChange((change) => {
      if (change.part === 'agents') return;
      for (const doc of vscode.workspace.textDocuments) {
        const ref = parseRemoteDocumentUri(doc.uri);
        if (ref && ref.agentId === change.agentId && shows(ref, change)) this._onDidChange.fire(doc.uri);
      }
    });
  }

  /** Re-reads every open remote document (after a refresh). */
  refreshOpen(): void {
    for (const doc of vscode.workspace.textDocuments)
      if (doc.uri.scheme === Scheme.remote) this._onDidChange.fire(doc.uri);
  }
}

function shows(ref: RemoteRef, change: Exclude<AgentsChange, { part: 'agents' }>): boolean {
  switch (ref.kind) {
    case 'behavior':
      return change.part === 'behavior' && change.branchId === ref.branchId;
    case 'topic':
      return change.part === 'topics' && change.branchId === ref.branchId;
    case 'realtimeConfig':
      return change.part === 'realtimeConfigs';
  }
}
