import * as vscode from 'vscode';
import { markdownCode, markdownStrong } from '../../../core/shownText';
import { InfoNode, LoadingNode, TreeNode } from '../treeNode';
import { md } from '../../common/alertFormat';
import type { EndpointRecord } from '../../model/endpointRecord';
import type { AlertsModel } from '../../model/alertsModel';
import type { Kept } from '../../model/keptAlerts';
import type { WebhookSecrets } from '../../connection/webhookSecrets';
import { ItemContext } from '../../ids';
import { AlertsErrorNode, type Detail, detailNodes, notListedRows, timeText } from './alertNodes';

/**
 * The account's webhook endpoints, loaded when expanded; where the platform does not list them, those created or
 * added by id here.
 */
export class EndpointsGroupNode extends LoadingNode {
  constructor(
    readonly model: AlertsModel,
    private readonly secrets: WebhookSecrets,
  ) {
    super(undefined);
  }

  get id(): string {
    return 'alerts/endpoints';
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Webhook Endpoints'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('radio-tower');
    item.tooltip = vscode.l10n.t('Addresses that receive signed notifications when a rule fires or resolves');
    item.contextValue = ItemContext.webhookEndpoints();
    return item;
  }

  protected async loadChildren(): Promise<TreeNode[]> {
    try {
      const { items, notListed } = await this.model.knownEndpoints.get();
      if (notListed === undefined && items.length === 0)
        return [new InfoNode(this, 'none', vscode.l10n.t('No webhook endpoints yet'))];
      const stored = await Promise.all(items.map((e) => this.secrets.has(this.model.source.profileId, e.id)));
      const keptHere = notListed !== undefined;
      const nodes = items.map((e, i) => new EndpointNode(this, e, stored[i] === true, keptHere));
      return keptHere ? [...notListedRows(this, 'endpoints', notListed), ...nodes] : nodes;
    } catch (err) {
      return [new AlertsErrorNode(this, err)];
    }
  }
}

/** One webhook endpoint: as listed or answered here, or known only by the id typed for it. */
export class EndpointNode extends TreeNode {
  constructor(
    parent: TreeNode,
    /** The endpoint the commands act on (edit, rotate, delete, Copy Id). */
    readonly endpoint: Kept<EndpointRecord>,
    readonly secretStored: boolean,
    /** Shown from the platform's answer when it was created here (it does not list endpoints). */
    readonly keptHere = false,
  ) {
    super(parent);
  }

  get id(): string {
    return `alerts/endpoints/${this.endpoint.id}`;
  }

  getTreeItem(): vscode.TreeItem {
    return this.endpoint.record ? this.recordItem(this.endpoint.record) : this.typedItem();
  }

  private typedItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.endpoint.id, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.secretStored ? 'workspace-trusted' : 'question');
    item.description = vscode.l10n.t('added by id');
    item.tooltip = `${vscode.l10n.t('Endpoint id')}: ${this.endpoint.id}`;
    item.contextValue = this.secretStored ? ItemContext.webhookEndpoint(true) : ItemContext.typedWebhookEndpoint();
    return item;
  }

  private recordItem(e: EndpointRecord): vscode.TreeItem {
    const item = new vscode.TreeItem(e.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.secretStored ? 'workspace-trusted' : 'radio-tower');
    item.description = e.event_types.join(', ');
    item.contextValue = ItemContext.webhookEndpoint(this.secretStored);
    const t = new vscode.MarkdownString();
    t.appendMarkdown(`${markdownStrong(e.name)}\n\n`);
    t.appendMarkdown(`${vscode.l10n.t('URL')}: ${markdownCode(e.url)}\n\n`);
    t.appendMarkdown(`${vscode.l10n.t('Events')}: ${e.event_types.map((x) => markdownCode(x)).join(', ')}\n\n`);
    t.appendMarkdown(`${vscode.l10n.t('Endpoint id')}: ${markdownCode(e.id)}\n\n`);
    t.appendMarkdown(
      this.secretStored
        ? vscode.l10n.t("Its signing secret is kept in this editor's secret storage, for signature checks.")
        : vscode.l10n.t('Its signing secret is not kept here.'),
    );
    t.appendMarkdown('\n\n');
    t.appendMarkdown(
      `${vscode.l10n.t('Created')}: ${md(timeText(e.created_at))}  \n${vscode.l10n.t('Updated')}: ${md(timeText(e.updated_at))}`,
    );
    if (this.keptHere)
      t.appendMarkdown(`\n\n${vscode.l10n.t('As the platform answered when it was created or saved here.')}`);
    item.tooltip = t;
    return item;
  }

  override getChildren(): Promise<TreeNode[]> {
    const e = this.endpoint.record;
    if (!e) return Promise.resolve([]);
    const details: Detail[] = [
      ['url', vscode.l10n.t('URL'), e.url, 'link'],
      ['events', vscode.l10n.t('Events'), e.event_types.join(', '), 'bell'],
      [
        'secret',
        vscode.l10n.t('Signing secret'),
        this.secretStored ? vscode.l10n.t('kept here for signature checks') : vscode.l10n.t('not kept here'),
        this.secretStored ? 'workspace-trusted' : 'circle-slash',
      ],
      ['id', vscode.l10n.t('Endpoint id'), e.id, 'key'],
    ];
    return detailNodes(this, details);
  }
}
