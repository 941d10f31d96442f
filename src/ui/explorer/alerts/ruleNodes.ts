import * as vscode from 'vscode';
import { markdownCode, markdownStrong } from '../../../core/shownText';
import type { AlertRule, CurrentAlert } from '../../../contract/alerts';
import { InfoNode, TreeNode, when } from '../treeNode';
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
import type { Known } from '../../model/alertsModel';
import type { Kept } from '../../model/keptAlerts';
import { ItemContext } from '../../ids';
import { type Detail, detailNodes, type LastValue, notListedRows, timeText, whyNotListed } from './alertNodes';

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

/** A firing rule as the current alerts show it, over what was last answered about it here. */
function withCurrent(rule: AlertRule, firing: CurrentAlert | undefined): AlertRule {
  if (!firing || !rule.enabled) return rule;
  return {
    ...rule,
    current_state: 'alert',
    current_value: firing.current_value,
    since: firing.triggered_at ?? rule.since,
    last_evaluated_at: firing.last_evaluated_at ?? rule.last_evaluated_at,
  };
}

/**
 * The account's alert rules, with their count against the account's limit; where the platform does not list
 * them, those created, saved or added by id here (per profile), each marked firing when the current alerts say so.
 */
export class RulesGroupNode extends TreeNode {
  constructor(
    readonly rules: Known<AlertRule>,
    readonly max: number,
    private readonly lastValue: (rule: AlertRule) => LastValue | undefined = () => undefined,
    /** The current alerts by rule, which say what fires where rules are not listed (undefined when not read). */
    private readonly firing?: ReadonlyMap<string, CurrentAlert>,
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
    const count = this.rules.items.length;
    if (this.rules.notListed !== undefined) {
      item.description = vscode.l10n.t('{0} known here', count);
      item.tooltip = whyNotListed('rules', this.rules.notListed);
      item.contextValue = ItemContext.alertRules(false);
      return item;
    }
    const full = count >= this.max;
    item.description = vscode.l10n.t('{0} of {1}', count, this.max);
    item.tooltip = full
      ? vscode.l10n.t(
          '{0} of {1} alert rules: the account has as many as it can. Delete a rule (or edit one) to watch something else.',
          count,
          this.max,
        )
      : vscode.l10n.t('{0} of {1} alert rules: an account can have at most {1}.', count, this.max);
    item.contextValue = ItemContext.alertRules(full);
    return item;
  }

  override getChildren(): Promise<TreeNode[]> {
    const { items, notListed } = this.rules;
    if (notListed === undefined && items.length === 0)
      return Promise.resolve([new InfoNode(this, 'none', vscode.l10n.t('No alert rules yet'))]);
    const keptHere = notListed !== undefined;
    const nodes = items.map((r) => {
      const firing = this.firing?.get(r.id);
      const rule = r.record && (keptHere ? withCurrent(r.record, firing) : r.record);
      return new RuleNode(
        this,
        { id: r.id, record: rule },
        { last: r.record && this.lastValue(r.record), keptHere, firing },
      );
    });
    return Promise.resolve(keptHere ? [...notListedRows(this, 'rules', notListed), ...nodes] : nodes);
  }
}

/**
 * One alert rule: as listed or last answered here, or known only by the id typed for it (PATCH needs nothing
 * more; its settings are shown once it is saved here).
 */
export class RuleNode extends TreeNode {
  constructor(
    parent: TreeNode,
    /** The rule the commands act on (Copy Id, edit, enable, disable, delete). */
    readonly rule: Kept<AlertRule>,
    private readonly shown: {
      last?: LastValue;
      /** Shown from what the platform last answered here (it does not list rules), not from a list. */
      keptHere?: boolean;
      /** The rule's current alert, which names a rule known only by its id. */
      firing?: CurrentAlert;
    } = {},
  ) {
    super(parent);
  }

  get id(): string {
    return `alerts/rules/${this.rule.id}`;
  }

  getTreeItem(): vscode.TreeItem {
    return this.rule.record ? this.recordItem(this.rule.record) : this.typedItem();
  }

