import * as vscode from 'vscode';
import type { Connection } from '../../connection/connection';
import { RemoteDocuments } from '../remoteDocuments';
import { Scheme } from '../../uris';
import { AgentsTree } from './agentsTree';
import type { AgentFolders } from '../../workspace/agentFolders';
import { RememberedAgents } from './rememberedAgents';
import type { ProfileModels } from '../../model/profileModels';

/** Builds the Agents view and the read-only remote documents; reloads both when the profile changes. */
export function createAgentsView(
  connection: Connection,
  models: ProfileModels<object>,
  workspaceState: vscode.Memento,
  checkouts: AgentFolders,
): { tree: AgentsTree; remembered: RememberedAgents; disposable: vscode.Disposable } {
  const remembered = new RememberedAgents(workspaceState);
  // Which branch is checked out comes from the index of agent folders (agent.json) the Source Control provider shares.
  const documents = new RemoteDocuments(() => models.active()?.agents);
  const tree = new AgentsTree(
    () => models.active()?.agents,
    (agentId) => checkouts.branchOf(connection.profiles.active?.id, agentId),
    () => {
      void checkouts.scan();
      documents.refreshOpen();
    },
    async () => {
      const profileId = connection.profiles.active?.id;
      const ids = profileId ? remembered.list(profileId) : [];
      const model = models.active()?.agents;
      // Each id is read where the platform can; otherwise the id stands for the agent.
      return Promise.all(
        ids.map((agentId) =>
          (model ? model.find(agentId).catch(() => undefined) : Promise.resolve(undefined)).then(
            (a) => a ?? { agentId, name: agentId, description: '' },
          ),
        ),
      );
    },
  );
  const disposable = vscode.Disposable.from(
    checkouts.onDidChangeFolders(() => tree.refreshBranches()),
    tree,
    documents,
    vscode.workspace.registerTextDocumentContentProvider(Scheme.remote, documents),
    connection.onDidChange(() => tree.refresh()),
  );
  return { tree, remembered, disposable };
}
