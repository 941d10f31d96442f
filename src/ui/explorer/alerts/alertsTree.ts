import * as vscode from 'vscode';
import type { AlertRule, CurrentAlert } from '../../../contract/alerts';
import { Disposable, MutableDisposable } from '../../../core/disposable';
import { Emitter } from '../../../core/event';
import { platformContract } from '../../model/platformClients';
import type { AlertsModel, Known } from '../../model/alertsModel';
import type { ProfileModels } from '../../model/profileModels';
import { NodeTreeProvider } from '../treeProvider';
import type { TreeNode } from '../treeNode';
import { AlertsErrorNode, CurrentAlertNode, CurrentAlertsGroupNode, type LastValue } from './alertNodes';
import { EndpointNode, EndpointsGroupNode } from './endpointNodes';
import { RuleNode, RulesGroupNode } from './ruleNodes';
import type { WebhookSecrets } from '../../connection/webhookSecrets';
import { ContextKey, View } from '../../ids';
import { type ViewProblem, viewProblemOf } from '../viewProblem';

export const ALERTS_VIEW = View.alerts;

/** Why the Alerts view is empty: drives its welcome content (context key agentWorkbench.alerts.state). */
export type AlertsViewState = 'noProfile' | 'error' | 'ready';

/**
 * The Alerts view: current alerts, alert rules (with the count against the account's limit) and
 * webhook endpoints of the active profile. The rule list is read when the view shows; the other
 * groups when expanded. A failure shows the welcome content of its kind, with its buttons (the view's
 * message stays unset: VS Code hides the welcome while one is set); the full reason goes to onDidFail.
 */
export class AlertsTree extends Disposable {
  readonly provider: NodeTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  /** The model the view shows, and the subscription to its changes. */
  private shown: AlertsModel | undefined;
  private readonly watching = this.register(new MutableDisposable());
  /** The rules group as last loaded: the platform's list, or the rules known here where it has none. */
  private rulesGroup: RulesGroupNode | undefined;
  private currentGroup: CurrentAlertsGroupNode | undefined;
  private endpointsGroup: EndpointsGroupNode | undefined;
  private readonly _onDidFail = this.register(new Emitter<string>());
  /** The reason the alerts could not be loaded, in full (the welcome content names only its kind). */
  readonly onDidFail = this._onDidFail.event;
  private current: { state: AlertsViewState; problem?: ViewProblem; message?: string } = { state: 'noProfile' };
  /** The last value each rule reported (by profile and rule), kept while the platform reports none. */
  private readonly lastValues = new Map<string, LastValue>();

  constructor(
    private readonly models: ProfileModels<object>,
    private readonly secrets: WebhookSecrets,
  ) {
    super();
    this.provider = this.register(new NodeTreeProvider(() => this.roots()));
    this.view = this.register(
      vscode.window.createTreeView(ALERTS_VIEW, { treeDataProvider: this.provider, showCollapseAll: true }),
    );
    // Another profile: forget what was shown; VS Code asks again only if the view is showing.
    this.register(models.onDidChange(() => this.forget()));
    // Whether an endpoint's signing secret is kept here shows beside it: a local fact, shown again without asking.
    this.register(
      secrets.onDidChange(({ profileId }) => {
        if (this.endpointsGroup && profileId === this.model()?.source.profileId)
          this.provider.refresh(this.endpointsGroup);
      }),
    );
  }

  /** What the view shows: the alerts model of the active profile. */
  private model(): AlertsModel | undefined {
    return this.models.active()?.alerts;
  }

  /** Reloads everything; resolves with the top-level nodes as loaded. */
  refresh(): Promise<TreeNode[]> {
    const model = this.model();
    if (model) {
      model.invalidateRules();
      model.endpoints.invalidate();
    }
    this.forget();
    return this.roots();
  }

  private forget(): void {
    this.rulesGroup = undefined;
    this.currentGroup = undefined;
    this.endpointsGroup = undefined;
    this.provider.refresh();
  }

  /** Reloads the rules and the current alerts (both reflect the same evaluations). */
  refreshRules(): Promise<TreeNode[]> {
    this.model()?.invalidateRules();
    return this.roots();
  }

  refreshEndpoints(): Promise<TreeNode[]> {
    if (!this.endpointsGroup) return this.refresh();
    this.model()?.endpoints.invalidate();
    return this.endpointsGroup.getChildren();
  }

  /** Reloads one group by name (for automation); resolves with its children as loaded. */
  async refreshGroup(name: 'rules' | 'current' | 'endpoints'): Promise<TreeNode[]> {
    if (name === 'endpoints' && this.endpointsGroup) return this.refreshEndpoints();
    await (name === 'endpoints' ? this.refresh() : this.refreshRules());
    const node = name === 'rules' ? this.rulesGroup : name === 'current' ? this.currentGroup : this.endpointsGroup;
    return node?.getChildren() ?? [];
  }