  private recordItem(r: AlertRule): vscode.TreeItem {
    const item = new vscode.TreeItem(r.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = stateIcon(r.current_state, r.enabled);
    const state = shownState(r);
    const condition = `${valueWords(r.metric, r.current_value, this.shown.last)} (${r.operator} ${formatAmount(r.metric, r.threshold_value)})`;
    // The state first: a narrow sidebar cuts the description from its end.
    item.description = [state, condition, r.window_duration, scopeLabel(r.project_id)].filter(Boolean).join(' · ');
    item.contextValue = ItemContext.alertRule(r.enabled, r.current_state);
    item.tooltip = ruleTooltip(r, this.shown.last);
    if (this.shown.keptHere)
      item.tooltip.appendMarkdown(
        `\n\n${vscode.l10n.t('As the platform answered when it was last created or saved here; whether it fires comes from the current alerts.')}`,
      );
    item.accessibilityInformation = {
      label: vscode.l10n.t('Alert rule {0}, {1}, {2}', r.name, state, item.description),
    };
    return item;
  }

  private typedItem(): vscode.TreeItem {
    const firing = this.shown.firing;
    const item = new vscode.TreeItem(firing?.name || this.rule.id, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = firing
      ? new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.red'))
      : new vscode.ThemeIcon('question');
    item.description = firing
      ? vscode.l10n.t('firing · added by id')
      : vscode.l10n.t('added by id · its settings are shown once saved here');
    // The state is in the hover and the accessibility label too: a narrow sidebar cuts the description.
    const state = firing ? vscode.l10n.t('Firing') : vscode.l10n.t('State not known');
    item.tooltip = new vscode.MarkdownString(
      `**${state}**\n\n${vscode.l10n.t('Rule id')}: ${markdownCode(this.rule.id)}\n\n${vscode.l10n.t('The platform does not say what this rule watches until it is saved here: edit, enable or disable it and the answer is shown.')}`,
    );
    item.accessibilityInformation = {
      label: vscode.l10n.t('Alert rule {0}, {1}, {2}', String(item.label), state, String(item.description)),
    };
    item.contextValue = ItemContext.typedAlertRule();
    return item;
  }

  /** The details of the hover, one line each, so a keyboard reaches them too. */
  override getChildren(): Promise<TreeNode[]> {
    return this.rule.record ? detailNodes(this, ruleDetails(this.rule.record, this.shown.last)) : Promise.resolve([]);
  }
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
  t.appendMarkdown(
    `${markdownStrong(r.name)} · ${md(r.enabled ? stateLabel(r.current_state) : vscode.l10n.t('Disabled'))}\n\n`,
  );
  t.appendMarkdown(
    `${vscode.l10n.t('Fires when {0} is {1} {2} over {3}', md(metricLabel(r.metric)), md(operatorWords(r.operator)), md(formatAmount(r.metric, r.threshold_value)), md(windowWords(r.window_duration)))}\n\n`,
  );
  t.appendMarkdown(`${md(metricExplained(r.metric))}\n\n`);
  t.appendMarkdown(`${vscode.l10n.t('Current value')}: ${md(currentValueText(r, last))}\n\n`);
  t.appendMarkdown(
    `${vscode.l10n.t('Scope')}: ${r.project_id === null ? vscode.l10n.t('account-wide (every project)') : `${vscode.l10n.t('project')} ${markdownCode(r.project_id)}`}\n\n`,
  );
  t.appendMarkdown(`${vscode.l10n.t('Rule id')}: ${markdownCode(r.id)}\n\n`);
  const times: Array<[string, string | null]> = [
    [vscode.l10n.t('In this state since'), r.since],
    [vscode.l10n.t('Last evaluated'), r.last_evaluated_at],
    [vscode.l10n.t('Created'), r.created_at ?? null],
    [vscode.l10n.t('Updated'), r.updated_at ?? null],
  ];
  t.appendMarkdown(times.map(([label, iso]) => `${label}: ${md(timeText(iso))}`).join('  \n'));
  return t;
}
