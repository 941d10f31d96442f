import * as vscode from 'vscode';
import type { Agent, CreatedBranch } from '../../contract/agents';
import { platformContract } from '../model/platformClients';
import { AgentNode, BranchNode, TopicNode } from '../explorer/agents/agentNodes';
import type { AgentsTree } from '../explorer/agents/agentsTree';
import { DeploymentNode } from '../explorer/agents/deploymentNodes';
import { ConnectorNode, NumberNode, RealtimeConfigNode } from '../explorer/agents/telephonyNodes';
import type { TreeNode } from '../explorer/treeNode';
import { firstSentence } from '../common/failure';
import { requireModel, runCommand, untilAborted, UserFacingError, withProgress } from '../common/commandSupport';
import type { ProfileModels } from '../model/profileModels';
import { type AgentArg, resolveAgent } from '../connection/agentChoice';
import { branchNameShapeProblem } from '../model/nameRules';
import { Command } from '../ids';
import { prompts } from '../common/prompts';

/** Create agent, create branch, copy id, refresh and filter. */
export function registerAgentCommands(models: ProfileModels<object>, tree: AgentsTree): vscode.Disposable {
  /** Adds an agent by its id, for platforms that do not list agents; the Agents view then shows it. */
  async function addAgentById(given?: string): Promise<string | undefined> {
    const model = requireModel(models).agents;
    const id = (
      given ??
      (await prompts.input({
        title: vscode.l10n.t('Add Agent by Id'),
        prompt: vscode.l10n.t('The agent id, as the studio shows it'),
        ignoreFocusOut: true,
        validateInput: (v) =>
          v.trim() && !/\s/.test(v.trim()) ? undefined : vscode.l10n.t('Enter an agent id (no spaces).'),
      }))
    )?.trim();
    if (!id) return undefined;
    if (/\s/.test(id)) throw new UserFacingError(vscode.l10n.t('An agent id has no spaces.'));
    // The platform is asked first: an id that names no agent is said so, and not added.
    const check = await withProgress(vscode.l10n.t('Looking for agent {0}…', id), (signal) =>
      model.addAgentById(id, signal),
    );
    if (check.kind === 'missing')
      throw new UserFacingError(
        vscode.l10n.t(
          "No agent has the id {0} on this platform: check it in the studio (it is part of the agent's address). Nothing was added.",
          id,
        ),
      );
    const found = check.kind === 'found' ? check.agent : undefined;
    void prompts.info(
      found
        ? vscode.l10n.t('Agent "{0}" ({1}) added to the Agents view.', found.name, id)
        : check.kind === 'unverified'
          ? vscode.l10n.t(
              'Agent {0} added to the Agents view, marked not verified: this platform could not confirm that the id exists ({1}).',
              id,
              firstSentence(check.reason),
            )
          : vscode.l10n.t(
              'Agent {0} added to the Agents view: its phone numbers could be read, so the id exists (this platform does not show agent names).',
              id,
            ),
    );
    return id;
  }

  /** The agents of the profile as listed, for names as typed; none where the platform does not list them. */
  async function knownAgents(): Promise<Agent[]> {
    const model = requireModel(models).agents;
    try {
      return (
        model.agents.peek() ??
        (await withProgress(vscode.l10n.t('Loading agents…'), (signal) => untilAborted(model.agents.get(), signal)))
      );
    } catch {
      return [];
    }
  }

  /** The branch names of an agent, for names as typed; none when they cannot be read (the platform then judges). */
  async function knownBranches(agentId: string): Promise<string[]> {
    const branches = requireModel(models).agents.agent(agentId).branches;
    try {
      const list =
        branches.peek() ??
        (await withProgress(vscode.l10n.t('Loading branches…'), (signal) => untilAborted(branches.get(), signal)));
      return list.map((b) => b.name);
    } catch {
      return [];
    }
  }

  async function createAgent(args?: { name?: string; description?: string }): Promise<Agent | undefined> {
    const { AGENT_NAME_MIN, AGENT_NAME_MAX } = platformContract().agentsContract;
    const others = await knownAgents();
    const checkName = (v: string): string | undefined => {
      const n = v.trim().length;
      if (n < AGENT_NAME_MIN || n > AGENT_NAME_MAX)
        return vscode.l10n.t('An agent name has {0} to {1} characters (now {2}).', AGENT_NAME_MIN, AGENT_NAME_MAX, n);
      const same = sameName(others, v);
      return same
        ? vscode.l10n.t(
            'An agent is named "{0}" already ({1}). Choose another name: deploying to live asks for the name, which must pick out one agent.',
            same.name,
            same.agentId,
          )
        : undefined;
    };
    const name =
      args?.name ??
      (await prompts.input({
        title: vscode.l10n.t('Create Agent (1/2)'),
        prompt: vscode.l10n.t('Name of the new agent'),
        validateInput: checkName,
        ignoreFocusOut: true,
      }));
    if (name === undefined) return undefined;
    const problem = checkName(name);
    if (problem) throw new UserFacingError(problem);
    const description =
      args?.description ??
      (await prompts.input({
        title: vscode.l10n.t('Create Agent (2/2)'),
        prompt: vscode.l10n.t('What does {0} do? (optional)', name.trim()),
        ignoreFocusOut: true,
      }));
    if (description === undefined) return undefined;
    // The model keeps the agent and its main, so they stay in the view where the platform does not list agents.
    const model = requireModel(models).agents;
    const created = await withProgress(vscode.l10n.t('Creating agent {0}…', name.trim()), (signal) =>
      model.createAgent({ name: name.trim(), description }, signal),
    );
    await tree.reveal(created.agentId);
    void prompts.info(vscode.l10n.t('Agent "{0}" created ({1}) with its main branch.', created.name, created.agentId));
    return created;
  }

  async function createBranch(arg?: AgentArg, givenName?: string): Promise<CreatedBranch | undefined> {
    const agent = await resolveAgent(models, arg);
    if (!agent) return undefined;
    const existing = await knownBranches(agent.agentId);
    const check = (v: string): string | undefined => {
      const t = v.trim();
      const shape = branchNameShapeProblem(vscode.l10n, t);
      if (shape) return shape;
      if (t === 'main')
        return vscode.l10n.t('"main" is the branch every agent has already: name the new branch for its change.');
      if (existing.includes(t))
        return vscode.l10n.t('{0} has a branch named "{1}" already: choose another name.', agent.name, t);
      return undefined;
    };
    const name =
      givenName ??
      (await prompts.input({
        title: vscode.l10n.t('Create Branch of {0}', agent.name),
        prompt: vscode.l10n.t('The branch starts from main as it is now'),
        validateInput: check,
        ignoreFocusOut: true,
      }));
    if (name === undefined) return undefined;
    const problem = check(name);
    if (problem) throw new UserFacingError(problem);
    // Its id, where the platform says it, is kept: the branch can be checked out where branches are not listed.
    const model = requireModel(models).agents.agent(agent.agentId);
    const branch = await withProgress(vscode.l10n.t('Creating branch {0}…', name.trim()), (signal) =>
      model.createBranch(name.trim(), signal),
    );
    void prompts.info(
      branch.branchId
        ? vscode.l10n.t('Branch "{0}" of {1} created from main.', branch.name, agent.name)
        : vscode.l10n.t(
            'Branch "{0}" of {1} created from main. The platform did not say its id: find it in the studio to check the branch out.',
            branch.name,
            agent.name,
          ),
    );
    return branch;
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(Command.addAgentById, (id?: string) => runCommand(() => addAgentById(id))),
    vscode.commands.registerCommand(Command.createAgent, (args?: { name?: string; description?: string }) =>
      runCommand(() => createAgent(args)),
    ),
    vscode.commands.registerCommand(Command.createBranch, (arg?: AgentArg, name?: string) =>
      runCommand(() => createBranch(arg, name)),
    ),
    vscode.commands.registerCommand(Command.refreshAgents, () => tree.refresh()),
    vscode.commands.registerCommand(Command.refreshNode, (node?: TreeNode) =>
      node ? tree.refreshNode(node) : tree.refresh(),
    ),
    vscode.commands.registerCommand(Command.filterAgents, async (text?: string) => {
      const value =
        text ??
        (await prompts.input({
          title: vscode.l10n.t('Filter Agents'),
          prompt: vscode.l10n.t('Part of an agent name or id; empty shows all'),
          value: tree.filter,
        }));
      if (value !== undefined) tree.setFilter(value);
    }),
    vscode.commands.registerCommand(Command.clearAgentFilter, () => tree.setFilter('')),
    vscode.commands.registerCommand(Command.copyId, async (node?: TreeNode) => {
      const id = idOf(node);
      if (!id) return undefined;
      await vscode.env.clipboard.writeText(id);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', id), 3000);
      return id;
    }),
  );
}

/** The agent already named `name`, ignoring case and surrounding spaces. */
export function sameName<A extends { name: string }>(agents: readonly A[], name: string): A | undefined {
  const wanted = name.trim().toLocaleLowerCase();
  return agents.find((a) => a.name.trim().toLocaleLowerCase() === wanted);
}

/** The platform id a node stands for. */
export function idOf(node: TreeNode | undefined): string | undefined {
  if (node instanceof AgentNode) return node.agent.agentId;
  if (node instanceof BranchNode) return node.branch.branchId;
  if (node instanceof TopicNode) return node.topic.topicId;
  if (node instanceof DeploymentNode) return node.deployment.id;
  if (node instanceof NumberNode) return node.phoneNumber.number;
  if (node instanceof ConnectorNode) return node.connectorId;
  if (node instanceof RealtimeConfigNode) return node.config.name;
  const withId = node as { rule?: { id: string }; endpoint?: { id: string } } | undefined;
  return withId?.rule?.id ?? withId?.endpoint?.id;
}
