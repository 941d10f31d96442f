import * as vscode from 'vscode';
import { Disposable, MutableDisposable } from '../../../core/disposable';
import { Emitter } from '../../../core/event';
import { NodeTreeProvider } from '../treeProvider';
import { ErrorNode, type TreeNode } from '../treeNode';
import { AgentNode, BranchNode, type CheckedOutBranch, KnowledgeNode } from './agentNodes';
import { DeploymentsNode } from './deploymentNodes';
import { NumbersNode, RealtimeConfigsNode } from './telephonyNodes';
import type { AgentsChange, AgentsModel, ShownAgent } from '../../model/agentsModel';
import { ContextKey, View } from '../../ids';
import { type ViewProblem, viewProblemOf } from '../viewProblem';
import { isAssumptionFailure } from '../../common/failure';

export const AGENTS_VIEW = View.agents;

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Why the Agents view is empty: drives its welcome content. */
export type AgentsViewState = 'noProfile' | 'empty' | 'error' | 'ready' | 'noMatch' | 'notListed';

/** What the Agents view shows instead of agents, and why (for tests; the welcome content reads the same). */
export interface ViewShown {
  state: AgentsViewState;
  problem?: ViewProblem;
  message?: string;
  /** The ids of the nodes selected in the view. */
  selected?: string[];
}

/**
 * The Agents view: every agent of the workspace, filterable by name. A failure or an empty result shows
 * the welcome content of its state, with its buttons (Set Credential, Retry, Test Connection, Show Log,
 * Clear Filter); the view's message stays unset then, since VS Code hides the welcome while one is set.
 * Nothing blocks the editor while loading.
 */
export class AgentsTree extends Disposable {
  readonly provider: NodeTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  private filterText = '';
  /** False while the platform does not list agents and the view shows those added by id. */
  private listed = true;
  private nodes = new Map<string, AgentNode>();
  /** The model the view shows, and the subscription to its changes. */
  private shown: AgentsModel | undefined;
  private readonly watching = this.register(new MutableDisposable());
  private readonly _onDidFail = this.register(new Emitter<string>());
  /** The reason the agents could not be loaded, in full (the welcome content names only its kind). */
  readonly onDidFail = this._onDidFail.event;
  private current: ViewShown = { state: 'noProfile' };

  constructor(
    private readonly model: () => AgentsModel | undefined,
    private readonly checkedOut: CheckedOutBranch,
    /** What else a full refresh reloads (which branches are checked out, open read-only documents). */
    private readonly onRefresh: () => void = () => undefined,
  ) {
    super();
    this.provider = this.register(
      new NodeTreeProvider(
        () => this.roots(),
        (item) => this.reopened(item),
      ),
    );
    this.view = this.register(
      vscode.window.createTreeView(AGENTS_VIEW, { treeDataProvider: this.provider, showCollapseAll: true }),
    );
    this.register(this.view.onDidExpandElement((e) => this.expandedNow()?.add(e.element.id)));
    this.register(this.view.onDidCollapseElement((e) => this.expandedNow()?.delete(e.element.id)));
  }

  /**
   * What the person had open, per connection profile (its model): items come back open after a refresh or a
   * profile switch and back, where the same agents and branches are there.
   */
  private readonly expanded = new WeakMap<AgentsModel, Set<string>>();

  private expandedNow(): Set<string> | undefined {
    const model = this.model();
    if (!model) return undefined;
    let ids = this.expanded.get(model);
    if (!ids) this.expanded.set(model, (ids = new Set()));
    return ids;
  }

  private reopened(item: vscode.TreeItem): vscode.TreeItem {
    if (
      item.id &&
      item.collapsibleState === vscode.TreeItemCollapsibleState.Collapsed &&
      this.expandedNow()?.has(item.id)
    )
      item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
    return item;
  }

  get filter(): string {
    return this.filterText;
  }

  setFilter(text: string): void {
    this.filterText = text.trim();
    void vscode.commands.executeCommand('setContext', ContextKey.agentsFiltered, this.filterText !== '');
    this.provider.refresh();
  }

  /** Reloads everything from the platform. */
  refresh(): void {
    this.onRefresh();
    this.listed = true;
    this.nodes.clear();
    const model = this.model();
    if (model) model.invalidate();
    this.provider.refresh();
  }

  /** Reloads the children of the agents already shown (which branch is checked out changed). */
  refreshBranches(): void {
    for (const node of this.nodes.values()) if (node.children) this.provider.refresh(node);
  }

  /** Reloads what one node shows: the part of the model it reads is read again, and every reader hears. */
  refreshNode(node: TreeNode): void {
    const target = node instanceof ErrorNode && node.parent ? node.parent : node;
    if (!invalidatePartOf(target)) this.provider.refresh(node);
  }

  /**
   * Shows an agent selected in the view (a created one, say), once the list holds it; resolves whether it
   * could. A filter that hides the agent leaves it hidden.
   */
  async reveal(agentId: string): Promise<boolean> {
    await this.roots();
    const node = this.nodes.get(agentId);
    if (!node) return false;
    try {
      await this.view.reveal(node, { select: true, focus: false, expand: false });
      return true;
    } catch {
      return false;
    }
  }

  /** The node of an agent, once the root was loaded. */
  agentNode(agentId: string): AgentNode | undefined {
    return this.nodes.get(agentId);
  }

