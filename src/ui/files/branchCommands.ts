import * as vscode from 'vscode';
import type { Branch, MergeConflict, MergeResolution, MergeResult } from '../../contract/agents';
import type { AgentFolders } from './agentFolders';
import { resolveAgent } from '../connection/agentChoice';
import { branchNameShapeProblem } from '../model/nameRules';
import { isMain, mainOf } from '../model/agentsSource';
import { requireModel, runCommand, untilAborted, UserFacingError, withProgress } from '../common/commandSupport';
import { isPlatformError } from '../common/failure';
import { prompts } from '../common/prompts';
import type { Connection } from '../connection/connection';
import { BranchNode } from '../explorer/agents/agentNodes';
import { Command } from '../ids';
import type { ProfileModels } from '../model/profileModels';
import { workspaceRuntime } from '../workspaceRuntime';
import { platformMirror, readAfresh } from '../connection/platformMirror';
import { type PickedFolder, FolderPicker, type FolderArg, isBranchRef } from './folderPicker';
import {
  branchPickDescription,
  conflictChoices,
  conflictLabel,
  discardQuestion,
  divergedQuestion,
  mergedMessage,
  resolutionFor,
  unpushedQuestion,
} from './branchWording';
import { BranchMergeSides, isTextConflict } from './branchMergeSides';

/** Commands of the file mirror's source control, registered elsewhere; run only when present. */
const PUSH = 'agentWorkbench.push';
const REFRESH_STATUS = 'agentWorkbench.refreshStatus';

