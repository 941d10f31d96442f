import * as vscode from 'vscode';
import type { AgentFolder, ChatRequest, DeploymentRef, ToolContext, ToolTestModel } from '../../assistantTools/context';
import type { CaseTarget } from '../../agentTests/runner';
import type { TestCase, TestFile } from '../../agentTests/format';
import type { ConcurrencyQueryInput } from '../../contract/concurrency';
import type { ConversationsQueryInput } from '../../contract/conversations';
import type { Problem } from '../../lint/problem';
import type { Redactor } from '../../core/redact';
import type { AgentManifest } from '../../workspace/agentManifest';
import { requireClients, requireModel, UserFacingError, untilAborted } from '../common/commandSupport';
import type { Connection } from '../connection/connection';
import type { FolderSync } from '../connection/folderSync';
import { Command } from '../ids';
import type { ProfileModels } from '../model/profileModels';
import { ChatReach } from './chatReach';
import { readTestFiles } from './testFiles';

/** The editor's index of checked-out agent folders (src/ui/files/agentFolders.ts). */
export interface AgentFolderIndex {
  scan(): Promise<void>;
  list(): ReadonlyArray<{ readonly root: string; readonly uri: vscode.Uri; readonly manifest: AgentManifest }>;
}

/** What Check Agent Folder answers (src/ui/diagnostics/registerDiagnostics.ts). */
interface FolderCheck {
  folder: string;
  problems: Problem[];
}

/** What the editor's tool context is made of: the objects extension.ts builds. */
export interface EditorToolParts {
  readonly connection: Connection;
  readonly models: ProfileModels<object>;
  readonly redactor: Redactor;
  readonly folders: AgentFolderIndex;
  /** Status, pull and push of agent folders, the service the Source Control commands and the Testing view use. */
  readonly sync: FolderSync;
  /**
   * Asked before a promotion, as the Promote command asks it (the agent's conversation tests tagged with the source
   * environment); false stops it.
   */
  readonly beforePromote?: (
    agentId: string,
    agentName: string,
    from: string,
  ) => Promise<{ keep(agentId: string, deploymentId: string): Promise<void> } | undefined>;
  /** The model of the test tool's judged criteria: the Testing view's, its estimate confirmed as a run confirms it. */
  readonly testModel?: (judged: readonly TestCase[]) => Promise<ToolTestModel>;
}

/**
 * The assistant tools' ToolContext in the editor: reads through the model (the values the views show, read afresh
 * so an answer is what the platform holds now), writes through the model as the commands make them (it keeps what a
 * platform that cannot list it needs and tells every view), status, pull and push through the folder sync service (as Source Control does them), the checks through Check Agent Folder, and
 * conversations with the reach of the Testing view.
 */
export class EditorToolContext implements ToolContext {
  private readonly reach: ChatReach;

  constructor(private readonly parts: EditorToolParts) {
    this.reach = new ChatReach(parts.connection, parts.models);
  }

  get connectionName(): string {
    return this.parts.connection.profiles.active?.name ?? vscode.l10n.t('no connection profile');
  }

  redact(text: string): string {
    return this.parts.redactor.redact(text);
  }

  async agentFolders(): Promise<readonly AgentFolder[]> {
    await this.parts.folders.scan();
    const profileId = this.parts.connection.profiles.active?.id;
    const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    return this.parts.folders.list().map((f) => ({
      path: f.root,
      label: vscode.workspace.asRelativePath(f.uri, several),
      manifest: f.manifest,
      sameConnection: f.manifest.profile === profileId,
    }));
  }

  async folderStatus(path: string, remote: boolean, signal?: AbortSignal) {
    const { sync } = this.parts;
    return sync.status(await sync.folderAt(path), { remote, signal });
  }

  async pull(path: string, signal?: AbortSignal) {
    const { sync } = this.parts;
    return sync.pull(await sync.folderAt(path), { signal });
  }

  /** What the tool's confirmation asked is not asked again; errors the checks find are, as Push asks them. */
  async push(path: string, signal?: AbortSignal) {
    const { sync } = this.parts;
    const folder = await sync.folderAt(path);
    if (!(await sync.errorsToCarry(folder))) throw new UserFacingError(sync.notPushedForErrors(folder));
    return sync.push(folder, { signal });
  }

