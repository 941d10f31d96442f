import * as vscode from 'vscode';
import type { Branch, Topic } from '../../../contract/agents';
import { remoteUri } from '../../remoteUri';
import { ActionNode, ErrorNode, exactTime, InfoNode, LoadingNode, TreeNode } from '../treeNode';
import { agentTooltip, branchTooltip, topicTooltip } from './agentTooltips';
import { isMain, orderBranches } from '../../model/agentsSource';
import type { AgentModel, ShownAgent } from '../../model/agentsModel';
import { DeploymentsNode } from './deploymentNodes';
import { NumbersNode, RealtimeConfigsNode } from './telephonyNodes';
import { Command, ItemContext } from '../../ids';

/** Knows which branch of an agent is checked out into the workspace, if any. */
export type CheckedOutBranch = (agentId: string) => string | undefined;

export class AgentNode extends LoadingNode {
  constructor(
    readonly agent: ShownAgent,
    /**
     * What the editor knows of the agent, made when first read (an expansion, a refresh of the node): a view of
     * thousands of agents holds no model for the agents nobody opened.
     */
    private readonly modelOf: () => AgentModel,
    private readonly checkedOut: CheckedOutBranch,
  ) {
    super(undefined);
  }

  get model(): AgentModel {
    return this.modelOf();
  }

