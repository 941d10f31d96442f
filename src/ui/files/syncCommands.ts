import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { PullReport, PushReport } from '../../workspace/mirror';
import type { PushAction } from '../../workspace/pushPlan';
import { runCommand, UserFacingError } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import type { Connection } from '../connection/connection';
import { checkedOutWith, profileName } from '../connection/profileStore';
import { Command } from '../ids';
import { activeMergeResult, closeFileMerge, type FileMergeView, openFileMerge } from './mergeEditor';
import { type MirrorDocuments, mirrorUri } from './mirrorDocuments';
import type { FolderSync } from '../connection/folderSync';
import { confirmRealtimePush } from './realtimeConfigs';
import { carriedErrorsText } from '../connection/pushLintCheck';
import type { AgentSourceControl, ShownStatus, SourceControls } from './sourceControls';
import { tickWhenDone } from '../walkthrough';

/** What the Pull, Push and Refresh commands act on: a folder or file, a source control, a resource, or the current folder. */
export type SyncArg =
  | vscode.Uri
  | { rootUri?: vscode.Uri; resourceUri?: vscode.Uri; folder?: string }
  | readonly vscode.SourceControlResourceState[]
  | undefined;

/** What a pull that found conflicts says: each file once, and a deletion on either side as a deletion. */
function conflictMessage(conflicts: PullReport['conflicts']): string {
  if (conflicts.length > 1)
    return vscode.l10n.t(
      '{0} files changed here and on the platform in ways that cannot be combined: {1}. Your files are kept as they are: settle each under Conflicts in Source Control, then push.',
      conflicts.length,
      conflicts.map((x) => x.path).join(', '),
    );
  const only = conflicts[0]!;
  if (only.remote === undefined)
    return vscode.l10n.t(
      '{0} was deleted on the platform, and you changed it here. Your file is kept as it is: keep it (the next push creates it again) or delete it.',
      only.path,
    );
  if (only.local === undefined)
    return vscode.l10n.t(
      '{0} was changed on the platform, and you deleted it here: take the platform’s version or delete it.',
      only.path,
    );
  return vscode.l10n.t(
    '{0} changed here and on the platform in ways that cannot be combined. Your file is kept as it is: merge it, save, then Complete File Merge.',
    only.path,
  );
}

/**
 * Writes a file through the editor's file service, then waits (a few seconds at most) for its open document to
 * show the new text: the merge editor reads its result from that document.
 */
