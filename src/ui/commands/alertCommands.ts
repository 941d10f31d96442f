import * as vscode from 'vscode';
import type { AlertRule, CreateAlertRuleRequest } from '../../contract/alerts';
import { platformContract } from '../model/platformClients';
import type { Connection } from '../connection/connection';
import { CurrentAlertNode, RuleNode } from '../explorer/alerts/alertNodes';
import type { AlertsTree } from '../explorer/alerts/alertsTree';
import { TreeNode } from '../explorer/treeNode';
import {
  type AlertRuleFields,
  changedFields,
  checkRuleFields,
  known,
  type ProjectNames,
  promptRule,
  ruleFieldWords,
  ruleSentence,
} from './alertRuleInput';
import { formatAmount, metricLabel, windowWords } from '../common/alertFormat';
import { isPlatformError } from '../common/failure';
import { requireClients, runCommand, untilAborted, UserFacingError, withProgress } from '../common/commandSupport';
import { Command } from '../ids';
import { prompts } from '../common/prompts';

/** A rule given by a tree node (a rule or a firing alert), by id (palette, automation), or picked. */
export type RuleArg = RuleNode | CurrentAlertNode | { ruleId: string } | string | undefined;

/** Why a rule cannot be created: the account's limit, and what to do about it. */
function limitMessage(max: number, serverWords?: string): string {
  const base = vscode.l10n.t(
    'This account already has {0} alert rules, the most an account can have. Delete a rule, or edit one to watch something else, then try again.',
    max,
  );
  return serverWords
    ? `${base} (${vscode.l10n.t('The platform said: {0}', serverWords)})`
    : `${base} ${vscode.l10n.t('Nothing was sent.')}`;
}

