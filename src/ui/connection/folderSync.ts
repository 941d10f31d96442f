import * as vscode from 'vscode';
import type { AgentManifest } from '../../workspace/agentManifest';
import type {
  FileConflict,
  OtherPlatformDataError,
  PullReport,
  PushReport,
  UnreadableRemoteError,
} from '../../workspace/mirror';
import type { PushAction } from '../../workspace/pushPlan';
import type { MirrorClient } from '../../workspace/remote';
import type { FileStatus } from '../../workspace/status';
import { requireClients, UserFacingError, withProgress } from '../common/commandSupport';
import { firstSentence } from '../common/failure';
import { prompts } from '../common/prompts';
import type { ProfileModels } from '../model/profileModels';
import { workspaceRuntime } from '../workspaceRuntime';
import type { Connection } from './connection';
import { platformMirror, readAfresh } from './platformMirror';
import { checkedOutWith, profileName } from './profileStore';
import { confirmPushDespiteErrors } from './pushLintCheck';

/** The file mirror of one folder (src/workspace/mirror.ts), as the folder's Source Control makes it. */
export type FolderMirror = InstanceType<ReturnType<typeof workspaceRuntime>['AgentMirror']>;

/**
 * What the sync service needs of one folder's Source Control (src/ui/files/sourceControls.ts): its queue (one
 * operation of a folder at a time), its mirror, and its bookkeeping (the groups, counts and decorations it shows).
 */
export interface SyncedFolder {
  readonly folder: { readonly root: string; readonly uri: vscode.Uri; readonly manifest: AgentManifest };
  serial<T>(fn: () => Promise<T>): Promise<T>;
  mirror(client?: MirrorClient): FolderMirror;
  /** Reads the status again and shows it: the files always, the platform too when a client is given. */
  refresh(client?: MirrorClient, signal?: AbortSignal): Promise<FileStatus[]>;
  pulled(): void;
  pushed(report: PushReport): void;
}

/** The Source Control provider's folders (src/ui/files/sourceControls.ts). */
export interface SyncedFolders {
  forUri(uri: vscode.Uri): Promise<SyncedFolder | undefined>;
}

interface SyncOptions {
  readonly signal?: AbortSignal | undefined;
  /** Shown as a cancellable notification while the operation runs (its cancel aborts it); else `signal` is used. */
  readonly progress?: string;
}

interface PushOptions extends SyncOptions {
  readonly overwrite?: boolean;
  readonly onAction?: (action: PushAction, done: boolean) => void;
}

/**
 * Status, pull and push of agent folders, the same from every door (the Source Control commands, the assistant tools,
 * the Testing view): the folder must be checked out with the profile in use, every operation runs in the folder's
 * Source Control queue after its branch's documents are forgotten (it compares with what the platform holds now),
 * and its Source Control and the model are told what changed. A folder read from other platform data is refused
 * with one offer to keep its files and compare them with this platform.
 */
export class FolderSync {
  constructor(
    private readonly connection: Connection,
    private readonly models: ProfileModels<object>,
    private readonly folders: SyncedFolders,
  ) {}

  /** The Source Control of the checked-out folder holding a path. */
  async folderAt(path: string | vscode.Uri): Promise<SyncedFolder> {
    const uri = typeof path === 'string' ? vscode.Uri.file(path) : path;
    const folder = await this.folders.forUri(uri);
    if (!folder) throw new UserFacingError(vscode.l10n.t('{0} is not in a checked-out agent folder.', uri.fsPath));
    return folder;
  }

  /**
   * The platform as a folder's mirror reaches it, when the profile in use is the one the folder was checked out with:
   * reads through the model (the values every view shows), writes to the platform and then into the model.
   */
  clientFor(f: SyncedFolder): MirrorClient {
    const clients = requireClients(this.connection);
    if (!checkedOutWith(f.folder.manifest.profile, clients.profile))
      throw new UserFacingError(
        vscode.l10n.t(
          '{0} was checked out with connection profile "{1}": switch to it first (Agent Workbench: Switch Connection Profile).',
          f.folder.root,
          profileName(this.connection.profiles, f.folder.manifest.profile),
        ),
      );
    return platformMirror(this.connection, this.models);
  }

