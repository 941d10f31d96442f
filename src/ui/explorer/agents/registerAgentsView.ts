import * as vscode from 'vscode';
import type { Connection } from '../../connection/connection';
import { RemoteDocuments } from '../remoteDocuments';
import { setShownProfile } from '../../remoteUri';
import { Scheme } from '../../uris';
import { AgentsTree } from './agentsTree';
import type { Event } from '../../../core/event';
import type { ProfileModels } from '../../model/profileModels';
import { prompts } from '../../common/prompts';

/**
 * The agent folders checked out into the workspace, as the Agents view marks them (the file mirror's index of
 * folders answers it; the view does not depend on the file mirror's UI).
 */
export interface CheckedOutFolders {
  /** The branch id of an agent checked out for a profile, if any. */
  branchOf(profileId: string | undefined, agentId: string): string | undefined;
  /** Looks for checked-out folders again. */
  scan(): Promise<void>;
  readonly onDidChangeFolders: Event<void>;
}

/** Builds the Agents view and the read-only remote documents; reloads both when the profile changes. */
export function createAgentsView(
  connection: Connection,
  models: ProfileModels<object>,
  checkouts: CheckedOutFolders,
): {
  tree: AgentsTree;
  /** The branch id of an agent checked out into the workspace for the active profile. */
  checkedOut: (agentId: string) => string | undefined;
  disposable: vscode.Disposable;
} {
  // Which branch is checked out comes from the index of agent folders (agent.json) the Source Control provider shares.
  const documents = new RemoteDocuments(
    () => models.active()?.agents,
    () => connection.profiles.active,
  );
  setShownProfile(() => connection.profiles.active?.id);
  const checkedOut = (agentId: string): string | undefined =>
    checkouts.branchOf(connection.profiles.active?.id, agentId);
  const tree = new AgentsTree(
    () => models.active()?.agents,
    checkedOut,
    () => {
      void checkouts.scan();
      documents.refreshOpen();
    },
  );
  const disposable = vscode.Disposable.from(
    checkouts.onDidChangeFolders(() => tree.refreshBranches()),
    tree,
    documents,
    vscode.workspace.registerTextDocumentContentProvider(Scheme.remote, documents),
    connection.onDidChange(() => {
      tree.refresh();
      void documents.closeOtherProfiles().then((closed) => {
        if (closed)
          void prompts.info(
            closed === 1
              ? vscode.l10n.t(
                  'Closed 1 read-only document of another connection profile, so it is not read from this one.',
                )
              : vscode.l10n.t(
                  'Closed {0} read-only documents of another connection profile, so they are not read from this one.',
                  closed,
                ),
          );
      });
    }),
  );
  return { tree, checkedOut, disposable };
}
