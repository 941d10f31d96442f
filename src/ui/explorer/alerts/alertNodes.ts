import * as vscode from 'vscode';
import type { AlertRule, CurrentAlert } from '../../../contract/alerts';
import { ErrorNode, InfoNode, LoadingNode, TreeNode, when } from '../treeNode';
import {
  formatAmount,
  md,
  metricExplained,
  metricLabel,
  operatorWords,
  scopeLabel,
  stateIcon,
  stateLabel,
} from './alertFormat';
import type { EndpointRecord } from './alertsSource';
import type { AlertsModel } from '../../model/alertsModel';
import type { WebhookSecrets } from './webhookSecrets';
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

/** The account's alert rules, with their count against the account's limit. */
export class RulesGroupNode extends TreeNode {
  constructor(
    readonly rules: readonly AlertRule[],
    readonly max: number,
  ) {
    super(undefined);
  }

  get id(): string {
    return 'alerts/rules';
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Alert Rules'), vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('bell');
    const full = this.rules.length >= this.max;
    item.description = vscode.l10n.t('{0} of {1}', this.rules.length, this.max);
    item.tooltip = full
      ? vscode.l10n.t(
          '{0} of {1} alert rules: the account has as many as it can. Delete a rule (or edit one) to watch something else.',
          this.rules.length,
          this.max,
        )
      : vscode.l10n.t('{0} of {1} alert rules: an account can have at most {1}.', this.rules.length, this.max);
    item.contextValue = ItemContext.alertRules(full);
    return item;
  }

  override getChildren(): Promise<TreeNode[]> {
    if (this.rules.length === 0)
      return Promise.resolve([new InfoNode(this, 'none', vscode.l10n.t('No alert rules yet'))]);
    return Promise.resolve(this.rules.map((r) => new RuleNode(this, r)));
  }
}

export class RuleNode extends TreeNode {
  constructor(
    parent: RulesGroupNode,
    readonly rule: AlertRule,
  ) {
    super(parent);
  }

  get id(): string {
    return `alerts/rules/${this.rule.id}`;
  }

  getTreeItem(): vscode.TreeItem {
    const r = this.rule;
    const item = new vscode.TreeItem(r.name, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = stateIcon(r.current_state, r.enabled);
    const condition = `${formatAmount(r.metric, r.current_value)} (${r.operator} ${formatAmount(r.metric, r.threshold_value)})`;
    item.description = [
      r.enabled ? '' : vscode.l10n.t('disabled'),
      condition,
      r.window_duration,
      scopeLabel(r.project_id),
    ]
      .filter(Boolean)
      .join(' · ');
    item.contextValue = ItemContext.alertRule(r.enabled, r.current_state);
    item.tooltip = ruleTooltip(r);
    item.accessibilityInformation = {
      label: vscode.l10n.t(
        'Alert rule {0}, {1}, {2}',
        r.name,
        r.enabled ? stateLabel(r.current_state) : vscode.l10n.t('disabled'),
        item.description,
      ),
    };
    return item;
  }
}

function ruleTooltip(r: AlertRule): vscode.MarkdownString {
  const t = new vscode.MarkdownString();
  t.appendMarkdown(`**${md(r.name)}** · ${r.enabled ? stateLabel(r.current_state) : vscode.l10n.t('Disabled')}\n\n`);
  t.appendMarkdown(
    `${vscode.l10n.t('Fires when {0} is {1} {2} over {3}', md(metricLabel(r.metric)), operatorWords(r.operator), md(formatAmount(r.metric, r.threshold_value)), r.window_duration)} (\`${r.metric} ${r.operator} ${r.threshold_value}\`)\n\n`,
  );
  t.appendMarkdown(`${md(metricExplained(r.metric))}\n\n`);
  t.appendMarkdown(
    `${vscode.l10n.t('Current value')}: ${r.current_value === null ? vscode.l10n.t('none yet') : md(formatAmount(r.metric, r.current_value))}\n\n`,
  );
  t.appendMarkdown(
    `${vscode.l10n.t('Scope')}: ${r.project_id === null ? vscode.l10n.t('account-wide (every project)') : `${vscode.l10n.t('project')} \`${r.project_id}\``}\n\n`,
  );
  t.appendMarkdown(`${vscode.l10n.t('Rule id')}: \`${r.id}\`\n\n`);
  const times: Array<[string, string | null]> = [
    [vscode.l10n.t('In this state since'), r.since],
    [vscode.l10n.t('Last evaluated'), r.last_evaluated_at],
    [vscode.l10n.t('Created'), r.created_at ?? null],
    [vscode.l10n.t('Updated'), r.updated_at ?? null],
  ];
  t.appendMarkdown(
    times
      .map(([label, iso]) => `${label}: ${iso ? `${when(iso).exact} (${when(iso).relative})` : vscode.l10n.t('never')}`)
      .join('  \n'),
  );
  return t;
}