  /** Makes the next read of the folder's branch documents ask the platform. */
  readAfresh(f: SyncedFolder): void {
    readAfresh(this.models, f.folder.manifest.agentId, f.folder.manifest.branch.branchId);
  }

  /**
   * The folder's status, shown in its Source Control: the files, and with `remote` the platform's side read afresh
   * (unless `afresh` is false: the caller forgot the documents already), once the folder is known to have been read
   * from the data this platform holds (a status against other data would list all of it as changes).
   */
  async status(f: SyncedFolder, opts: { remote?: boolean; afresh?: boolean; signal?: AbortSignal | undefined } = {}) {
    if (!opts.remote) return f.refresh();
    const client = this.clientFor(f);
    await f.serial(() => f.mirror(client).checkPlatformData(opts.signal));
    if (opts.afresh !== false) this.readAfresh(f);
    return f.refresh(client, opts.signal);
  }

  /** Pulls the platform's changes into the folder. With `waitForOffer`, a folder of other data is answered undefined once the offer is settled. */
  pull(f: SyncedFolder, opts: SyncOptions & { waitForOffer: true }): Promise<PullReport | undefined>;
  pull(f: SyncedFolder, opts?: SyncOptions): Promise<PullReport>;
  async pull(f: SyncedFolder, opts: SyncOptions & { waitForOffer?: boolean } = {}): Promise<PullReport | undefined> {
    const client = this.clientFor(f);
    const report = await f
      .serial(() =>
        this.within(opts, (signal) => {
          this.readAfresh(f);
          return f.mirror(client).pull(signal);
        }),
      )
      .catch((err: unknown) => this.otherData(f, client, err, opts.waitForOffer === true));
    if (!report) return undefined;
    // The base now holds what the model holds (conflicts aside): no remote change is left to show.
    f.pulled();
    await f.refresh().catch(() => undefined);
    return report;
  }

  /**
   * Pushes the folder's edits; then its Source Control shows the status with the platform read again. With
   * `waitForOffer`, a folder of other data is answered undefined once the offer is settled.
   */
  push(f: SyncedFolder, opts: PushOptions & { waitForOffer: true }): Promise<PushReport | undefined>;
  push(f: SyncedFolder, opts?: PushOptions): Promise<PushReport>;
  async push(f: SyncedFolder, opts: PushOptions & { waitForOffer?: boolean } = {}): Promise<PushReport | undefined> {
    const client = this.clientFor(f);
    const report = await f
      .serial(() =>
        this.within(opts, (signal) => {
          this.readAfresh(f);
          return f.mirror(client).push(signal, {
            ...(opts.overwrite ? { overwrite: true } : {}),
            ...(opts.onAction ? { onAction: opts.onAction } : {}),
          });
        }),
      )
      .catch((err: unknown) => this.otherData(f, client, err, opts.waitForOffer === true))
      .finally(() => void f.refresh(client).catch(() => f.refresh().catch(() => undefined)));
    if (report) f.pushed(report);
    return report;
  }

  /**
   * A push from any door. Where the platform does not let the branch be read, a push cannot tell whether anything
   * changed there since the check out: it goes ahead only when the person chooses to overwrite (asked here, the same
   * question from Source Control, the Testing view and a continuous run). Undefined when they did not.
   */
  async pushAsked(
    f: SyncedFolder,
    opts: PushOptions & { waitForOffer?: boolean } = {},
  ): Promise<PushReport | undefined> {
    try {
      return await this.push(f, opts);
    } catch (err) {
      if (!(err instanceof workspaceRuntime().UnreadableRemoteError)) throw err;
      if (!(await confirmOverwrite(f.folder.manifest.name, f.folder.manifest.branch.name, err))) return undefined;
      return this.push(f, { ...opts, overwrite: true });
    }
  }

  /**
   * Before a push, from any door: the folder's checks run, and when errors remain the person chooses to push anyway
   * or not. The errors the push will carry ("file:line rule"; empty when none), or undefined: nothing is to be pushed.
   */
  errorsToCarry(f: SyncedFolder): Promise<string[] | undefined> {
    return confirmPushDespiteErrors(f.folder.uri, f.folder.manifest.name);
  }

