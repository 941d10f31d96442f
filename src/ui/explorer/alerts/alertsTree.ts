import * as vscode from 'vscode';
import type { AlertRule } from '../../../contract/alerts';
import { Disposable } from '../../../core/disposable';
import { clientRuntime } from '../../clientRuntime';
import type { Connection } from '../../connection/connection';
import { NodeTreeProvider } from '../treeProvider';
import type { TreeNode } from '../treeNode';
import { AlertsErrorNode, CurrentAlertNode, CurrentAlertsGroupNode, EndpointNode, EndpointsGroupNode, RuleNode, RulesGroupNode } from './alertNodes';
import { type AlertsSource, alertsSourceOf } from './alertsSource';
import type { WebhookSecrets } from './webhookSecrets';
import { ContextKey, View } from '../../ids';

export const ALERTS_VIEW = View.alerts;

/** Why the Alerts view is empty: drives its welcome content (context key agentWorkbench.alerts.state). */
export type AlertsViewState = 'noProfile' | 'error' | 'ready';

/**
 * The Alerts view: current alerts, alert rules (with the count against the account's limit) and
 * webhook endpoints of the active profile. The rule list is read when the view shows; the other
 * groups when expanded. A failure shows in the view's message with a retry link in the welcome.
 */
export class AlertsTree extends Disposable {
  readonly provider: NodeTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  private cachedSource: { ctx: object; source: AlertsSource } | undefined;
  private rules: Promise<AlertRule[]> | undefined;
  /** The rules group as last loaded, with the source it was loaded from. */
  private loaded: { source: AlertsSource; group: RulesGroupNode } | undefined;
  private currentGroup: CurrentAlertsGroupNode | undefined;
  private endpointsGroup: EndpointsGroupNode | undefined;

  constructor(private readonly connection: Connection, readonly secrets: WebhookSecrets) {
    super();
    this.provider = this.register(new NodeTreeProvider(() => this.roots()));
    this.view = this.register(vscode.window.createTreeView(ALERTS_VIEW, { treeDataProvider: this.provider, showCollapseAll: true }));
    // Another profile: forget what was loaded; VS Code asks again only if the view is showing.
    this.register(connection.profiles.onDidChange(() => this.forget()));
  }

  /** The reads of the active profile, or undefined when no profile is chosen. */
  source(): AlertsSource | undefined {
    const ctx = this.connection.context;
    if (!ctx) return undefined;
    if (this.cachedSource?.ctx !== ctx) {
      const client = new (clientRuntime().AlertsClient)(ctx);
      this.cachedSource = { ctx, source: alertsSourceOf(client, ctx.profile.id, ctx.profile.projectId) };
    }
    return this.cachedSource.source;
  }

  /** How many rules the view knows the account has, when it has loaded them for the active profile. */
  knownRuleCount(): number | undefined {
    return this.loaded && this.loaded.source === this.source() ? this.loaded.group.rules.length : undefined;
  }

  /** Reloads everything; resolves with the top-level nodes as loaded. */
  refresh(): Promise<TreeNode[]> {
    this.forget();
    return this.roots();
  }

  private forget(): void {
    this.rules = undefined;
    this.loaded = undefined;
    this.currentGroup = undefined;
    this.endpointsGroup = undefined;
    this.provider.refresh();
  }

  /** Reloads the rules and the current alerts (both reflect the same evaluations). */
  refreshRules(): Promise<TreeNode[]> {
    this.rules = undefined;
    this.loaded = undefined;
    this.currentGroup?.invalidate();
    this.provider.refresh();
    return this.roots();
  }

  refreshEndpoints(): Promise<TreeNode[]> {
    if (!this.endpointsGroup) return this.refresh();
    this.provider.refresh(this.endpointsGroup);
    return this.endpointsGroup.getChildren();
  }

  /** Reloads one group by name (for automation); resolves with its children as loaded. */
  async refreshGroup(name: 'rules' | 'current' | 'endpoints'): Promise<TreeNode[]> {
    if (name === 'endpoints' && this.endpointsGroup) return this.refreshEndpoints();
    await (name === 'endpoints' ? this.refresh() : this.refreshRules());
    const node = name === 'rules' ? this.loaded?.group : name === 'current' ? this.currentGroup : this.endpointsGroup;
    return node?.getChildren() ?? [];
  }

  /** Reloads what a node shows; resolves with the node's children (or the top level) as loaded. */
  async refreshNode(node: TreeNode | undefined): Promise<TreeNode[]> {
    const target = node instanceof AlertsErrorNode ? node.parent : node;
    if (target instanceof EndpointsGroupNode || target instanceof EndpointNode) return this.refreshEndpoints();
    if (target instanceof RulesGroupNode || target instanceof RuleNode) {
      await this.refreshRules();
      return this.loaded?.group.getChildren() ?? [];
    }
    if (target instanceof CurrentAlertsGroupNode || target instanceof CurrentAlertNode) {
      await this.refreshRules();
      return this.currentGroup?.getChildren() ?? [];
    }
    return this.refresh();
  }

  private async roots(): Promise<TreeNode[]> {
    const source = this.source();
    if (!source) {
      this.setState('noProfile');
      this.view.message = undefined;
      this.view.badge = undefined;
      return [];
    }
    this.rules ??= source.listRules();
    const pending = this.rules;
    let rules: AlertRule[];
    try {
      rules = await pending;
    } catch (err) {
      if (this.rules === pending) this.rules = undefined;
      this.loaded = undefined;
      this.setState('error');
      this.view.badge = undefined;
      this.view.message = vscode.l10n.t('The alert rules could not be loaded: {0}', err instanceof Error ? err.message : String(err));
      return [];
    }
    if (this.currentGroup?.source !== source) this.currentGroup = new CurrentAlertsGroupNode(source);
    if (this.endpointsGroup?.source !== source) this.endpointsGroup = new EndpointsGroupNode(source, this.secrets);
    if (this.loaded?.group.rules !== rules) this.loaded = { source, group: new RulesGroupNode(rules, clientRuntime().alertsContract.ALERT_RULES_MAX) };
    const firing = rules.filter((r) => r.enabled && r.current_state === 'alert').length;
    this.currentGroup.firing = firing;
    this.setState('ready');
    this.view.message = undefined;
    this.view.badge = firing > 0 ? { value: firing, tooltip: vscode.l10n.t('{0} alerts firing', firing) } : undefined;
    return [this.currentGroup, this.loaded.group, this.endpointsGroup];
  }

  private setState(state: AlertsViewState): void {
    void vscode.commands.executeCommand('setContext', ContextKey.alertsState, state);
  }
}