  /** Follows the model of the active profile: a change to a part refreshes the nodes that show it. */
  private watch(model: AgentsModel): void {
    if (this.shown === model) return;
    this.shown = model;
    this.nodes.clear();
    this.watching.value = model.onDidChange((change) => {
      if (change.part === 'agents') {
        this.nodes.clear();
        this.provider.refresh();
        return;
      }
      const agentNode = this.nodes.get(change.agentId);
      if (!agentNode?.children) return;
      const shown = change.part === 'branches' ? agentNode : nodeShowing(agentNode, change);
      if (shown) this.provider.refresh(shown);
    });
  }

  private async roots(): Promise<TreeNode[]> {
    const model = this.model();
    if (!model) {
      this.setState('noProfile');
      return [];
    }
    this.watch(model);
    // Listed, or where the platform does not list agents (the manual path), the agents created or added by id here.
    const known = await model.knownAgents.get();
    this.listed = known.listed;
    if (known.listed) return this.show(model, known.items);
    const err = known.failure;
    if (isAssumptionFailure(err)) {
      if (known.items.length === 0) {
        this._onDidFail.fire(err.message);
        this.setState('notListed');
        return [];
      }
      return this.show(model, known.items);
    }
    this._onDidFail.fire(
      vscode.l10n.t('The agents could not be loaded: {0}', err instanceof Error ? err.message : String(err)),
    );
    this.setState('error', viewProblemOf(err));
    return [];
  }

  private show(model: AgentsModel, agents: readonly ShownAgent[]): TreeNode[] {
    if (agents.length === 0) {
      this.setState('empty');
      return [];
    }
    const needle = this.filterText.toLowerCase();
    const shown = needle
      ? agents.filter((a) => a.name.toLowerCase().includes(needle) || a.agentId.toLowerCase().includes(needle))
      : agents;
    this.view.description = needle ? vscode.l10n.t('filtered') : undefined;
    if (shown.length === 0) {
      // The welcome content says no agent matches and offers Clear Filter; a message would hide it.
      this.setState('noMatch');
      return [];
    }
    this.setState(
      'ready',
      undefined,
      needle
        ? agents.length === 1
          ? vscode.l10n.t(
              'Showing {0} of 1 agent: those whose name or id contains "{1}"',
              shown.length,
              this.filterText,
            )
          : vscode.l10n.t(
              'Showing {0} of {1} agents: those whose name or id contains "{2}"',
              shown.length,
              agents.length,
              this.filterText,
            )
        : this.listed
          ? undefined
          : vscode.l10n.t('This platform does not list agents: showing the agents created or added by id here.'),
    );
    return [...shown]
      .sort((a, b) => byName.compare(a.name, b.name))
      .map((a) => {
        let node = this.nodes.get(a.agentId);
        if (!node || node.agent !== a) {
          node = new AgentNode(a, () => model.agent(a.agentId), this.checkedOut);
          this.nodes.set(a.agentId, node);
        }
        return node;
      });
  }

  /** What the view shows instead of agents, and why. */
  get shownState(): ViewShown {
    // The message as VS Code has it: while one is set, the welcome content and its buttons are hidden.
    return { ...this.current, message: this.view.message, selected: this.view.selection.map((n) => n.id) };
  }

  /** Sets the state the welcome content follows; a message only where agents are shown (it would hide the welcome). */
  private setState(state: AgentsViewState, problem?: ViewProblem, message?: string): void {
    this.current = { state, problem, message };
    this.view.message = message;
    void vscode.commands.executeCommand('setContext', ContextKey.agentsState, state);
    void vscode.commands.executeCommand('setContext', ContextKey.agentsProblem, problem ?? '');
  }
}

/** The group node under an agent that shows a changed part, when it is loaded. */
function nodeShowing(
  agentNode: AgentNode,
  change: Exclude<AgentsChange, { part: 'agents' | 'branches' }>,
): TreeNode | undefined {
  const children = agentNode.children ?? [];
  switch (change.part) {
    case 'deployments':
      return children.find((c) => c instanceof DeploymentsNode);
    case 'numbers':
      return children.find((c) => c instanceof NumbersNode);
    case 'realtimeConfigs':
      return children.find((c) => c instanceof RealtimeConfigsNode);
    case 'topics': {
      const branch = children.find(
        (c): c is BranchNode => c instanceof BranchNode && c.branch.branchId === change.branchId,
      );
      return branch?.children?.find((c) => c instanceof KnowledgeNode);
    }
    default:
      return undefined;
  }
}

/** Invalidates the part of the model a node shows; false for nodes that read no part of it. */
function invalidatePartOf(node: TreeNode): boolean {
  if (node instanceof AgentNode) node.model.invalidate();
  else if (node instanceof BranchNode || node instanceof KnowledgeNode) {
    const branch = node instanceof BranchNode ? node : node.branchNode;
    branch.agentNode.model.topics.invalidate(branch.branch.branchId);
    if (node instanceof BranchNode) branch.agentNode.model.behavior.invalidate(branch.branch.branchId);
  } else if (node instanceof DeploymentsNode) node.agentNode.model.deployments.invalidate();
  else if (node instanceof NumbersNode) node.agentNode.model.numbers.invalidate();
  else if (node instanceof RealtimeConfigsNode) node.agentNode.model.realtimeConfigs.invalidate();
  else return false;
  return true;
}
