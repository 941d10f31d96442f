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
  windowWords,
} from '../../common/alertFormat';
import type { EndpointRecord } from '../../model/alertsSource';
import type { AlertsModel } from '../../model/alertsModel';
import type { WebhookSecrets } from '../../connection/webhookSecrets';
import { Command, ItemContext } from '../../ids';
import { isPlatformError } from '../../common/failure';

/** A list read that failed because the platform has no such list (a 404 or 405 from an assumed endpoint). */
export function listIsMissing(err: unknown): boolean {
  return isPlatformError(err) && err.assumption !== undefined;
}

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

/**
 * The rule's state as the tree says it. A rule changed after its last evaluation (a new threshold) has a state of
 * the rule before the change, which would read "OK · 625 ms (> 100 ms)": it says so until the platform evaluates it.
 */
function shownState(r: AlertRule): string {
  if (!r.enabled) return vscode.l10n.t('disabled');
  // A state the platform reset with the change (no current value, as after switching a rule on) is its own.
  const changed =
    r.current_value !== null &&
    r.updated_at &&
    r.last_evaluated_at &&
    Date.parse(r.updated_at) > Date.parse(r.last_evaluated_at);
  return changed
    ? vscode.l10n.t('{0} before the change, not evaluated since', stateLabel(r.current_state))
    : stateLabel(r.current_state);
}

/** "774 ms", or "last 774 ms, 5 minutes ago" while the platform has no current value, or "no value yet". */
function valueWords(metric: string, current: number | null, last: LastValue | undefined): string {
  if (current !== null) return formatAmount(metric, current);
  if (last) return vscode.l10n.t('last {0}, {1}', formatAmount(metric, last.value), when(last.at).relative);
  return vscode.l10n.t('no value yet');
}

/** The account's alert rules, with their count against the account's limit. */
export class RulesGroupNode extends TreeNode {
  constructor(
    readonly rules: readonly AlertRule[],
    readonly max: number,
    private readonly lastValue: (rule: AlertRule) => LastValue | undefined = () => undefined,
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
    return Promise.resolve(this.rules.map((r) => new RuleNode(this, r, this.lastValue(r))));
  }
}

export class RuleNode extends TreeNode {
  constructor(
    parent: TreeNode,
    readonly rule: AlertRule,
    readonly last?: LastValue,
    /** Shown from what the platform last answered here (it does not list rules), not from a list. */
    readonly keptHere = false,
  ) {
    super(parent);
  }

  get id(): string {
    return `alerts/rules/${this.rule.id}`;
  }

