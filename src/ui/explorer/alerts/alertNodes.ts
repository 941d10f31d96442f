import * as vscode from 'vscode';
import { markdownCode, markdownStrong } from '../../../core/shownText';
import type { CurrentAlert } from '../../../contract/alerts';
import { ActionNode, ErrorNode, InfoNode, LoadingNode, TreeNode, when } from '../treeNode';
import { formatAmount, md, metricLabel, operatorWords, scopeLabel, windowWords } from '../../common/alertFormat';
import type { AlertsModel } from '../../model/alertsModel';
import { Command, ItemContext } from '../../ids';

/** The command that reloads one node of the Alerts view (the shared refreshNode serves the Agents view). */
export const REFRESH_ALERTS_NODE = Command.refreshAlertsNode;

/** A failed load inside the Alerts view; clicking it reloads its group in this view. */
export class AlertsErrorNode extends ErrorNode {
  override getTreeItem(): vscode.TreeItem {
    const item = super.getTreeItem();
    item.command = { command: REFRESH_ALERTS_NODE, title: vscode.l10n.t('Retry'), arguments: [this.parent] };
    return item;
  }
}

/** A rule's last value the platform reported, and when: kept while the platform has no current value. */
export interface LastValue {
  value: number;
  at: string;
}

export type Detail = [key: string, label: string, text: string, icon: string];

/** Lines of details as child rows: what a hover says, reachable by keyboard. */
export function detailNodes(parent: TreeNode, details: readonly Detail[]): Promise<TreeNode[]> {
  return Promise.resolve(details.map(([key, label, text, icon]) => new InfoNode(parent, key, label, icon, text)));
}

export function timeText(iso: string | null | undefined): string {
  return iso ? `${when(iso).exact} (${when(iso).relative})` : vscode.l10n.t('never');
}

/** The row of docs/api-assumptions.md behind a list the platform does not have, from the failed read. */
function rowOf(reason: unknown): string {
  const row = (reason as { assumption?: { row?: string } } | undefined)?.assumption?.row;
  return row ? row.replace(/[.\s]+$/, '') : '';
}

export function whyNotListed(what: 'rules' | 'endpoints', reason: unknown): string {
  const row = rowOf(reason);
  const text =
    what === 'rules'
      ? vscode.l10n.t('This platform does not list alert rules: the rules created, saved or added by id here are shown')
      : vscode.l10n.t(
          'This platform does not list webhook endpoints: the endpoints created or added by id here are shown',
        );
  return row ? `${text} (${vscode.l10n.t('assumption: row "{0}"', row)})` : text;
}

/** The rows that head a group the platform does not list: why, and the button that adds one by its id. */
export function notListedRows(parent: TreeNode, what: 'rules' | 'endpoints', reason: unknown): TreeNode[] {
  const title =
    what === 'rules' ? vscode.l10n.t('Add Alert Rule by Id…') : vscode.l10n.t('Add Webhook Endpoint by Id…');
  return [
    new InfoNode(parent, 'why', whyNotListed(what, reason), 'info'),
    new ActionNode(parent, 'add', title, 'add', {
      command: what === 'rules' ? Command.addAlertRuleById : Command.addWebhookEndpointById,
      title,
    }),
  ];
}

/** The rules firing now (GET /v1/alerts), loaded when expanded. */
export class CurrentAlertsGroupNode extends LoadingNode {
  /** How many rules the rule list reports in `alert`; set by the tree on every load of the rules. */
  firing = 0;
  /** Why the current alerts could not be read, where they are what the view counts firing rules by. */
  unreadable: string | undefined;

  constructor(readonly model: AlertsModel) {
    super(undefined);
  }

