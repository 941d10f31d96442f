import * as vscode from 'vscode';
import type { PhoneNumber, RealtimeConfig } from '../../../contract/agents';
import { remoteUri } from '../../remoteUri';
import { ActionNode, exactTime, InfoNode, LoadingNode, TreeNode } from '../treeNode';
import { realtimeConfigHeading } from './agentTooltips';
import type { AgentParent } from './agentParent';
import { ENVIRONMENT_ORDER } from './deploymentNodes';
import { Command, ItemContext } from '../../ids';

/** Telephony numbers of an agent, grouped by environment and then connector. */
export class NumbersNode extends LoadingNode {
  constructor(readonly agentNode: AgentParent) {
    super(agentNode);
  }

  get id(): string {
    return `${this.agentNode.id}/numbers`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Telephony Numbers'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('call-outgoing');
    item.contextValue = ItemContext.numbers();
    return item;
  }

  protected async loadChildren(): Promise<TreeNode[]> {
    const numbers = await this.agentNode.model.numbers.get();
    if (numbers.length === 0)
      return [
        new ActionNode(this, 'none', vscode.l10n.t('No numbers yet. Import Phone Numbers…'), 'add', {
          command: Command.importNumbers,
          title: vscode.l10n.t('Import Phone Numbers'),
          tooltip: vscode.l10n.t('Import phone numbers for {0}', this.agentNode.agent.name),
          arguments: [this],
        }),
      ];
    const envs = [...new Set(numbers.map((n) => n.clientEnv))].sort((a, b) => rank(a) - rank(b));
    return envs.map(
      (env) =>
        new NumberEnvironmentNode(
          this,
          env,
          numbers.filter((n) => n.clientEnv === env),
        ),
    );
  }
}

function rank(env: string): number {
  const i = ENVIRONMENT_ORDER.indexOf(env as (typeof ENVIRONMENT_ORDER)[number]);
  return i < 0 ? ENVIRONMENT_ORDER.length : i;
}

export class NumberEnvironmentNode extends TreeNode {
  constructor(
    readonly group: NumbersNode,
    readonly environment: string,
    readonly numbers: PhoneNumber[],
  ) {
    super(group);
  }

  get id(): string {
    return `${this.group.id}/${this.environment}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.environment, vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.description =
      this.numbers.length === 1 ? vscode.l10n.t('1 number') : vscode.l10n.t('{0} numbers', this.numbers.length);
    item.iconPath = new vscode.ThemeIcon('server-environment');
    item.contextValue = ItemContext.numberEnvironment();
    return item;
  }

  override getChildren(): Promise<TreeNode[]> {
    const connectors = [...new Set(this.numbers.map((n) => n.connectorId))].sort();
    return Promise.resolve(
      connectors.map(
        (c) =>
          new ConnectorNode(
            this,
            c,
            this.numbers.filter((n) => n.connectorId === c),
          ),
      ),
    );
  }
}

export class ConnectorNode extends TreeNode {
  constructor(
    readonly envNode: NumberEnvironmentNode,
    readonly connectorId: string,
    readonly numbers: PhoneNumber[],
  ) {
    super(envNode);
  }

  get id(): string {
    return `${this.envNode.id}/${this.connectorId}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.connectorId, vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.description = vscode.l10n.t('connector');
    item.iconPath = new vscode.ThemeIcon('plug');
    item.contextValue = ItemContext.connector();
    item.tooltip = vscode.l10n.t('Connector id: {0}', this.connectorId);
    return item;
  }

  override getChildren(): Promise<TreeNode[]> {
    return Promise.resolve(
      [...this.numbers].sort((a, b) => a.number.localeCompare(b.number)).map((n) => new NumberNode(this, n)),
    );
  }
}

export class NumberNode extends TreeNode {
  constructor(
    readonly connector: ConnectorNode,
    readonly phoneNumber: PhoneNumber,
  ) {
    super(connector);
  }

  get id(): string {
    return `${this.connector.id}/${this.phoneNumber.number}`;
  }

  getTreeItem(): vscode.TreeItem {
    const n = this.phoneNumber;
    const item = new vscode.TreeItem(n.number, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('device-mobile');
    item.contextValue = ItemContext.phoneNumber();
    item.tooltip = vscode.l10n.t(
      '{0} · {1} · connector {2} · project {3}',
      n.number,
      n.clientEnv,
      n.connectorId,
      n.projectId,
    );
    return item;
  }
}

/** Real-time configs: runtime values that take effect without publishing. */
export class RealtimeConfigsNode extends LoadingNode {
  constructor(readonly agentNode: AgentParent) {
    super(agentNode);
  }

  get id(): string {
    return `${this.agentNode.id}/realtime`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Real-time Configs'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('settings');
    item.contextValue = ItemContext.realtimeConfigs();
    return item;
  }

  protected async loadChildren(): Promise<TreeNode[]> {
    const configs = await this.agentNode.model.realtimeConfigs.get();
    if (configs.length === 0) return [new InfoNode(this, 'none', vscode.l10n.t('No real-time configs'))];
    return configs.map((c) => new RealtimeConfigNode(this, c));
  }
}

export class RealtimeConfigNode extends TreeNode {
  constructor(
    readonly group: RealtimeConfigsNode,
    readonly config: RealtimeConfig,
  ) {
    super(group);
  }

  get id(): string {
    return `${this.group.id}/${this.config.name}`;
  }

  getTreeItem(): vscode.TreeItem {
    const c = this.config;
    const item = new vscode.TreeItem(c.name, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description =
      Object.keys(c.variables).length === 1
        ? vscode.l10n.t('1 variable')
        : vscode.l10n.t('{0} variables', Object.keys(c.variables).length);
    item.iconPath = new vscode.ThemeIcon('symbol-variable');
    item.contextValue = ItemContext.realtimeConfig();
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`${realtimeConfigHeading(vscode.l10n, exactTime, c)}\n\n`);
    md.appendCodeblock(JSON.stringify(c.variables, null, 2), 'json');
    item.tooltip = md;
    const { agent } = this.group.agentNode;
    item.command = {
      command: 'vscode.open',
      title: vscode.l10n.t('Open'),
      arguments: [remoteUri({ kind: 'realtimeConfig', agentId: agent.agentId, agentName: agent.name, config: c.name })],
    };
    return item;
  }
}