async function writeForMerge(uri: vscode.Uri, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const deadline = Date.now() + 10_000;
  while (doc && !doc.isClosed && doc.getText() !== text && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
}

/** Waits (a few seconds at most) until the open document of a file holds no conflict markers. */
async function untilMarkersGone(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const deadline = Date.now() + 10_000;
  while (!doc.isClosed && MARKERS.test(doc.getText()) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  return vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
}

/** Lines that git-style conflict markers start. */
const MARKERS = /^(<{7} |={7}$|>{7} )/m;

/** Pull, Push, Refresh Status, and opening and completing a file merge. */
export function registerSyncCommands(
  connection: Connection,
  controls: SourceControls,
  documents: MirrorDocuments,
  sync: FolderSync,
): vscode.Disposable {
  function uriOf(arg: SyncArg): vscode.Uri | undefined {
    if (!arg) return undefined;
    if (arg instanceof vscode.Uri) return arg;
    if (Array.isArray(arg)) return (arg as readonly vscode.SourceControlResourceState[])[0]?.resourceUri;
    const a = arg as { rootUri?: vscode.Uri; resourceUri?: vscode.Uri; folder?: string };
    return a.rootUri ?? a.resourceUri ?? (a.folder ? vscode.Uri.file(a.folder) : undefined);
  }

  /** The agent folder a command acts on: the one given, the active editor's, the only one, or one the person picks. */
  async function target(arg: SyncArg): Promise<AgentSourceControl | undefined> {
    const uri = uriOf(arg);
    if (uri) {
      const c = await controls.forUri(uri);
      if (!c) throw new UserFacingError(vscode.l10n.t('{0} is not in a checked-out agent folder.', uri.fsPath));
      return c;
    }
    await controls.folders.scan();
    const current = controls.current();
    if (current) return current;
    const all = controls.list();
    if (all.length === 0)
      throw new UserFacingError(
        vscode.l10n.t('No agent is checked out in this workspace: check one out first (Agent Workbench: Check Out).'),
      );
    const pick = await prompts.pick(
      all.map((c) => ({ label: c.scm.label, description: c.folder.root, control: c })),
      { placeHolder: vscode.l10n.t('Agent folder') },
    );
    return pick?.control;
  }

  /** The status with the platform's side as the model holds it; the files alone when the platform cannot be read. */
  function refreshWithPlatform(c: AgentSourceControl): Promise<ShownStatus[]> {
    return sync.status(c, { remote: true }).catch(() => c.refresh());
  }

  async function pull(arg: SyncArg): Promise<PullReport | undefined> {
    const c = await target(arg);
    if (!c) return undefined;
    const { name, branch } = c.folder.manifest;
    const report = await sync.pull(c, {
      progress: vscode.l10n.t('Pulling {0} ({1})…', name, branch.name),
      waitForOffer: true,
    });
    if (!report) return undefined;
    if (report.conflicts.length > 0) {
      const first = report.conflicts[0]!;
      const deletion = first.remote === undefined || first.local === undefined;
      const open = deletion ? vscode.l10n.t('Keep or Delete…') : vscode.l10n.t('Open File Merge');
      void prompts.warn(conflictMessage(report.conflicts), open).then((choice) => {
        if (choice === open) void vscode.commands.executeCommand(Command.openFileMerge, c.fileUri(first.path));
      });
    } else {
      void prompts.info(
        report.actions.length === 0
          ? vscode.l10n.t('{0} ({1}) is up to date with the platform.', name, branch.name)
          : report.actions.length === 1
            ? vscode.l10n.t('Pulled 1 change into {0} ({1}).', name, branch.name)
            : vscode.l10n.t('Pulled {0} changes into {1} ({2}).', report.actions.length, name, branch.name),
      );
    }
    return report;
  }

  async function push(arg: SyncArg): Promise<PushReport | undefined> {
    const c = await target(arg);
    if (!c) return undefined;
    // The profile is checked before anything is asked.
    sync.clientFor(c);
    const { name, branch } = c.folder.manifest;
    const files = await c.refresh();
    // Recorded conflicts go to the push too: it refuses them with what to do, or takes them when settled.
    const outgoing = files.filter((f) => f.local !== 'none' || f.state === 'conflict');
    if (outgoing.length === 0) {
      void prompts.info(
        vscode.l10n.t('Nothing to push: the files of {0} ({1}) are as last pulled.', name, branch.name),
      );
      return { sent: [], refused: [] };
    }
    if (!(await confirmPush(name, outgoing))) return undefined;
    const carried = await sync.errorsToCarry(c);
    if (!carried) return undefined;
    // What the platform took so far, and the file being sent: said when a push stops on one file.
    const progress: { done: PushAction[]; at?: PushAction } = { done: [] };
    const onAction = (a: PushAction, done: boolean): void => {
      if (done) progress.done.push(a);
      else progress.at = a;
    };
    const report = await sync
      .pushAsked(c, {
        progress: vscode.l10n.t('Pushing {0} ({1})…', name, branch.name),
        onAction,
        waitForOffer: true,
      })
      .catch((err: unknown) => {
        const at = progress.at;
        if (progress.done.length === 0 || !at || progress.done.includes(at)) throw err;
        return stopped(err, progress.done, at, name, branch.name, c.folder.uri);
      });
    if (!report) return undefined;
    if ('stoppedAt' in report) return report;
    if (report.refused.length > 0) {
      const pullNow = vscode.l10n.t('Pull');
      const remoteChanged = report.refused.some((r) => r.reason === 'remoteChanged');
      void prompts
        .warn(
          vscode.l10n.t('Nothing was pushed. {0}', report.refused.map((r) => r.message).join(' ')),
          ...(remoteChanged ? [pullNow] : []),
        )
        .then((choice) => {
          if (choice === pullNow) void vscode.commands.executeCommand(Command.pull, c.folder.uri);
        });
    } else {
      // A push changes the branch; the chat talks to what sandbox serves: offer the publish that bridges the two.
      const publishAndChat = vscode.l10n.t('Publish to Sandbox and Chat');
      void prompts
        .info(
          (report.sent.length === 1
            ? vscode.l10n.t('Pushed 1 change to {0} ({1}).', name, branch.name)
            : vscode.l10n.t('Pushed {0} changes to {1} ({2}).', report.sent.length, name, branch.name)) +
            (carried.length > 0 ? ` ${carriedErrorsText(carried)}` : '') +
            ' ' +
            vscode.l10n.t('The chat answers from it once it is published to sandbox.'),
          publishAndChat,
        )
        .then((choice) => {
          if (choice === publishAndChat)
            void vscode.commands.executeCommand(Command.publishAndChat, {
              agentId: c.folder.manifest.agentId,
              branchId: branch.branchId,
            });
        });
    }
    return report;
  }

  /**
   * A push that stopped on one file after others went through: what the platform holds now is said first (those
   * writes were done), then the file it stopped on and why. Push Again sends only the rest.
   */
  function stopped(
    err: unknown,
    sent: readonly PushAction[],
    failed: PushAction,
    agentName: string,
    branchName: string,
    folder: vscode.Uri,
  ): PushReport & { stoppedAt: string } {
    const done = sent.map((a) => a.path);
    const again = vscode.l10n.t('Push Again');
    void prompts
      .warn(
        (done.length === 1
          ? vscode.l10n.t('Pushed 1 change to {0} ({1}): {2}.', agentName, branchName, done.join(', '))
          : vscode.l10n.t(
              'Pushed {0} changes to {1} ({2}): {3}.',
              done.length,
              agentName,
              branchName,
              done.join(', '),
            )) +
          ' ' +
          vscode.l10n.t(
            'Then the push stopped at {0}, which was not pushed: {1} Push again to send the rest.',
            failed.path,
            err instanceof Error ? err.message : String(err),
          ),
        again,
      )
      .then((choice) => {
        if (choice === again) void vscode.commands.executeCommand(Command.push, folder);
      });
    return { sent: [...sent], refused: [], stoppedAt: failed.path };
  }

  /** Deleting topics and changing real-time configs are asked about before anything is sent. */
  async function confirmPush(agentName: string, outgoing: ShownStatus[]): Promise<boolean> {
    const deleted = outgoing.filter((f) => f.local === 'deleted' && f.key.startsWith('topic:'));
    if (deleted.length > 0) {
      const ok = vscode.l10n.t('Delete and Push');
      const answer = await prompts.ask(
        deleted.length === 1
          ? vscode.l10n.t('Delete 1 topic from the platform?')
          : vscode.l10n.t('Delete {0} topics from the platform?', deleted.length),
        {
          detail: vscode.l10n.t(
            'These files were deleted: {0}. Pushing deletes their topics from the branch.',
            deleted.map((f) => f.path).join(', '),
          ),
        },
        ok,
      );
      if (answer !== ok) return false;
    }
    return confirmRealtimePush(
      agentName,
      outgoing.map((f) => f.path),
    );
  }

  /**
   * Re-reads the status of every checked-out folder: the files, and the platform where its profile is in use.
   * The platform is read afresh into the model, so the status, its Remote Changes diffs and the Agents view
   * show the same text.
   */
  async function refreshStatus(opts?: { quiet?: boolean }): Promise<Array<{ folder: string; files: ShownStatus[] }>> {
    await controls.folders.scan();
    const profile = connection.clients?.profile;
    const online = controls.list().filter((c) => checkedOutWith(c.folder.manifest.profile, profile));
    // Every folder's documents are forgotten before any is read, so folders of one branch share one read.
    for (const c of online) sync.readAfresh(c);
    let failure: unknown;
    const out = await Promise.all(
      controls.list().map(async (c) => {
        let files: ShownStatus[];
        try {
          files = await (online.includes(c) ? sync.status(c, { remote: true, afresh: false }) : c.refresh());
        } catch (err) {
          failure ??= err;
          files = await c.refresh().catch(() => []);
        }
        return { folder: c.folder.root, files };
      }),
    );
    if (failure) throw failure;
    if (!opts?.quiet)
      sayRefreshed(
        online.length,
        controls.list().filter((c) => !online.includes(c)),
      );
    return out;
  }

  /** Refresh Status always says what it did: the folders it could not compare with the platform, and why. */
  function sayRefreshed(compared: number, offline: readonly AgentSourceControl[]): void {
    if (compared === 0 && offline.length === 0) {
      void prompts.info(
        vscode.l10n.t('No agent is checked out in this workspace: check one out first (Agent Workbench: Check Out).'),
      );
      return;
    }
    if (offline.length === 0) {
      vscode.window.setStatusBarMessage(
        compared === 1
          ? vscode.l10n.t('Status of 1 agent folder read from the platform.')
          : vscode.l10n.t('Status of {0} agent folders read from the platform.', compared),
        5000,
      );
      return;
    }
    const active = connection.profiles.active;
    for (const c of offline)
      void prompts.warn(
        active
          ? vscode.l10n.t(
              'The status of {0} shows its files only: it was checked out with the connection profile "{1}", not "{2}". Switch to "{1}" to compare it with the platform.',
              c.folder.manifest.name,
              profileName(connection.profiles, c.folder.manifest.profile),
              active.name,
            )
          : vscode.l10n.t(
              'The status of {0} shows its files only: no connection profile is in use. Switch to "{1}" to compare it with the platform.',
              c.folder.manifest.name,
              profileName(connection.profiles, c.folder.manifest.profile),
            ),
      );
  }

  /**
   * Opens the file merge of a file in conflict, wherever the conflict was found: the merge editor with base, yours
   * (fixed as the file was when the merge began) and the platform's, the file as its result. A conflict a status
   * read found is recorded first, with the platform's side as it is now, as a pull records one.
   */
  async function openMerge(arg: SyncArg): Promise<FileMergeView | undefined> {
    const uri = uriOf(arg) ?? vscode.window.activeTextEditor?.document.uri;
    const c = uri && (await controls.forUri(uri));
    const rel = c && uri && c.relative(uri);
    if (!c || !rel || !uri) throw new UserFacingError(vscode.l10n.t('Choose a file of a checked-out agent folder.'));
    const files = await c.refresh();
    const f = files.find((s) => s.path === rel);
    if (f?.state !== 'conflict')
      throw new UserFacingError(vscode.l10n.t('{0} has no conflict to merge: pull first to find out.', rel));
    const conflict =
      (await c.mirror().conflictAt(rel)) ??
      (await sync.recordConflict(c, rel, { progress: vscode.l10n.t('Reading {0} on the platform…', rel) }));
    if (!conflict) {
      // The platform's side changed since the status was read, and the two now combine.
      await refreshWithPlatform(c);
      void prompts.info(vscode.l10n.t('{0} is no longer in conflict: Pull combines both changes.', rel));
      return undefined;
    }
    // A behavior is never deleted: only a topic or real-time config file has a deletion to weigh.
    const localMissing = !(await exists(uri));
    if (conflict.key !== 'behavior' && (localMissing || conflict.remote === null))
      return settleDeletion(c, rel, localMissing, conflict.remote ?? '');
    // The merge begins from the file as the person sees it: unsaved edits are saved first.
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty) await open.save();
    const started = await c.serial(() => c.mirror().startMerge(rel));
    // Written through the editor, so the open document and the merge editor's result start from the markers.
    if (started?.marked !== undefined) await writeForMerge(uri, started.marked);
    await c.refresh();
    const local = mirrorUri('local', c.folder.root, rel);
    documents.refresh(local);
    const view = await openFileMerge({
      base: mirrorUri('base', c.folder.root, rel),
      local,
      remote: mirrorUri('remote', c.folder.root, rel),
      output: uri,
      name: rel,
    });
    // The merge editor replaces the markers with its own start (the base in each conflicting region): the file merge
    // is open once it has, so an edit made now is not overwritten by it.
    if (view === 'mergeEditor' && started?.marked !== undefined) await untilMarkersGone(uri);
    return view;
  }

  /** A file deleted on one side and changed on the other: the person keeps the change or the deletion. */
  async function settleDeletion(
    c: AgentSourceControl,
    rel: string,
    localMissing: boolean,
    remoteText: string,
  ): Promise<undefined> {
    const keep = localMissing ? vscode.l10n.t("Take the Platform's Version") : vscode.l10n.t('Keep My Version');
    const remove = vscode.l10n.t('Delete It');
    const answer = await prompts.ask(
      localMissing
        ? vscode.l10n.t('You deleted {0}, and it was changed on the platform.', rel)
        : vscode.l10n.t('You changed {0}, and it was deleted on the platform.', rel),
      { detail: vscode.l10n.t('Keep the file, or delete it; the next push sends your choice.') },
      keep,
      remove,
    );
    if (!answer) return undefined;
    const text =
      answer === remove ? undefined : localMissing ? remoteText : await readFile(c.fileUri(rel).fsPath, 'utf8');
    await c.serial(() => c.mirror().resolve(rel, text));
    c.settled(rel);
    await c.refresh();
    void prompts.info(
      answer === remove
        ? vscode.l10n.t('{0} is deleted: push to delete it on the platform too.', rel)
        : vscode.l10n.t('{0} is kept: push to send it.', rel),
    );
    return undefined;
  }

  /** Takes the saved result of a file merge as the file's new text: the conflict is settled, and the next push sends it. */
  async function completeMerge(arg: SyncArg): Promise<boolean> {
    const uri = uriOf(arg) ?? activeMergeResult() ?? vscode.window.activeTextEditor?.document.uri;
    const c = uri && (await controls.forUri(uri));
    const rel = c && uri && c.relative(uri);
    if (!c || !rel || !uri)
      throw new UserFacingError(vscode.l10n.t('Open the file merge of a file in conflict first.'));
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty) await open.save();
    const text = await readFile(uri.fsPath, 'utf8');
    if (MARKERS.test(text)) {
      const keep = vscode.l10n.t('Keep the Markers');
      const answer = await prompts.ask(
        vscode.l10n.t('{0} still has conflict markers. Keep them in the file?', rel),
        { detail: vscode.l10n.t('The next push sends the file with them. Choose Cancel to go on merging.') },
        keep,
      );
      if (answer !== keep) return false;
    }
    await c.serial(() => c.mirror().resolve(rel, text));
    c.settled(rel);
    await c.refresh();
    // The merge editor's sides now agree with the settled file (yours is the file, the platform's is the base), so
    // VS Code counts no conflict left in it and closes it without asking about unhandled ones.
    await documents.whenRead(c.folder.root, rel);
    await closeFileMerge(uri);
    void prompts.info(vscode.l10n.t('{0} is merged: push to send the result.', rel));
    return true;
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(Command.pull, (arg?: SyncArg) => runCommand(() => pull(arg))),
    vscode.commands.registerCommand(Command.push, (arg?: SyncArg) =>
      runCommand(() => push(arg)).then(tickWhenDone('push')),
    ),
    vscode.commands.registerCommand(Command.refreshStatus, (opts?: { quiet?: boolean }) =>
      runCommand(() => refreshStatus(opts && typeof opts === 'object' ? opts : undefined)),
    ),
    vscode.commands.registerCommand(Command.openFileMerge, (arg?: SyncArg) => runCommand(() => openMerge(arg))),
    vscode.commands.registerCommand(Command.completeFileMerge, (arg?: SyncArg) => runCommand(() => completeMerge(arg))),
  );
}
