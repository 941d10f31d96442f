import * as vscode from 'vscode';
import type { Deployment } from '../../../contract/agents';
import type { Environment } from '../../../contract/common';
import { ActionNode, ErrorNode, exactTime, InfoNode, LoadingNode, TreeNode, when } from '../treeNode';
import { deploymentTooltip } from './agentTooltips';
import type { AgentParent } from './agentParent';
import { Command, ItemContext } from '../../ids';
import { actorShort, actorText } from './deploymentActors';
import { activeDeployment, newestFirst } from '../../model/deployments';

export const ENVIRONMENT_ORDER: readonly Environment[] = ['sandbox', 'pre-release', 'live'];

const ENV_ICON: Record<Environment, string> = { sandbox: 'beaker', 'pre-release': 'rocket', live: 'broadcast' };

/** Deployments of an agent, grouped by environment (sandbox, pre-release, live). */
export class DeploymentsNode extends LoadingNode {
  constructor(readonly agentNode: AgentParent) {
    super(agentNode);
  }

  get id(): string {
    return `${this.agentNode.id}/deployments`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Deployments'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('cloud-upload');
    item.contextValue = ItemContext.deployments();
    return item;
  }

  /**
   * Where the platform does not list deployments: the failure (click to retry), the deployments publish, promote
   * and rollback returned here, and rows that promote or roll back a deployment by its id.
   */
  protected async loadChildren(): Promise<TreeNode[]> {
    const known = await this.agentNode.model.knownDeployments.get();
    if (!known.listed) {
      const { agent } = this.agentNode;
      const byId = (key: string, label: string, command: string, icon: string): ActionNode =>
        new ActionNode(this, key, label, icon, {
          command,
          title: label,
          arguments: [{ agentId: agent.agentId, name: agent.name }],
        });
      return [
        new ErrorNode(this, known.failure),
        ...this.byEnvironment(known.items).filter((e) => e.deployments.length > 0),
        byId('promoteById', vscode.l10n.t('Promote a Deployment by Id…'), Command.promote, 'rocket'),
        byId('rollbackById', vscode.l10n.t('Roll Back a Deployment by Id…'), Command.rollback, 'discard'),
      ];
    }
    return this.byEnvironment(known.items);
  }

  private byEnvironment(all: readonly Deployment[]): EnvironmentDeploymentsNode[] {
    return ENVIRONMENT_ORDER.map(
      (env) =>
        new EnvironmentDeploymentsNode(
          this,
          env,
          all.filter((d) => d.environment === env),
        ),
    );
  }
}

export class EnvironmentDeploymentsNode extends TreeNode {
  /** Newest first; the active one is what the environment serves. */
  readonly deployments: Deployment[];

  constructor(
    readonly group: DeploymentsNode,
    readonly environment: Environment,
    deployments: Deployment[],
  ) {
    super(group);
    this.deployments = newestFirst(deployments);
  }

  get id(): string {
    return `${this.group.id}/${this.environment}`;
  }

  /** The deployment this environment serves now. */
  get active(): Deployment | undefined {
    return activeDeployment(this.deployments);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(
      this.environment,
      this.deployments.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    const active = this.active;
    // Whether it serves anything shows in the icon's colour too: a narrow sidebar cuts the description.
    item.iconPath = new vscode.ThemeIcon(
      ENV_ICON[this.environment],
      new vscode.ThemeColor(active ? 'charts.green' : 'disabledForeground'),
    );
    item.description = active
      ? vscode.l10n.t(
          'v{0} · {1} · {2}',
          active.version,
          actorShort(vscode.l10n, active.createdBy),
          when(active.createdAt).relative,
        )
      : vscode.l10n.t('nothing deployed');
    item.contextValue = ItemContext.environment(this.environment, active !== undefined);
    item.tooltip = active
      ? vscode.l10n.t(
          '{0} serves version {1} (artifact {2}), deployed by {3} on {4}',
          this.environment,
          active.version,
          active.artifactVersion,
          actorText(vscode.l10n, active.createdBy),
          when(active.createdAt).exact,
        )
      : vscode.l10n.t('Nothing is deployed to {0}', this.environment);
    item.accessibilityInformation = {
      label: active
        ? vscode.l10n.t('{0}: serves version {1}, {2}', this.environment, active.version, item.description)
        : vscode.l10n.t('{0}: nothing deployed', this.environment),
    };
    return item;
  }

  override getChildren(): Promise<TreeNode[]> {
    if (this.deployments.length === 0)
      return Promise.resolve([new InfoNode(this, 'none', vscode.l10n.t('Nothing deployed'))]);
    const active = this.active;
    return Promise.resolve(this.deployments.map((d) => new DeploymentNode(this, d, d === active)));
  }
}

/** Whether a comparison report is kept with a deployment (set once by the extension; none before). */
let comparedDeployment: (agentId: string, deploymentId: string) => boolean = () => false;
export function setComparedDeployments(has: (agentId: string, deploymentId: string) => boolean): void {
  comparedDeployment = has;
}

export class DeploymentNode extends TreeNode {
  constructor(
    readonly envNode: EnvironmentDeploymentsNode,
    readonly deployment: Deployment,
    readonly isActive: boolean,
  ) {
    super(envNode);
  }

  get id(): string {
    return `${this.envNode.id}/${this.deployment.id}`;
  }

  get agentNode(): AgentParent {
    return this.envNode.group.agentNode;
  }

  getTreeItem(): vscode.TreeItem {
    const d = this.deployment;
    const item = new vscode.TreeItem(vscode.l10n.t('Version {0}', d.version), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    const message = typeof d.metadata.message === 'string' ? d.metadata.message : '';
    const about = [actorShort(vscode.l10n, d.createdBy), when(d.createdAt).relative, message];
    item.description = [this.isActive ? vscode.l10n.t('active') : '', ...about].filter(Boolean).join(' · ');
    item.iconPath = this.isActive
      ? new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('charts.green'))
      : new vscode.ThemeIcon('circle-outline');
    item.accessibilityInformation = {
      label: [
        vscode.l10n.t('Version {0}', d.version),
        this.isActive ? vscode.l10n.t('active in {0}', d.environment) : vscode.l10n.t('not active'),
        ...about.filter(Boolean),
      ].join(', '),
    };
    const compared = comparedDeployment(this.agentNode.agent.agentId, d.id);
    item.contextValue = ItemContext.deployment(d.environment, this.isActive, compared);
    item.tooltip = new vscode.MarkdownString(
      deploymentTooltip(vscode.l10n, exactTime, d, { active: this.isActive, compared }),
    );
    return item;
  }
}