  get id(): string {
    return 'alerts/current';
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(
      vscode.l10n.t('Current Alerts'),
      this.firing > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = this.id;
    item.iconPath =
      this.unreadable !== undefined
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
        : this.firing > 0
          ? new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.red'))
          : new vscode.ThemeIcon('bell');
    // Unread is not "none firing": whether anything fires is not known.
    item.description =
      this.unreadable !== undefined
        ? vscode.l10n.t('could not be read: not known whether any rule fires')
        : this.firing > 0
          ? vscode.l10n.t('{0} firing', this.firing)
          : vscode.l10n.t('none firing');
    item.tooltip =
      this.unreadable !== undefined
        ? vscode.l10n.t('The current alerts could not be read: {0}', this.unreadable)
        : vscode.l10n.t('Alert rules whose threshold is breached now');
    item.contextValue = ItemContext.currentAlerts();
    return item;
  }

  protected async loadChildren(): Promise<TreeNode[]> {
    try {
      const alerts = await this.model.currentAlerts.get();
      if (alerts.length === 0) return [new InfoNode(this, 'none', vscode.l10n.t('Nothing is firing'), 'pass')];
      return alerts.map((a) => new CurrentAlertNode(this, a));
    } catch (err) {
      return [new AlertsErrorNode(this, err)];
    }
  }
}

export class CurrentAlertNode extends TreeNode {
  constructor(
    parent: CurrentAlertsGroupNode,
    readonly alert: CurrentAlert,
  ) {
    super(parent);
  }

  /** The rule that fires (so Copy Id and the rule commands work on a firing alert too). */
  get rule(): { id: string } {
    return { id: this.alert.rule_id };
  }

  get id(): string {
    return `alerts/current/${this.alert.rule_id}`;
  }

  getTreeItem(): vscode.TreeItem {
    const a = this.alert;
    const item = new vscode.TreeItem(a.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.red'));
    item.description = `${formatAmount(a.metric, a.current_value)} (${a.operator} ${formatAmount(a.metric, a.threshold_value)}) · ${vscode.l10n.t('since {0}', when(a.triggered_at).relative)}`;
    item.contextValue = ItemContext.currentAlert();
    item.accessibilityInformation = {
      label: vscode.l10n.t('Alert {0}, firing, {1}', a.name, item.description),
    };
    const t = new vscode.MarkdownString();
    t.appendMarkdown(`${markdownStrong(a.name)} · ${vscode.l10n.t('Firing')}\n\n`);
    t.appendMarkdown(
      `${vscode.l10n.t('{0} is {1}, {2} {3} over {4}', md(metricLabel(a.metric)), md(formatAmount(a.metric, a.current_value)), md(operatorWords(a.operator)), md(formatAmount(a.metric, a.threshold_value)), md(windowWords(a.window_duration)))}\n\n`,
    );
    t.appendMarkdown(
      `${vscode.l10n.t('Scope')}: ${md(scopeLabel(a.project_id))}\n\n${vscode.l10n.t('Rule id')}: ${markdownCode(a.rule_id)}\n\n`,
    );
    t.appendMarkdown(
      `${vscode.l10n.t('Firing since')}: ${md(`${when(a.triggered_at).exact} (${when(a.triggered_at).relative})`)}  \n`,
    );
    t.appendMarkdown(
      `${vscode.l10n.t('Last evaluated')}: ${md(a.last_evaluated_at ? when(a.last_evaluated_at).exact : vscode.l10n.t('never'))}`,
    );
    item.tooltip = t;
    return item;
  }

  override getChildren(): Promise<TreeNode[]> {
    const a = this.alert;
    const details: Detail[] = [
      [
        'condition',
        vscode.l10n.t('Value'),
        vscode.l10n.t(
          '{0} is {1}, {2} {3} over {4}',
          metricLabel(a.metric),
          formatAmount(a.metric, a.current_value),
          operatorWords(a.operator),
          formatAmount(a.metric, a.threshold_value),
          windowWords(a.window_duration),
        ),
        'pulse',
      ],
      ['scope', vscode.l10n.t('Scope'), scopeLabel(a.project_id), 'project'],
      ['since', vscode.l10n.t('Firing since'), timeText(a.triggered_at), 'history'],
      ['evaluated', vscode.l10n.t('Last evaluated'), timeText(a.last_evaluated_at), 'clock'],
      ['id', vscode.l10n.t('Rule id'), a.rule_id, 'key'],
    ];
    return detailNodes(this, details);
  }
}