  /** Reloads what a node shows; resolves with the node's children (or the top level) as loaded. */
  async refreshNode(node: TreeNode | undefined): Promise<TreeNode[]> {
    const target = node instanceof AlertsErrorNode ? node.parent : node;
    if (target instanceof EndpointsGroupNode || target instanceof EndpointNode) return this.refreshEndpoints();
    if (target instanceof RulesGroupNode || target instanceof RuleNode) {
      await this.refreshRules();
      return this.rulesGroup?.getChildren() ?? [];
    }
    if (target instanceof CurrentAlertsGroupNode || target instanceof CurrentAlertNode) {
      await this.refreshRules();
      return this.currentGroup?.getChildren() ?? [];
    }
    return this.refresh();
  }

  /** Follows the model of the active profile: a change to a part refreshes the group that shows it. */
  private watch(model: AlertsModel): void {
    if (this.shown === model) return;
    this.shown = model;
    this.watching.value = model.onDidChange((part) => {
      // Without a rule list, the current alerts are what the rules group and the badge show as firing.
      if (part === 'rules' || (part === 'currentAlerts' && this.rulesGroup?.rules.notListed !== undefined))
        this.provider.refresh();
      else if (part === 'currentAlerts' && this.currentGroup) this.provider.refresh(this.currentGroup);
      else if (part === 'endpoints' && this.endpointsGroup) this.provider.refresh(this.endpointsGroup);
    });
  }

  private async roots(): Promise<TreeNode[]> {
    const model = this.model();
    if (!model) {
      this.setState('noProfile');
      this.view.badge = undefined;
      return [];
    }
    this.watch(model);
    let rules: Known<AlertRule>;
    try {
      rules = await model.knownRules.get();
    } catch (err) {
      return this.failed(err);
    }
    if (this.currentGroup?.model !== model) this.currentGroup = new CurrentAlertsGroupNode(model);
    if (this.endpointsGroup?.model !== model) this.endpointsGroup = new EndpointsGroupNode(model, this.secrets);
    const profile = model.source.profileId;
    // By rule and creation: a rule deleted and another made with its id start afresh.
    const key = (r: AlertRule): string => `${profile}/${r.id}/${r.created_at ?? ''}`;
    const lastValue = (r: AlertRule): LastValue | undefined => this.lastValues.get(key(r));
    // Kept once per answer: a value the platform stops reporting is still shown, with its time.
    if (this.rulesGroup?.rules !== rules)
      for (const { record: r } of rules.items)
        if (r && r.current_value !== null)
          this.lastValues.set(key(r), { value: r.current_value, at: r.last_evaluated_at ?? new Date().toISOString() });
    const max = platformContract().alertsContract.ALERT_RULES_MAX;
    let firing: number | undefined;
    this.currentGroup.unreadable = undefined;
    if (rules.notListed === undefined) {
      if (this.rulesGroup?.rules !== rules) this.rulesGroup = new RulesGroupNode(rules, max, lastValue);
      firing = rules.items.filter((r) => r.record?.enabled && r.record.current_state === 'alert').length;
    } else {
      // Without the list, the current alerts (which the spec shows) say what fires.
      let current: CurrentAlert[] | undefined;
      try {
        current = await model.currentAlerts.get();
        firing = current.length;
      } catch (err) {
        this.currentGroup.unreadable = err instanceof Error ? err.message : String(err);
      }
      this.rulesGroup = new RulesGroupNode(
        rules,
        max,
        lastValue,
        current && new Map(current.map((a) => [a.rule_id, a])),
      );
    }
    this.currentGroup.firing = firing ?? 0;
    this.setState('ready');
    this.view.badge =
      firing !== undefined && firing > 0
        ? {
            value: firing,
            tooltip:
              firing === 1 ? vscode.l10n.t('1 alert rule firing') : vscode.l10n.t('{0} alert rules firing', firing),
          }
        : undefined;
    return [this.currentGroup, this.rulesGroup, this.endpointsGroup];
  }

  /** A failure that leaves nothing to show: the welcome content of its kind, with its buttons. */
  private failed(err: unknown): TreeNode[] {
    this.rulesGroup = undefined;
    this._onDidFail.fire(
      vscode.l10n.t('The alert rules could not be loaded: {0}', err instanceof Error ? err.message : String(err)),
    );
    this.setState('error', viewProblemOf(err));
    this.view.badge = undefined;
    return [];
  }

  /** What the view shows instead of alerts, and why. */
  get shownState(): { state: AlertsViewState; problem?: ViewProblem; message?: string } {
    // The message as VS Code has it: while one is set, the welcome content and its buttons are hidden.
    return { ...this.current, message: this.view.message };
  }

  private setState(state: AlertsViewState, problem?: ViewProblem): void {
    this.current = { state, problem, message: undefined };
    this.view.message = undefined;
    void vscode.commands.executeCommand('setContext', ContextKey.alertsState, state);
    void vscode.commands.executeCommand('setContext', ContextKey.alertsProblem, problem ?? '');
  }
}