/** Registers Create Branch from a branch, Switch Branch and Merge into Main. */
export function registerBranchCommands(
  connection: Connection,
  models: ProfileModels<object>,
  index: AgentFolders,
): vscode.Disposable {
  const folders = new FolderPicker(connection, index);
  const sides = new BranchMergeSides();

  async function branchesOf(agentId: string): Promise<Branch[]> {
    const model = requireModel(models).agents.agent(agentId).branches;
    model.invalidate();
    return withProgress(vscode.l10n.t('Loading branches…'), (signal) => untilAborted(model.get(), signal));
  }

  /**
   * The agent's branches, or undefined where the platform has no branch list (an endpoint the spec does not show):
   * a merge then goes ahead with the branch it was given, and the platform's answer says what diverged.
   */
  async function branchesIfListed(agentId: string): Promise<Branch[] | undefined> {
    try {
      return await branchesOf(agentId);
    } catch (err) {
      if (isPlatformError(err) && err.assumption) return undefined;
      throw err;
    }
  }

  async function refreshStatus(): Promise<void> {
    if ((await vscode.commands.getCommands(true)).includes(REFRESH_STATUS))
      // Quietly: the switch says what it did.
      await vscode.commands.executeCommand(REFRESH_STATUS, { quiet: true }).then(undefined, () => undefined);
  }

  // ---- switch ----

  /**
   * Points the folder at another branch. While files have edits not pushed, nothing is switched: the
   * person chooses to push them (the file mirror's Push) or to discard them (after a second, modal
   * question), and the switch is tried again; dismissing either question leaves everything as it was.
   */
  async function switchFolder(target: PickedFolder, branch: { branchId: string; name: string }): Promise<boolean> {
    const { AgentMirror, NodeFileSystem, UnpushedEditsError } = workspaceRuntime();
    const { agentId } = target.manifest;
    const mirror = new AgentMirror(new NodeFileSystem(target.folder), platformMirror(connection, models));
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await withProgress(vscode.l10n.t('Switching {0} to {1}…', target.manifest.name, branch.name), (signal) => {
          readAfresh(models, agentId, branch.branchId);
          return mirror.switchBranch(branch, signal);
        });
        await refreshStatus();
        void prompts.info(
          vscode.l10n.t(
            '{0} now holds branch {1} of {2}.',
            vscode.workspace.asRelativePath(target.folder),
            branch.name,
            target.manifest.name,
          ),
        );
        return true;
      } catch (err) {
        if (!(err instanceof UnpushedEditsError)) throw err;
        const paths = err.files.map((f) => f.path);
        const q = unpushedQuestion(vscode.l10n, branch.name, paths);
        const choice = await prompts.ask(q.question, { detail: q.detail, severity: 'warning' }, q.push, q.discard);
        if (choice === q.push) {
          if (!(await vscode.commands.getCommands(true)).includes(PUSH))
            throw new UserFacingError(
              vscode.l10n.t('Push is not available in this editor: discard the edits, or keep them on this branch.'),
            );
          await vscode.commands.executeCommand(PUSH, vscode.Uri.file(target.folder));
        } else if (choice === q.discard) {
          const d = discardQuestion(vscode.l10n, paths);
          if ((await prompts.ask(d.question, { detail: d.detail, severity: 'warning' }, d.go)) !== d.go) return false;
          await mirror.discard(paths);
          await refreshStatus();
        } else return false;
      }
    }
    throw new UserFacingError(
      vscode.l10n.t('Files still have edits not pushed: push them (and settle any conflict), then switch again.'),
    );
  }

  async function switchBranch(arg: FolderArg): Promise<string | undefined> {
    const target = await folders.resolve(arg, vscode.l10n.t('The agent folder to switch'));
    if (!target) return undefined;
    const { agentId } = target.manifest;
    let branch: { branchId: string; name: string } | undefined;
    if (arg instanceof BranchNode) branch = arg.branch;
    else {
      const others = (await branchesOf(agentId)).filter((b) => b.branchId !== target.manifest.branch.branchId);
      if (others.length === 0)
        throw new UserFacingError(vscode.l10n.t('{0} has no other branch: create one first.', target.manifest.name));
      const ordered = [...others.filter(isMain), ...others.filter((b) => !isMain(b))];
      branch = (
        await prompts.pick(
          ordered.map((b) => ({ label: b.name, description: branchPickDescription(vscode.l10n, b), b })),
          { placeHolder: vscode.l10n.t('Switch {0} to the branch', target.manifest.name) },
        )
      )?.b;
    }
    if (!branch) return undefined;
    if (branch.branchId === target.manifest.branch.branchId) {
      void prompts.info(vscode.l10n.t('The folder already holds branch {0}.', branch.name));
      return branch.branchId;
    }
    return (await switchFolder(target, branch)) ? branch.branchId : undefined;
  }

  // ---- create ----

  async function createBranchFrom(arg: FolderArg): Promise<string | undefined> {
    let agent: { agentId: string; name: string };
    let from: { branchId: string; name: string };
    let target: PickedFolder | undefined;
    if (arg instanceof BranchNode) {
      agent = arg.agentNode.agent;
      from = arg.branch;
      target = (await folders.inWorkspace(agent.agentId)).find((f) => f.manifest.branch.branchId === from.branchId);
    } else {
      target = await folders.resolve(arg, vscode.l10n.t('The agent folder whose branch the new one starts from'));
      if (!target) return undefined;
      agent = { agentId: target.manifest.agentId, name: target.manifest.name };
      from = target.manifest.branch;
    }
    const branches = await branchesOf(agent.agentId);
    const taken = new Set(branches.map((b) => b.name));
    const check = (v: string): string | undefined => {
      const t = v.trim();
      const shape = branchNameShapeProblem(vscode.l10n, t);
      if (shape) return shape;
      if (taken.has(t)) return vscode.l10n.t('{0} already has a branch named {1}.', agent.name, t);
      return undefined;
    };
    const name = (
      await prompts.input({
        title: vscode.l10n.t('Create Branch from {0} of {1}', from.name, agent.name),
        prompt: vscode.l10n.t(
          'The new branch starts as {0} is on the platform now (edits not pushed stay in the folder)',
          from.name,
        ),
        validateInput: check,
        ignoreFocusOut: true,
      })
    )?.trim();
    if (!name) return undefined;
    const fromMain = isMain(branches.find((b) => b.branchId === from.branchId) ?? from);
    const agentModel = requireModel(models).agents.agent(agent.agentId);
    const created = await withProgress(vscode.l10n.t('Creating branch {0}…', name), async (signal) => {
      const made = await agentModel.createBranch(name, signal);
      const { branchId } = made;
      if (!branchId)
        throw new UserFacingError(
          vscode.l10n.t(
            'Branch {0} was created from main, but the platform did not say its id: find it in the studio to check the branch out.',
            name,
          ),
        );
      if (!fromMain) await agentModel.copyBranch(from.branchId, branchId, signal);
      return { branchId, name };
    });
    const message = vscode.l10n.t('Branch {0} of {1} created from {2}.', name, agent.name, from.name);
    const switchTo = vscode.l10n.t('Switch Folder to {0}', name);
    if (target) {
      const folder = target;
      void prompts.info(message, switchTo).then((choice) => {
        if (choice === switchTo) void runCommand(() => switchFolder(folder, created));
      });
    } else void prompts.info(message);
    return created.branchId;
  }

  // ---- branch merge ----

  /** Main's topic names by id, to name the topics of conflicts that carry only a field. */
  async function topicNames(agentId: string, mainId: string | undefined): Promise<Map<string, string>> {
    if (!mainId) return new Map();
    try {
      const topics = await requireModel(models).agents.agent(agentId).topics.get(mainId).refresh();
      return new Map(topics.map((t) => [t.topicId, t.name]));
    } catch {
      return new Map();
    }
  }

  /** Walks the person through each diverged item; undefined when they stop (nothing is merged then). */
  async function chooseResolutions(
    conflicts: readonly MergeConflict[],
    branchName: string,
    names: ReadonlyMap<string, string>,
  ): Promise<MergeResolution[] | undefined> {
    const q = divergedQuestion(vscode.l10n, branchName, conflicts, names);
    if ((await prompts.ask(q.question, { detail: q.detail, severity: 'warning' }, q.go)) !== q.go) return undefined;
    const resolutions: MergeResolution[] = [];
    for (const [i, conflict] of conflicts.entries()) {
      const label = conflictLabel(vscode.l10n, conflict, names);
      const text = isTextConflict(conflict);
      let resolution: MergeResolution | undefined;
      while (!resolution) {
        const choice = (
          await prompts.pick(conflictChoices(vscode.l10n, conflict, branchName, text), {
            title: vscode.l10n.t('Merge {0} into main ({1}/{2})', branchName, i + 1, conflicts.length),
            placeHolder: vscode.l10n.t('{0}: which version does main keep?', label),
            ignoreFocusOut: true,
          })
        )?.choice;
        if (!choice) return undefined;
        if (choice === 'compare') await sides.compare(conflict, label, branchName);
        else if (choice === 'mergeEditor') {
          // Closing the merge editor without using its result asks about the item again.
          const value = await sides.merge(conflict, label, branchName);
          if (value !== undefined) resolution = { path: conflict.path, strategy: 'theirs', value };
        } else resolution = resolutionFor(conflict, choice);
      }
      resolutions.push(resolution);
    }
    return resolutions;
  }

  async function mergeBranch(arg: FolderArg): Promise<MergeResult | undefined> {
    let agent: { agentId: string; name: string };
    let branch: { branchId: string; name: string } | undefined;
    let target: PickedFolder | undefined;
    if (arg instanceof BranchNode) {
      agent = arg.agentNode.agent;
      branch = arg.branch;
      target = (await folders.inWorkspace(agent.agentId)).find((f) => f.manifest.branch.branchId === branch!.branchId);
    } else if (isBranchRef(arg)) {
      const listed = await branchesIfListed(arg.agentId);
      const named = listed
        ? listed.find((b) => b.branchId === arg.branchId)
        : { branchId: arg.branchId, name: arg.branchId };
      if (!named) throw new UserFacingError(vscode.l10n.t('The agent has no branch {0}.', arg.branchId));
      agent = (await resolveAgent(models, { agentId: arg.agentId })) ?? { agentId: arg.agentId, name: arg.agentId };
      branch = named;
      target = (await folders.inWorkspace(agent.agentId)).find((f) => f.manifest.branch.branchId === named.branchId);
    } else {
      target = await folders.resolve(arg, vscode.l10n.t('The agent folder whose branch to merge into main'));
      if (!target) return undefined;
      agent = { agentId: target.manifest.agentId, name: target.manifest.name };
      branch = target.manifest.branch;
    }
    const listed = await branchesIfListed(agent.agentId);
    const branches = listed ?? [];
    const main = mainOf(branches);
    if (isMain(branches.find((b) => b.branchId === branch!.branchId) ?? branch)) {
      // The folder holds main: the branch to merge is asked.
      const others = branches.filter((b) => !isMain(b));
      if (arg instanceof BranchNode || others.length === 0)
        throw new UserFacingError(
          vscode.l10n.t('Main cannot be merged into itself: pick a branch to merge into main.'),
        );
      branch = (
        await prompts.pick(
          others.map((b) => ({ label: b.name, description: branchPickDescription(vscode.l10n, b), b })),
          { placeHolder: vscode.l10n.t('The branch of {0} to merge into main', agent.name) },
        )
      )?.b;
      if (!branch) return undefined;
      target = undefined;
    }
    const branchName = branch.name;
    if (target) {
      const { AgentMirror, NodeFileSystem } = workspaceRuntime();
      const unpushed = (
        await new AgentMirror(
          new NodeFileSystem(target.folder),
          platformMirror(connection, models, { agentId: agent.agentId, branchId: target.manifest.branch.branchId }),
        ).status()
      ).filter((f) => f.state !== 'unchanged');
      if (unpushed.length > 0) {
        const go = vscode.l10n.t('Merge Without Them');
        const answer = await prompts.ask(
          vscode.l10n.t(
            '{0} file(s) of {1} have edits not pushed: the branch merge takes only what the platform holds.',
            unpushed.length,
            branchName,
          ),
          { detail: unpushed.map((f) => f.path).join('\n'), severity: 'warning' },
          go,
        );
        if (answer !== go) return undefined;
      }
    }
    const go = vscode.l10n.t('Merge');
    const answer = await prompts.ask(
      vscode.l10n.t('Merge branch {0} into main of {1}?', branchName, agent.name),
      {
        detail: vscode.l10n.t(
          'Main takes the changes made on {0} to behavior and topics. Main is what gets published; real-time configs are not part of branches.',
          branchName,
        ),
        severity: 'info',
      },
      go,
    );
    if (answer !== go) return undefined;
    const { agentId } = agent;
    const agentModel = requireModel(models).agents.agent(agentId);
    const branchId = branch.branchId;
    const mergeOnce = (resolutions: MergeResolution[]) =>
      withProgress(vscode.l10n.t('Merging {0} into main…', branchName), (signal) =>
        agentModel.merge(branchId, { resolutions, branchName }, signal),
      );
    let resolutions: MergeResolution[] = [];
    let outcome = await mergeOnce(resolutions);
    // A 409 lists what diverged; the person settles each, and the merge is sent again with the choices.
    // Should main move again meanwhile, the platform answers 409 anew and the new items are asked.
    for (let round = 0; !outcome.merged && round < 3; round++) {
      const names = await topicNames(agentId, main?.branchId);
      const chosen = await chooseResolutions(outcome.conflicts, branchName, names);
      if (!chosen) {
        void prompts.info(vscode.l10n.t('Branch merge of {0} stopped: nothing was merged.', branchName));
        return undefined;
      }
      resolutions = chosen;
      outcome = await mergeOnce(resolutions);
    }
    // The model forgot what the merge changed: the branches, and main's behavior and topics.
    if (!outcome.merged) throw outcome.error;
    // The compare tabs and merge editors of the walk have done their work.
    await sides.closeAll();
    // Where the platform does not let branches be read (endpoints the spec does not show), reading the folders'
    // status from it again fails too: that read is not made, so the merge done is not followed by its error.
    if (listed) await refreshStatus();
    void prompts.info(mergedMessage(vscode.l10n, branchName, outcome.result.changes?.length, resolutions.length));
    return outcome.result;
  }

  return vscode.Disposable.from(
    sides,
    vscode.commands.registerCommand(Command.switchBranch, (arg?: FolderArg) => runCommand(() => switchBranch(arg))),
    vscode.commands.registerCommand(Command.mergeBranch, (arg?: FolderArg) => runCommand(() => mergeBranch(arg))),
    vscode.commands.registerCommand(Command.createBranchFrom, (arg?: FolderArg) =>
      runCommand(() => createBranchFrom(arg)),
    ),
  );
}
