import { isMain } from '../model/agentsSource';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Branch } from '../../contract/agents';
import type { AgentManifest } from '../../workspace/agentManifest';
import { resolveAgent } from '../connection/agentChoice';
import {
  requireClients,
  requireModel,
  runCommand,
  untilAborted,
  UserFacingError,
  withProgress,
} from '../common/commandSupport';
import { prompts } from '../common/prompts';
import type { Connection } from '../connection/connection';
import { AgentNode, BranchNode } from '../explorer/agents/agentNodes';
import { Command } from '../ids';
import type { ProfileModels } from '../model/profileModels';
import { workspaceRuntime } from '../workspaceRuntime';
import { platformMirror } from '../connection/platformMirror';
import { isPlatformError } from '../common/failure';
import { branchPickDescription } from './branchWording';

/** What Check Out acts on: a tree node, or (palette and tests) an agent id with an optional branch id and folder. */
export type CheckOutArg =
  | AgentNode
  | BranchNode
  | { agentId: string; name?: string; branchId?: string; folder?: string; askBranchId?: boolean }
  | undefined;

/** Asked for a branch by id: the list is not read. */
class UnlistedBranches extends Error {}

/** Check Out: writes an agent's branch into a workspace folder as files (agent.json, behavior.md, knowledge/, realtime/). */
export function registerCheckOutCommand(
  connection: Connection,
  models: ProfileModels<object>,
  /** Told of each folder checked out (the index of agent folders reads it at once, not only when the watcher says). */
  checkedOut: (folder: string) => void = () => undefined,
): vscode.Disposable {
  /**
   * The branch to check out: the one given or picked from the list. Where the platform does not list branches,
   * the id given or typed stands for the branch (named as remembered here, else by its id) and is remembered.
   */
  async function pickBranch(
    agent: { agentId: string; name: string },
    given?: string,
    askId = false,
  ): Promise<Pick<Branch, 'branchId' | 'name'> | undefined> {
    let branches: Branch[];
    try {
      if (askId) throw new UnlistedBranches();
      branches = await withProgress(vscode.l10n.t('Loading branches…'), (signal) =>
        untilAborted(requireModel(models).agents.agent(agent.agentId).branches.get(), signal),
      );
    } catch (err) {
      if (!(err instanceof UnlistedBranches) && !(isPlatformError(err) && err.assumption)) throw err;
      return typedBranch(agent, given, err instanceof UnlistedBranches ? undefined : err.assumption?.row);
    }
    if (given) {
      const found = branches.find((b) => b.branchId === given);
      if (!found) throw new UserFacingError(vscode.l10n.t('The agent has no branch {0}.', given));
      return found;
    }
    const ordered = [...branches.filter(isMain), ...branches.filter((b) => !isMain(b))];
    if (ordered.length <= 1) return ordered[0];
    const pick = await prompts.pick(
      ordered.map((b) => ({ label: b.name, description: branchPickDescription(vscode.l10n, b), branch: b })),
      { placeHolder: vscode.l10n.t('Branch to check out'), ignoreFocusOut: true },
    );
    return pick?.branch;
  }

  /** A branch by its id, without reading the platform: given, or typed (the ids remembered here are offered). */
  async function typedBranch(
    agent: { agentId: string; name: string },
    given: string | undefined,
    unlistedRow: string | undefined,
  ): Promise<Pick<Branch, 'branchId' | 'name'> | undefined> {
    const model = requireModel(models).agents.agent(agent.agentId);
    const known = model.keptBranches();
    const id = (
      given ??
      (await prompts.input({
        title: vscode.l10n.t('Check Out a Branch of {0} by Id', agent.name),
        prompt: unlistedRow
          ? vscode.l10n.t(
              'This platform does not list branches ({0}). Enter the branch id from the studio.',
              unlistedRow,
            )
          : vscode.l10n.t('Enter the branch id from the studio.'),
        ...(known.length > 0
          ? { placeHolder: known.map((b) => `${b.branchId} (${b.name})`).join(', '), value: known[0]!.branchId }
          : {}),
        ignoreFocusOut: true,
        validateInput: (v) =>
          v.trim() && !/\s/.test(v.trim()) ? undefined : vscode.l10n.t('Enter a branch id (no spaces).'),
      }))
    )?.trim();
    if (!id) return undefined;
    const branch = { branchId: id, name: known.find((b) => b.branchId === id)?.name ?? id };
    await model.keepBranch(branch);
    return branch;
  }

  /** Where the files go: asked, with a folder named after the agent in the first workspace folder as the default. */
  async function askFolder(agentName: string, given?: string): Promise<string | undefined> {
    if (given) return given;
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (root?.scheme !== 'file')
      throw new UserFacingError(vscode.l10n.t("Open a folder first: the agent's files go into the workspace."));
    const suggested = path.join(root.fsPath, workspaceRuntime().topicSlug(agentName));
    const chosen = await prompts.input({
      title: vscode.l10n.t('Check Out {0}', agentName),
      prompt: vscode.l10n.t("The folder for the agent's files (an empty one, or one that already holds this agent)"),
      value: suggested,
      ignoreFocusOut: true,
      validateInput: (v) => (path.isAbsolute(v.trim()) ? undefined : vscode.l10n.t('Enter a full path.')),
    });
    return chosen?.trim() || undefined;
  }

  async function checkOut(arg: CheckOutArg): Promise<string | undefined> {
    const clients = requireClients(connection);
    const byId = arg instanceof AgentNode || arg instanceof BranchNode ? undefined : arg;
    const agent =
      arg instanceof BranchNode
        ? arg.agentNode.agent
        : await resolveAgent(models, arg instanceof AgentNode ? arg : byId);
    if (!agent) return undefined;
    const branch = arg instanceof BranchNode ? arg.branch : await pickBranch(agent, byId?.branchId, byId?.askBranchId);
    if (!branch) return undefined;
    const folder = await askFolder(agent.name, byId?.folder);
    if (!folder) return undefined;
    const { AgentMirror, NodeFileSystem } = workspaceRuntime();
    const manifest: AgentManifest = {
      agentId: agent.agentId,
      name: agent.name,
      profile: clients.profile.id,
      branch: { branchId: branch.branchId, name: branch.name },
    };
    const mirror = new AgentMirror(
      new NodeFileSystem(folder),
      platformMirror(connection, models, { agentId: agent.agentId, branchId: branch.branchId }),
    );
    const { readable } = await withProgress(
      vscode.l10n.t('Checking out {0} ({1})…', agent.name, branch.name),
      (signal) => mirror.checkout(manifest, signal),
    );
    checkedOut(folder);
    if (!readable) {
      // Nothing could be read: the folder starts empty, and a push overwrites what the files say.
      void prompts.info(
        vscode.l10n.t(
          '{0} ({1}) is checked out into {2}, empty: this platform does not let the branch be read. Write behavior.md, knowledge/<topic>.md or realtime/<config>.json, then push: the push sets the behavior, adds the topics and sets the variables, over what the platform holds.',
          agent.name,
          branch.name,
          folder,
        ),
      );
      return folder;
    }
    const behavior = vscode.Uri.file(path.join(folder, 'behavior.md'));
    void vscode.window.showTextDocument(behavior, { preview: false }).then(undefined, () => undefined);
    void prompts.info(
      vscode.l10n.t('{0} ({1}) is checked out into {2}. Edit the files, then push.', agent.name, branch.name, folder),
    );
    return folder;
  }

  return vscode.commands.registerCommand(Command.checkOut, (arg?: CheckOutArg) => runCommand(() => checkOut(arg)));
}