  getTreeItem(): vscode.TreeItem {
    const r = this.rule;
    const item = new vscode.TreeItem(r.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = stateIcon(r.current_state, r.enabled);
    const state = shownState(r);
    const condition = `${valueWords(r.metric, r.current_value, this.last)} (${r.operator} ${formatAmount(r.metric, r.threshold_value)})`;
    // The state first: a narrow sidebar cuts the description from its end.
    item.description = [state, condition, r.window_duration, scopeLabel(r.project_id)].filter(Boolean).join(' · ');
    item.contextValue = ItemContext.alertRule(r.enabled, r.current_state);
    item.tooltip = ruleTooltip(r, this.last);
    if (this.keptHere)
      item.tooltip.appendMarkdown(
        `\n\n${vscode.l10n.t('As the platform answered when it was last created or saved here; whether it fires comes from the current alerts.')}`,
      );
    item.accessibilityInformation = {
      label: vscode.l10n.t('Alert rule {0}, {1}, {2}', r.name, state, item.description),
    };
    return item;
  }

  /** The details of the hover, one line each, so a keyboard reaches them too. */
  override getChildren(): Promise<TreeNode[]> {
    return detailNodes(this, ruleDetails(this.rule, this.last));
  }
}

type Detail = [key: string, label: string, text: string, icon: string];

/** Lines of details as child rows: what a hover says, reachable by keyboard. */
function detailNodes(parent: TreeNode, details: readonly Detail[]): Promise<TreeNode[]> {
  return Promise.resolve(details.map(([key, label, text, icon]) => new InfoNode(parent, key, label, icon, text)));
}

function currentValueText(r: AlertRule, last: LastValue | undefined): string {
  if (r.current_value !== null) return formatAmount(r.metric, r.current_value);
  return last
    ? vscode.l10n.t(
        'the platform has no value for the current window; last {0} at {1}',
        formatAmount(r.metric, last.value),
        when(last.at).exact,
      )
    : vscode.l10n.t('the platform has no value for it yet');
}

function timeText(iso: string | null | undefined): string {
  return iso ? `${when(iso).exact} (${when(iso).relative})` : vscode.l10n.t('never');
}

function ruleDetails(r: AlertRule, last: LastValue | undefined): Detail[] {
  return [
    [
      'condition',
      vscode.l10n.t('Fires when'),
      vscode.l10n.t(
        '{0} is {1} {2} over {3}',
        metricLabel(r.metric),
        operatorWords(r.operator),
        formatAmount(r.metric, r.threshold_value),
        windowWords(r.window_duration),
      ),
      'bell',
    ],
    ['value', vscode.l10n.t('Current value'), currentValueText(r, last), 'pulse'],
    ['state', vscode.l10n.t('State'), r.enabled ? stateLabel(r.current_state) : vscode.l10n.t('Disabled'), 'circle'],
    [
      'scope',
      vscode.l10n.t('Scope'),
      r.project_id === null ? vscode.l10n.t('account-wide (every project)') : r.project_id,
      'project',
    ],
    ['since', vscode.l10n.t('In this state since'), timeText(r.since), 'history'],
    ['evaluated', vscode.l10n.t('Last evaluated'), timeText(r.last_evaluated_at), 'clock'],
    ['id', vscode.l10n.t('Rule id'), r.id, 'key'],
  ];
}

function ruleTooltip(r: AlertRule, last: LastValue | undefined): vscode.MarkdownString {
  const t = new vscode.MarkdownString();
  t.appendMarkdown(`**${md(r.name)}** · ${r.enabled ? stateLabel(r.current_state) : vscode.l10n.t('Disabled')}\n\n`);
  t.appendMarkdown(
    `${vscode.l10n.t('Fires when {0} is {1} {2} over {3}', md(metricLabel(r.metric)), operatorWords(r.operator), md(formatAmount(r.metric, r.threshold_value)), windowWords(r.window_duration))}\n\n`,
  );
  t.appendMarkdown(`${md(metricExplained(r.metric))}\n\n`);
  t.appendMarkdown(`${vscode.l10n.t('Current value')}: ${md(currentValueText(r, last))}\n\n`);
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
  t.appendMarkdown(times.map(([label, iso]) => `${label}: ${timeText(iso)}`).join('  \n'));
  return t;
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
    t.appendMarkdown(`**${md(a.name)}** · ${vscode.l10n.t('Firing')}\n\n`);
    t.appendMarkdown(
      `${vscode.l10n.t('{0} is {1}, {2} {3} over {4}', md(metricLabel(a.metric)), md(formatAmount(a.metric, a.current_value)), operatorWords(a.operator), md(formatAmount(a.metric, a.threshold_value)), windowWords(a.window_duration))}\n\n`,
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

/** The account's webhook endpoints, loaded when expanded. */
export class EndpointsGroupNode extends LoadingNode {
  constructor(
    readonly model: AlertsModel,
    private readonly secrets: WebhookSecrets,
    /** What to show where the platform does not list endpoints (the endpoints created or added here). */
    private readonly whenNotListed?: (group: EndpointsGroupNode, reason: unknown) => Promise<TreeNode[]>,
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
      if (!this.whenNotListed || !listIsMissing(err)) return [new AlertsErrorNode(this, err)];
      return this.whenNotListed(this, err);
    }
  }
}

export class EndpointNode extends TreeNode {
  constructor(
    parent: TreeNode,
    readonly endpoint: EndpointRecord,
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
    const e = this.endpoint;
    const item = new vscode.TreeItem(e.name, vscode.TreeItemCollapsibleState.Collapsed);
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
      `${vscode.l10n.t('Created')}: ${timeText(e.created_at)}  \n${vscode.l10n.t('Updated')}: ${timeText(e.updated_at)}`,
    );
    if (this.keptHere)
      t.appendMarkdown(`\n\n${vscode.l10n.t('As the platform answered when it was created or saved here.')}`);
    item.tooltip = t;
    return item;
  }
  override getChildren(): Promise<TreeNode[]> {
    const e = this.endpoint;
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