  private get agentsModel() {
    return requireModel(this.parts.models).agents;
  }

  listAgents(signal?: AbortSignal) {
    return untilAborted(this.agentsModel.agents.refresh(), signal ?? new AbortController().signal);
  }

  async agent(agentId: string, signal?: AbortSignal) {
    signal?.throwIfAborted();
    const found = await this.agentsModel.find(agentId);
    if (found) return found;
    // Where one agent cannot be read alone, the list says whether it exists.
    const listed = (await this.agentsModel.agents.get()).find((a) => a.agentId === agentId);
    if (listed) return listed;
    throw new UserFacingError(vscode.l10n.t('The platform has no agent {0}.', agentId));
  }

  branches(agentId: string, signal?: AbortSignal) {
    return this.fresh(this.agentsModel.agent(agentId).branches, signal);
  }

  deployments(agentId: string, signal?: AbortSignal) {
    return this.fresh(this.agentsModel.agent(agentId).deployments, signal);
  }

  numbers(agentId: string, signal?: AbortSignal) {
    return this.fresh(this.agentsModel.agent(agentId).numbers, signal);
  }

  conversations(query: ConversationsQueryInput, signal?: AbortSignal) {
    return requireClients(this.parts.connection).conversations.page(query, signal);
  }

  concurrency(query: ConcurrencyQueryInput, signal?: AbortSignal) {
    return requireClients(this.parts.connection).concurrency.query(query, signal);
  }

  currentAlerts(signal?: AbortSignal) {
    return this.fresh(requireModel(this.parts.models).alerts.currentAlerts, signal);
  }

  chatTargets(): readonly string[] {
    return this.reach.targets();
  }

  chat(request: ChatRequest): Promise<CaseTarget> {
    return this.reach.chat(request);
  }

  testFiles(paths: readonly string[], signal?: AbortSignal): Promise<readonly TestFile[]> {
    return readTestFiles(paths, signal);
  }

  /** The checks of the folder as Check Agent Folder runs them: files on disk and open documents, the Problems panel updated. */
  /** The Testing view's model, as the Testing view's runs take it (src/ui/testing/testModels.ts). */
  testModel(judged: readonly TestCase[]): Promise<ToolTestModel> {
    return this.parts.testModel
      ? this.parts.testModel(judged)
      : Promise.resolve({ run: { none: vscode.l10n.t('no model is set for judged tests in this editor') } });
  }

  async diagnostics(path: string): Promise<readonly Problem[]> {
    const check = await vscode.commands.executeCommand<FolderCheck | undefined>(
      Command.checkAgentFolder,
      vscode.Uri.file(path),
      { quiet: true },
    );
    if (!check)
      throw new UserFacingError(
        vscode.l10n.t('The checks of {0} did not run: the notification and the log say why.', path),
      );
    return check.problems;
  }

  publish(agentId: string, signal?: AbortSignal) {
    return this.agentsModel.agent(agentId).publish('sandbox', '', signal);
  }

  async promote(agentId: string, deployment: DeploymentRef, signal?: AbortSignal) {
    const from = deployment.environment;
    let go: { keep(agentId: string, deploymentId: string): Promise<void> } | undefined;
    if (from !== undefined && this.parts.beforePromote) {
      const { name } = await this.agent(agentId, signal);
      go = await this.parts.beforePromote(agentId, name, from);
      if (!go)
        throw new UserFacingError(
          vscode.l10n.t(
            'Nothing was promoted: it stopped at the conversation tests of {0} tagged {1} (the question was dismissed, or tests failed or regressed and no reason was typed).',
            name,
            from,
          ),
        );
    }
    const result = await this.agentsModel.agent(agentId).promote(deployment, '', signal);
    await go?.keep(agentId, result.deployment.id);
    return result;
  }

  createBranch(agentId: string, name: string, signal?: AbortSignal) {
    return this.agentsModel.agent(agentId).createBranch(name, signal);
  }

  /** A part of the model read afresh (a tool's answer is what the platform holds now), and every view showing it told. */
  private fresh<T>(part: { refresh(): Promise<T> }, signal?: AbortSignal): Promise<T> {
    return untilAborted(part.refresh(), signal ?? new AbortController().signal);
  }
}
