import * as vscode from 'vscode';
import type { AgentManifest } from '../../workspace/agentManifest';
import type { PullReport, PushReport } from '../../workspace/mirror';
import type { MirrorClient } from '../../workspace/remote';
import type { FileStatus } from '../../workspace/status';
import { requireClients, requireModel, UserFacingError } from '../common/commandSupport';
import { platformMirror } from '../connection/platformMirror';
import type { Connection } from '../connection/connection';
import { checkedOutWith, profileName } from '../connection/profileStore';
import type { ProfileModels } from '../model/profileModels';

/** The Source Control of one agent folder, as the tools use it (src/ui/files/sourceControls.ts). */
export interface FolderSourceControl {
  readonly folder: { readonly root: string; readonly manifest: AgentManifest };
  serial<T>(fn: () => Promise<T>): Promise<T>;
  mirror(client?: MirrorClient): {
    checkPlatformData(signal?: AbortSignal): Promise<unknown>;
    pull(signal?: AbortSignal): Promise<PullReport>;
    push(signal?: AbortSignal, opts?: { overwrite?: boolean }): Promise<PushReport>;
  };
  refresh(client?: MirrorClient, signal?: AbortSignal): Promise<FileStatus[]>;
  pulled(): void;
  pushed(report: PushReport): void;
}

/** The Source Control provider's folders (src/ui/files/sourceControls.ts). */
export interface FolderSourceControls {
  forUri(uri: vscode.Uri): Promise<FolderSourceControl | undefined>;
}

/**
 * Status, pull and push of one agent folder for the tools, through the folder's Source Control as the Pull and Push
 * commands go: one operation of a folder at a time, the branch's documents read afresh first, and the Source Control
 * view and the model told what changed. What the commands ask the person (deleting topics, real-time configs) the
 * tool's confirmation has asked already.
 */
export class FolderSync {
  constructor(
    private readonly connection: Connection,
    private readonly models: ProfileModels<object>,
    private readonly controls: FolderSourceControls,
  ) {}

  async status(path: string, remote: boolean, signal?: AbortSignal): Promise<FileStatus[]> {
    const control = await this.control(path);
    if (!remote) return control.refresh();
    const client = this.clientFor(control);
    // A folder read from other data is not compared with this platform: its status would list that data as changes.
    await control.mirror(client).checkPlatformData(signal);
    this.readAfresh(control);
    return control.refresh(client, signal);
  }

  async pull(path: string, signal?: AbortSignal): Promise<PullReport> {
    const control = await this.control(path);
    const client = this.clientFor(control);
    const report = await control.serial(() => {
      this.readAfresh(control);
      return control.mirror(client).pull(signal);
    });
    control.pulled();
    await control.refresh().catch(() => undefined);
    return report;
  }

  async push(path: string, signal?: AbortSignal): Promise<PushReport> {
    const control = await this.control(path);
    const client = this.clientFor(control);
    const report = await control
      .serial(() => {
        this.readAfresh(control);
        return control.mirror(client).push(signal);
      })
      .finally(() => void control.refresh(client).catch(() => control.refresh().catch(() => undefined)));
    control.pushed(report);
    return report;
  }

  private async control(path: string): Promise<FolderSourceControl> {
    const control = await this.controls.forUri(vscode.Uri.file(path));
    if (!control) throw new UserFacingError(vscode.l10n.t('{0} is not in a checked-out agent folder.', path));
    return control;
  }

  /** The platform as the folder's mirror reaches it, when the profile in use is the one it was checked out with. */
  private clientFor(control: FolderSourceControl): MirrorClient {
    const clients = requireClients(this.connection);
    if (!checkedOutWith(control.folder.manifest.profile, clients.profile))
      throw new UserFacingError(
        vscode.l10n.t(
          '{0} was checked out with connection profile "{1}": switch to it first (Agent Workbench: Switch Connection Profile).',
          control.folder.root,
          profileName(this.connection.profiles, control.folder.manifest.profile),
        ),
      );
    return platformMirror(this.connection, this.models);
  }

  /** The next read of the folder's branch documents asks the platform: status, pull and push compare with it now. */
  private readAfresh(control: FolderSourceControl): void {
    const { agentId, branch } = control.folder.manifest;
    requireModel(this.models).agents.agent(agentId).invalidateDocuments(branch.branchId);
  }
}
