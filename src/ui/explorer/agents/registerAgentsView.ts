import * as vscode from 'vscode';
import type { Connection } from '../../connection/connection';
import { RemoteDocuments, REMOTE_SCHEME } from '../remoteDocuments';
import type { AgentsSource } from './agentsSource';
import { AgentsTree } from './agentsTree';
import { Checkouts } from './checkouts';
import { agentsSourceFor } from './clientAgentsSource';

/** Builds the Agents view and the read-only remote documents; reloads both when the profile changes. */
export function createAgentsView(connection: Connection): { tree: AgentsTree; disposable: vscode.Disposable } {
  let cached: { ctx: unknown; source: AgentsSource } | undefined;
  const source = (): AgentsSource | undefined => {
    const ctx = connection.context;
    if (!ctx) return undefined;
    if (cached?.ctx !== ctx) cached = { ctx, source: agentsSourceFor(ctx) };
    return cached.source;
  };
  // Which branch is checked out comes from the agent folders (agent.json) of the workspace.
  const checkouts = new Checkouts();
  const documents = new RemoteDocuments(source);
  const tree = new AgentsTree(source, (agentId) => checkouts.branchOf(connection.profiles.active?.id, agentId), () => {
    void checkouts.scan();
    documents.refreshOpen();
  });
  const disposable = vscode.Disposable.from(
    checkouts,
    checkouts.onDidChange(() => tree.refreshBranches()),
    tree,
    documents,
    vscode.workspace.registerTextDocumentContentProvider(REMOTE_SCHEME, documents),
    connection.profiles.onDidChange(() => tree.refresh()),
  );
  return { tree, disposable };
}