/** The rules firing now (GET /v1/alerts), loaded when expanded. */
export class CurrentAlertsGroupNode extends LoadingNode {
  /** How many rules the rule list reports in `alert`; set by the tree on every load of the rules. */
  firing = 0;

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
      this.firing > 0
        ? new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.red'))
        : new vscode.ThemeIcon('bell');
    item.description = this.firing > 0 ? vscode.l10n.t('{0} firing', this.firing) : vscode.l10n.t('none firing');
    item.tooltip = vscode.l10n.t('Alert rules whose threshold is breached now');
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
    const item = new vscode.TreeItem(a.name, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.red'));
    item.description = `${formatAmount(a.metric, a.current_value)} (${a.operator} ${formatAmount(a.metric, a.threshold_value)}) · ${vscode.l10n.t('since {0}', when(a.triggered_at).relative)}`;
    item.contextValue = ItemContext.currentAlert();
    const t = new vscode.MarkdownString();
    t.appendMarkdown(`**${md(a.name)}** · ${vscode.l10n.t('Firing')}\n\n`);
    t.appendMarkdown(
      `${vscode.l10n.t('{0} is {1}, {2} {3} over {4}', md(metricLabel(a.metric)), md(formatAmount(a.metric, a.current_value)), operatorWords(a.operator), md(formatAmount(a.metric, a.threshold_value)), a.window_duration)}\n\n`,
    );
    t.appendMarkdown(
      `${vscode.l10n.t('Scope')}: ${md(scopeLabel(a.project_id))}\n\n${vscode.l10n.t('Rule id')}: \`${a.rule_id}\`\n\n`,
    );
    t.appendMarkdown(
      `${vscode.l10n.t('Firing since')}: ${when(a.triggered_at).exact} (${when(a.triggered_at).relative})  \n`,
    );
    t.appendMarkdown(
      `${vscode.l10n.t('Last evaluated')}: ${a.last_evaluated_at ? when(a.last_evaluated_at).exact : vscode.l10n.t('never')}`,
    );
    item.tooltip = t;
    return item;
  }
}

/** The account's webhook endpoints, loaded when expanded. */
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
      const endpoints = await this.model.endpoints.get();
      if (endpoints.length === 0) return [new InfoNode(this, 'none', vscode.l10n.t('No webhook endpoints yet'))];
      const stored = await Promise.all(endpoints.map((e) => this.secrets.has(this.model.source.profileId, e.id)));
      return endpoints.map((e, i) => new EndpointNode(this, e, stored[i]!));
    } catch (err) {
      return [new AlertsErrorNode(this, err)];
    }
  }
}

export class EndpointNode extends TreeNode {
  constructor(
    parent: EndpointsGroupNode,
    readonly endpoint: EndpointRecord,
    readonly secretStored: boolean,
  ) {
    super(parent);
  }

  get id(): string {
    return `alerts/endpoints/${this.endpoint.id}`;
  }

  getTreeItem(): vscode.TreeItem {
    const e = this.endpoint;
    const item = new vscode.TreeItem(e.name, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.secretStored ? 'workspace-trusted' : 'radio-tower');
    item.description = e.event_types.join(', ');
    item.contextValue = ItemContext.webhookEndpoint(this.secretStored);
    const t = new vscode.MarkdownString();
    t.appendMarkdown(`**${md(e.name)}**\n\n`);
    t.appendMarkdown(`${vscode.l10n.t('URL')}: \`${e.url.replace(/`/g, '')}\`\n\n`);
    t.appendMarkdown(`${vscode.l10n.t('Events')}: ${e.event_types.map((x) => `\`${x}\``).join(', ')}\n\n`);
    t.appendMarkdown(`${vscode.l10n.t('Endpoint id')}: \`${e.id}\`\n\n`);
    t.appendMarkdown(
      this.secretStored
        ? vscode.l10n.t("Its signing secret is kept in this editor's secret storage, for signature checks.")
        : vscode.l10n.t('Its signing secret is not kept here.'),
    );
    t.appendMarkdown('\n\n');
    t.appendMarkdown(
      `${vscode.l10n.t('Created')}: ${when(e.created_at).exact}  \n${vscode.l10n.t('Updated')}: ${when(e.updated_at).exact}`,
    );
    item.tooltip = t;
    return item;
  }
}
