import * as vscode from 'vscode';
import { Disposable } from '../../../core/disposable';
import { Emitter } from '../../../core/event';
import {
  AGENT_MANIFEST,
  type AgentManifest,
  checkedOutBranches,
  parseAgentManifest,
} from '../../../workspace/agentManifest';

/**
 * Which branch of each agent is checked out into the workspace, read from the `agent.json`
 * files of its agent folders and kept current as they change.
 */
export class Checkouts extends Disposable {
  private manifests: AgentManifest[] = [];
  private readonly watcher = this.register(vscode.workspace.createFileSystemWatcher(`**/${AGENT_MANIFEST}`));
  private readonly _onDidChange = this.register(new Emitter<void>());
  readonly onDidChange = this._onDidChange.event;
  private scanning: Promise<void> | undefined;
  private dirty = false;
  private scanned = false;

  constructor() {
    super();
    const rescan = (): void => void this.scan();
    this.register(this.watcher.onDidCreate(rescan));
    this.register(this.watcher.onDidChange(rescan));
    this.register(this.watcher.onDidDelete(rescan));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(rescan));
  }

  /** Reads every agent.json of the workspace (at most 500, outside node_modules); tells listeners only of changes. */
  scan(): Promise<void> {
    this.scanned = true;
    if (this.scanning) {
      // A change during a scan may have been read too early: read once more when this scan ends.
      this.dirty = true;
      return this.scanning;
    }
    this.scanning = (async () => {
      const uris = await vscode.workspace.findFiles(`**/${AGENT_MANIFEST}`, '**/node_modules/**', 500);
      const found = await Promise.all(
        uris.map(async (uri) => {
          try {
            return parseAgentManifest(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
          } catch {
            return undefined;
          }
        }),
      );
      const manifests = found.filter((m): m is AgentManifest => m !== undefined);
      const changed = JSON.stringify(manifests) !== JSON.stringify(this.manifests);
      this.manifests = manifests;
      if (changed) this._onDidChange.fire();
    })().finally(() => {
      this.scanning = undefined;
      if (this.dirty) {
        this.dirty = false;
        void this.scan();
      }
    });
    return this.scanning;
  }

  /** The checked-out branch of an agent for a profile, if a folder of the workspace mirrors it. */
  branchOf(profileId: string | undefined, agentId: string): string | undefined {
    // The first question starts the first read of the workspace (not activation).
    if (!this.scanned) void this.scan();
    return profileId ? checkedOutBranches(this.manifests, profileId).get(agentId) : undefined;
  }
}