  get id(): string {
    return `agent/${this.agent.agentId}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.agent.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.description = this.agent.unverified ? vscode.l10n.t('not verified') : this.agent.description;
    // A narrow sidebar cuts the description away: the icon and the accessibility label carry the state too.
    item.iconPath = this.agent.unverified
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
      : new vscode.ThemeIcon('hubot');
    item.accessibilityInformation = {
      label: this.agent.unverified
        ? vscode.l10n.t('Agent {0}, not verified', this.agent.name)
        : vscode.l10n.t('Agent {0}', this.agent.name),
    };
    item.contextValue = ItemContext.agent();
    return item;
  }

  override tooltip(): vscode.MarkdownString {
    return new vscode.MarkdownString(agentTooltip(vscode.l10n, exactTime, this.agent));
  }

  /** Each group loads on its own: a branch list that fails leaves deployments, numbers and configs shown. */
  protected async loadChildren(): Promise<TreeNode[]> {
    return [
      ...(await this.branchNodes()),
      new DeploymentsNode(this),
      new NumbersNode(this),
      new RealtimeConfigsNode(this),
    ];
  }

  /**
   * The branches as listed; where they cannot be listed, the failure (click to retry), the branches whose ids
   * came from create answers or were typed here, and a row that checks out a branch by id.
   */
  private async branchNodes(): Promise<TreeNode[]> {
    const checkedOut = this.checkedOut(this.agent.agentId);
    const known = await this.model.knownBranches.get();
    const nodes = orderBranches(known.items).map((b) => new BranchNode(this, b, b.branchId === checkedOut));
    if (known.listed) return nodes;
    return [
      new ErrorNode(this, known.failure),
      ...nodes,
      new ActionNode(this, 'checkOutById', vscode.l10n.t('Check Out a Branch by Id…'), 'git-branch', {
        command: Command.checkOut,
        title: vscode.l10n.t('Check Out a Branch by Id'),
        tooltip: vscode.l10n.t('Check out a branch of {0} whose id you know (the studio shows it)', this.agent.name),
        arguments: [{ agentId: this.agent.agentId, name: this.agent.name, askBranchId: true }],
      }),
    ];
  }
}

export class BranchNode extends LoadingNode {
  constructor(
    readonly agentNode: AgentNode,
    readonly branch: Branch,
    private readonly checkedOut: boolean,
  ) {
    super(agentNode);
  }

  get id(): string {
    return `${this.agentNode.id}/branch/${this.branch.branchId}`;
  }

  get isMain(): boolean {
    return isMain(this.branch);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.branch.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const parts = [
      this.isMain ? vscode.l10n.t('default') : '',
      this.checkedOut ? vscode.l10n.t('checked out') : '',
      this.branch.mergedAt ? vscode.l10n.t('merged') : '',
    ].filter(Boolean);
    item.description = parts.join(' · ');
    // The state is in the icon, the hover and the accessibility label too: a narrow sidebar cuts the description.
    item.iconPath = this.checkedOut
      ? new vscode.ThemeIcon('check', new vscode.ThemeColor('charts.green'))
      : this.branch.mergedAt
        ? new vscode.ThemeIcon('git-merge', new vscode.ThemeColor('disabledForeground'))
        : new vscode.ThemeIcon('git-branch');
    item.accessibilityInformation = {
      label: [vscode.l10n.t('Branch {0}', this.branch.name), ...parts].join(', '),
    };
    item.contextValue = ItemContext.branch({ isMain: this.isMain, checkedOut: this.checkedOut });
    item.tooltip = new vscode.MarkdownString(branchTooltip(vscode.l10n, exactTime, this.branch, parts));
    return item;
  }

  protected loadChildren(): Promise<TreeNode[]> {
    return Promise.resolve([new BehaviorNode(this), new KnowledgeNode(this)]);
  }
}

export class BehaviorNode extends TreeNode {
  constructor(readonly branchNode: BranchNode) {
    super(branchNode);
  }

  get id(): string {
    return `${this.branchNode.id}/behavior`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Behavior'), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('note');
    item.contextValue = ItemContext.behavior();
    item.tooltip = vscode.l10n.t('The behavior prompt of branch {0}', this.branchNode.branch.name);
    const { agent } = this.branchNode.agentNode;
    item.command = {
      command: 'vscode.open',
      title: vscode.l10n.t('Open'),
      arguments: [
        remoteUri({
          kind: 'behavior',
          agentId: agent.agentId,
          agentName: agent.name,
          branchId: this.branchNode.branch.branchId,
          branchName: this.branchNode.branch.name,
        }),
      ],
    };
    return item;
  }
}

export class KnowledgeNode extends LoadingNode {
  constructor(readonly branchNode: BranchNode) {
    super(branchNode);
  }

  get id(): string {
    return `${this.branchNode.id}/knowledge`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Knowledge'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('book');
    item.contextValue = ItemContext.knowledge();
    const n = this.children?.length;
    if (n !== undefined) item.description = n === 1 ? vscode.l10n.t('1 topic') : vscode.l10n.t('{0} topics', n);
    return item;
  }

  protected async loadChildren(): Promise<TreeNode[]> {
    const topics = await this.branchNode.agentNode.model.topics.get(this.branchNode.branch.branchId).get();
    if (topics.length === 0) return [new InfoNode(this, 'none', vscode.l10n.t('No knowledge topics yet'))];
    return [...topics].sort((a, b) => a.name.localeCompare(b.name)).map((t) => new TopicNode(this, t));
  }
}

export class TopicNode extends TreeNode {
  constructor(
    readonly knowledge: KnowledgeNode,
    readonly topic: Topic,
  ) {
    super(knowledge);
  }

  get id(): string {
    return `${this.knowledge.id}/${this.topic.topicId}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.topic.name, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('file-text');
    item.contextValue = ItemContext.topic();
    item.tooltip = new vscode.MarkdownString(topicTooltip(vscode.l10n, exactTime, this.topic));
    const branchNode = this.knowledge.branchNode;
    const { agent } = branchNode.agentNode;
    item.command = {
      command: 'vscode.open',
      title: vscode.l10n.t('Open'),
      arguments: [
        remoteUri({
          kind: 'topic',
          agentId: agent.agentId,
          agentName: agent.name,
          branchId: branchNode.branch.branchId,
          branchName: branchNode.branch.name,
          topicId: this.topic.topicId,
          topicName: this.topic.name,
        }),
      ],
    };
    return item;
  }
}