/** Create, edit, enable, disable and delete alert rules; refresh the Alerts view. */
export function registerAlertCommands(connection: Connection, tree: AlertsTree): vscode.Disposable {
  function refuseAtLimit(): void {
    const max = platformContract().alertsContract.ALERT_RULES_MAX;
    const known = tree.knownRuleCount();
    if (known !== undefined && known >= max) throw new UserFacingError(limitMessage(max));
  }

  async function resolveRule(arg: RuleArg, placeHolder: string): Promise<AlertRule | undefined> {
    if (arg instanceof RuleNode) return arg.rule;
    const client = requireClients(connection).alerts;
    const id = arg instanceof CurrentAlertNode ? arg.alert.rule_id : typeof arg === 'string' ? arg : arg?.ruleId;
    if (id !== undefined)
      return withProgress(vscode.l10n.t('Reading alert rule {0}…', id), (signal) => client.getRule(id, signal));
    const model = tree.model();
    // The list the view holds, when it holds one; read once for the view and the pick otherwise.
    const rules =
      model?.rules.peek() ??
      (await withProgress(vscode.l10n.t('Loading alert rules…'), (signal) =>
        model ? untilAborted(model.rules.get(), signal) : client.listRules({}, signal),
      ));
    if (rules.length === 0)
      throw new UserFacingError(
        vscode.l10n.t('This account has no alert rules yet. Create one with Agent Workbench: Create Alert Rule.'),
      );
    const pick = await prompts.pick(
      rules.map((r) => ({
        label: r.name,
        description: `${metricLabel(r.metric)} ${r.operator} ${formatAmount(r.metric, r.threshold_value)} · ${windowWords(r.window_duration)}${r.enabled ? '' : ` · ${vscode.l10n.t('disabled')}`}`,
        detail: r.id,
        rule: r,
      })),
      { placeHolder, matchOnDescription: true, matchOnDetail: true },
    );
    return pick?.rule;
  }

  /** The rule to create, from the caller's fields or the multi-step input; checked, or undefined when cancelled. */
  async function askNewRule(args?: AlertRuleFields): Promise<CreateAlertRuleRequest | undefined> {
    const ctx = requireClients(connection);
    refuseAtLimit();
    if (!args) return promptRule(vscode.l10n.t('Create Alert Rule'), { profile: ctx.profile.projectId });
    const checked = checkRuleFields({
      ...args,
      project_id: args.project_id === undefined ? ctx.profile.projectId : args.project_id,
    });
    const missing = (['name', 'metric', 'operator', 'threshold_value', 'window_duration'] as const).filter(
      (f) => checked[f] === undefined,
    );
    if (missing.length)
      throw new UserFacingError(
        vscode.l10n.t('An alert rule needs a {0}. Nothing was sent.', missing.map(ruleFieldWords).join(', ')),
      );
    return checked as CreateAlertRuleRequest;
  }

  async function sendNewRule(draft: CreateAlertRuleRequest): Promise<AlertRule> {
    refuseAtLimit();
    const client = requireClients(connection).alerts;
    try {
      const created = await withProgress(vscode.l10n.t('Creating alert rule {0}…', draft.name), (signal) =>
        client.createRule(draft, signal),
      );
      tree.model()?.invalidateRules();
      void prompts.info(
        vscode.l10n.t(
          'Alert rule "{0}" created ({1}). It reports OK until its first evaluation.',
          created.name,
          created.id,
        ),
      );
      return created;
    } catch (err) {
      if (isPlatformError(err) && err.status === 409) {
        tree.model()?.invalidateRules();
        throw new UserFacingError(limitMessage(platformContract().alertsContract.ALERT_RULES_MAX, err.serverMessage));
      }
      throw err;
    }
  }

  /** A creation is sent once (a repeat could make a second rule); a transient failure offers Retry with the same rule. */
  async function createRule(args?: AlertRuleFields): Promise<AlertRule | undefined> {
    const draft = await askNewRule(args);
    if (!draft) return undefined;
    const attempt = (): Promise<AlertRule | undefined> => runCommand(() => sendNewRule(draft), { retry: attempt });
    return attempt();
  }

  async function save(rule: AlertRule, change: ReturnType<typeof changedFields>, verb: string): Promise<AlertRule> {
    const client = requireClients(connection).alerts;
    const saved = await withProgress(vscode.l10n.t('{0} alert rule {1}…', verb, rule.name), (signal) =>
      client.updateRule(rule.id, change, signal),
    );
    tree.model()?.invalidateRules();
    return saved;
  }

  /**
   * The profile's project, and the name the rule gives it when that is the same project under its other
   * name (slug or prefixed id): the platform says so by listing the rule among the project's rules.
   */
  async function projectNames(profileProject: string, rule: AlertRule): Promise<ProjectNames> {
    if (rule.project_id === null || rule.project_id === profileProject) return { profile: profileProject };
    try {
      const client = requireClients(connection).alerts;
      const ofProject = await withProgress(vscode.l10n.t('Reading alert rule {0}…', rule.name), (signal) =>
        client.listRules({ project_id: profileProject }, signal),
      );
      return ofProject.some((r) => r.id === rule.id && r.project_id === rule.project_id)
        ? { profile: profileProject, sameAs: rule.project_id }
        : { profile: profileProject };
    } catch {
      // Not knowing only shows the project twice; the edit itself goes on.
      return { profile: profileProject };
    }
  }

  async function editRule(arg?: RuleArg, fields?: AlertRuleFields): Promise<AlertRule | undefined> {
    const ctx = requireClients(connection);
    const rule = await resolveRule(arg, vscode.l10n.t('Alert rule to edit'));
    if (!rule) return undefined;
    let next: ReturnType<typeof checkRuleFields>;
    if (fields) next = checkRuleFields(fields, known(platformContract().alertsContract.ALERT_METRICS, rule.metric));
    else {
      const prompted = await promptRule(
        vscode.l10n.t('Edit Alert Rule {0}', rule.name),
        await projectNames(ctx.profile.projectId, rule),
        rule,
      );
      if (!prompted) return undefined;
      next = prompted;
    }
    const change = changedFields(rule, next);
    if (Object.keys(change).length === 0) {
      void prompts.info(vscode.l10n.t('Alert rule "{0}" is unchanged: nothing was sent.', rule.name));
      return rule;
    }
    const saved = await save(rule, change, vscode.l10n.t('Saving'));
    void prompts.info(
      vscode.l10n.t(
        'Alert rule "{0}" saved: {1} changed.',
        saved.name,
        (Object.keys(change) as Array<keyof typeof change>).map(ruleFieldWords).join(', '),
      ),
    );
    return saved;
  }

  async function setEnabled(arg: RuleArg, enabled: boolean): Promise<AlertRule | undefined> {
    const rule = await resolveRule(
      arg,
      enabled ? vscode.l10n.t('Alert rule to enable') : vscode.l10n.t('Alert rule to disable'),
    );
    if (!rule) return undefined;
    if (rule.enabled === enabled) {
      void prompts.info(
        enabled
          ? vscode.l10n.t('Alert rule "{0}" is already enabled.', rule.name)
          : vscode.l10n.t('Alert rule "{0}" is already disabled.', rule.name),
      );
      return rule;
    }
    const saved = await save(rule, { enabled }, enabled ? vscode.l10n.t('Enabling') : vscode.l10n.t('Disabling'));
    void prompts.info(
      enabled
        ? vscode.l10n.t('Alert rule "{0}" enabled: it is evaluated again and reports OK until then.', saved.name)
        : vscode.l10n.t('Alert rule "{0}" disabled: it is not evaluated and sends no notifications.', saved.name),
    );
    return saved;
  }

  async function deleteRule(arg?: RuleArg): Promise<boolean | undefined> {
    const rule = await resolveRule(arg, vscode.l10n.t('Alert rule to delete'));
    if (!rule) return undefined;
    const go = vscode.l10n.t('Delete');
    const answer = await prompts.ask(
      vscode.l10n.t('Delete alert rule "{0}"?', rule.name),
      {
        detail: vscode.l10n.t(
          '{0} The rule stops watching at once and cannot be restored; no notification is sent.',
          ruleSentence(rule),
        ),
      },
      go,
    );
    if (answer !== go) return false;
    const client = requireClients(connection).alerts;
    await withProgress(vscode.l10n.t('Deleting alert rule {0}…', rule.name), (signal) =>
      client.deleteRule(rule.id, signal),
    );
    tree.model()?.invalidateRules();
    void prompts.info(vscode.l10n.t('Alert rule "{0}" deleted.', rule.name));
    return true;
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(Command.refreshAlerts, () => tree.refresh()),
    vscode.commands.registerCommand(Command.refreshAlertsNode, (node?: TreeNode | 'rules' | 'current' | 'endpoints') =>
      typeof node === 'string' ? tree.refreshGroup(node) : tree.refreshNode(node),
    ),
    vscode.commands.registerCommand(Command.createAlertRule, (args?: AlertRuleFields | TreeNode) =>
      runCommand(() => createRule(args instanceof TreeNode ? undefined : args)),
    ),
    vscode.commands.registerCommand(Command.editAlertRule, (arg?: RuleArg, fields?: AlertRuleFields) =>
      runCommand(() => editRule(arg, fields)),
    ),
    vscode.commands.registerCommand(Command.enableAlertRule, (arg?: RuleArg) =>
      runCommand(() => setEnabled(arg, true)),
    ),
    vscode.commands.registerCommand(Command.disableAlertRule, (arg?: RuleArg) =>
      runCommand(() => setEnabled(arg, false)),
    ),
    vscode.commands.registerCommand(Command.deleteAlertRule, (arg?: RuleArg) => runCommand(() => deleteRule(arg))),
  );
}
