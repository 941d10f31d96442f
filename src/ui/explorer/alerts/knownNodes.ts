import * as vscode from 'vscode';
import type { AlertRule, CurrentAlert } from '../../../contract/alerts';
import { ActionNode, InfoNode, TreeNode } from '../treeNode';
import type { EndpointRecord } from '../../model/alertsSource';
import { Command, ItemContext } from '../../ids';
import type { Remembered } from './rememberedAlerts';
import { EndpointNode, type LastValue, RuleNode } from './alertNodes';

/** The row of docs/api-assumptions.md behind a list the platform does not have, from the failed read. */
function rowOf(reason: unknown): string {
  const row = (reason as { assumption?: { row?: string } } | undefined)?.assumption?.row;
  return row ? row.replace(/[.\s]+$/, '') : '';
}

function whyNotListed(what: 'rules' | 'endpoints', reason: unknown): string {
  const row = rowOf(reason);
  const text =
    what === 'rules'
      ? vscode.l10n.t('This platform does not list alert rules: the rules created, saved or added by id here are shown')
      : vscode.l10n.t(
          'This platform does not list webhook endpoints: the endpoints created or added by id here are shown',
        );
  return row ? `${text} (${vscode.l10n.t('assumption: row "{0}"', row)})` : text;
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
 * The alert rules where the platform does not list them: those created, saved or added by id here (per profile),
 * each as the platform last answered about it, marked firing when the current alerts say so.
 */
export class KnownRulesGroupNode extends TreeNode {
  constructor(
    readonly known: ReadonlyArray<Remembered<AlertRule>>,
    private readonly reason: unknown,
    private readonly firing: ReadonlyMap<string, CurrentAlert> | undefined,
    private readonly lastValue: (rule: AlertRule) => LastValue | undefined,
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
    item.description = vscode.l10n.t('{0} known here', this.known.length);
    item.tooltip = whyNotListed('rules', this.reason);
    item.contextValue = ItemContext.alertRules(false);
    return item;
  }

  override getChildren(): Promise<TreeNode[]> {
    return Promise.resolve([
      new InfoNode(this, 'why', whyNotListed('rules', this.reason), 'info'),
      new ActionNode(this, 'add', vscode.l10n.t('Add Alert Rule by Id…'), 'add', {
        command: Command.addAlertRuleById,
        title: vscode.l10n.t('Add Alert Rule by Id…'),
      }),
      ...this.known.map((r) =>
        r.record
          ? new RuleNode(this, withCurrent(r.record, this.firing?.get(r.id)), this.lastValue(r.record), true)
          : new TypedRuleNode(this, r.id, this.firing?.get(r.id)),
      ),
    ]);
  }
}

/** A rule known here only by the id typed for it: PATCH needs nothing more. */
export class TypedRuleNode extends TreeNode {
  constructor(
    parent: TreeNode,
    readonly ruleId: string,
    private readonly firing: CurrentAlert | undefined,
  ) {
    super(parent);
  }

  /** The rule the commands act on (Copy Id, edit, enable, disable, delete). */
  get rule(): { id: string } {
    return { id: this.ruleId };
  }

  get id(): string {
    return `alerts/rules/${this.ruleId}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.firing?.name || this.ruleId, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = this.firing
      ? new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.red'))
      : new vscode.ThemeIcon('question');
    item.description = this.firing
      ? vscode.l10n.t('firing · added by id')
      : vscode.l10n.t('added by id · its settings are shown once saved here');
    // The state is in the hover and the accessibility label too: a narrow sidebar cuts the description.
    const state = this.firing ? vscode.l10n.t('Firing') : vscode.l10n.t('State not known');
    item.tooltip = new vscode.MarkdownString(
      `**${state}**\n\n${vscode.l10n.t('Rule id')}: \`${this.ruleId}\`\n\n${vscode.l10n.t('The platform does not say what this rule watches until it is saved here: edit, enable or disable it and the answer is shown.')}`,
    );
    item.accessibilityInformation = {
      label: vscode.l10n.t('Alert rule {0}, {1}, {2}', String(item.label), state, String(item.description)),
    };
    item.contextValue = ItemContext.typedAlertRule();
    return item;
  }

  override getChildren(): Promise<TreeNode[]> {
    return Promise.resolve([]);
  }
}

/** The webhook endpoints where the platform does not list them: those created or added by id here. */
export function knownEndpointNodes(
  parent: TreeNode,
  known: ReadonlyArray<Remembered<EndpointRecord>>,
  stored: readonly boolean[],
  reason: unknown,
): TreeNode[] {
  return [
    new InfoNode(parent, 'why', whyNotListed('endpoints', reason), 'info'),
    new ActionNode(parent, 'add', vscode.l10n.t('Add Webhook Endpoint by Id…'), 'add', {
      command: Command.addWebhookEndpointById,
      title: vscode.l10n.t('Add Webhook Endpoint by Id…'),
    }),
    ...known.map((e, i) =>
      e.record ? new EndpointNode(parent, e.record, stored[i]!, true) : new TypedEndpointNode(parent, e.id, stored[i]!),
    ),
  ];
}

/** A webhook endpoint known here only by the id typed for it. */
export class TypedEndpointNode extends TreeNode {
  constructor(
    parent: TreeNode,
    readonly endpointId: string,
    readonly secretStored: boolean,
  ) {
    super(parent);
  }

  /** The endpoint the commands act on (edit, rotate, delete, Copy Id). */
  get endpoint(): { id: string } {
    return { id: this.endpointId };
  }

  get id(): string {
    return `alerts/endpoints/${this.endpointId}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.endpointId, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.secretStored ? 'workspace-trusted' : 'question');
    item.description = vscode.l10n.t('added by id');
    item.tooltip = `${vscode.l10n.t('Endpoint id')}: ${this.endpointId}`;
    item.contextValue = this.secretStored ? ItemContext.webhookEndpoint(true) : ItemContext.typedWebhookEndpoint();
    return item;
  }

  override getChildren(): Promise<TreeNode[]> {
    return Promise.resolve([]);
  }
}