  /** What a push the person stopped at the checks' errors says, where a door must answer in words. */
  notPushedForErrors(f: SyncedFolder): string {
    return vscode.l10n.t(
      'Nothing was pushed from {0}: the checks of the folder found errors, and pushing anyway was not chosen. Show Problems lists them.',
      f.folder.manifest.name,
    );
  }

  /** Records a conflict found by a status read, with the platform's side as it is now (as a pull records one). */
  recordConflict(f: SyncedFolder, file: string, opts: SyncOptions = {}): Promise<FileConflict | undefined> {
    const client = this.clientFor(f);
    return f.serial(() =>
      this.within(opts, (signal) => {
        this.readAfresh(f);
        return f.mirror(client).recordConflict(file, signal);
      }),
    );
  }

  private within<T>(opts: SyncOptions, work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    return opts.progress ? withProgress(opts.progress, work) : work(opts.signal);
  }

  /**
   * A pull or push refused because the folder was read from other local platform data (the platform started afresh
   * or was reset since): nothing was pulled or pushed. Offers to keep the files as they are and compare them with the
   * platform reached now, so what they hold that it does not shows under Local Changes, to push. With `wait`, the
   * offer is settled and undefined answered; else the refusal is thrown while the offer stands. Rethrows any other error.
   */
  private async otherData(f: SyncedFolder, client: MirrorClient, err: unknown, wait: boolean): Promise<undefined> {
    if (!(err instanceof workspaceRuntime().OtherPlatformDataError)) throw err;
    const offer = this.offerOtherData(f, client, err);
    if (wait) {
      await offer;
      return undefined;
    }
    void offer.catch(() => undefined);
    throw err;
  }

  private async offerOtherData(f: SyncedFolder, client: MirrorClient, err: OtherPlatformDataError): Promise<void> {
    const { name, branch } = f.folder.manifest;
    const keep = vscode.l10n.t('Keep My Files and Compare');
    const choice = await prompts.warn(
      vscode.l10n.t(
        '{0} {1} keeps every file as it is and compares it with this platform: what your files hold that it does not is then under Local Changes, to push.',
        err.message,
        keep,
      ),
      keep,
    );
    if (choice !== keep) return;
    await f.serial(() =>
      withProgress(vscode.l10n.t('Comparing {0} ({1}) with this platform…', name, branch.name), (signal) =>
        f.mirror(client).adoptPlatformData(signal),
      ),
    );
    const files = await f.refresh(client).catch(() => f.refresh());
    const changed = files.filter((s) => s.local !== 'none').length;
    void prompts.info(
      changed === 0
        ? vscode.l10n.t(
            '{0} ({1}) now compares with this platform, and its files hold what it holds.',
            name,
            branch.name,
          )
        : changed === 1
          ? vscode.l10n.t(
              '{0} ({1}) now compares with this platform: 1 file holds what it does not, under Local Changes. Push to send it.',
              name,
              branch.name,
            )
          : vscode.l10n.t(
              '{0} ({1}) now compares with this platform: {2} files hold what it does not, under Local Changes. Push to send them.',
              name,
              branch.name,
              changed,
            ),
    );
  }
}

/**
 * Where the platform does not let the branch be read, a push cannot tell whether anything changed there since
 * the check out: it goes ahead only when the person chooses to overwrite.
 */
async function confirmOverwrite(agentName: string, branchName: string, err: UnreadableRemoteError): Promise<boolean> {
  const overwrite = vscode.l10n.t('Overwrite');
  const answer = await prompts.ask(
    vscode.l10n.t('Overwrite {0} ({1}) on the platform with your files?', agentName, branchName),
    {
      detail: vscode.l10n.t(
        'This platform does not let the branch be read ({0}), so conflict detection is unavailable here: a change made in the studio since the check out would be overwritten. The push sets the behavior from behavior.md, adds new files in knowledge/ as topics, and sets the variables of realtime/<config>.json.',
        firstSentence(err.cause instanceof Error ? err.cause.message : String(err.cause)),
      ),
      severity: 'warning',
    },
    overwrite,
  );
  return answer === overwrite;
}
