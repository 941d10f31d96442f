import * as vscode from 'vscode';
import type { AlertRule, CreateAlertRuleRequest, UpdateAlertRuleRequest } from '../../contract/alerts';
import { platformContract } from '../model/platformClients';
import type { Connection } from '../connection/connection';
import { CurrentAlertNode, EndpointNode, listIsMissing, RuleNode } from '../explorer/alerts/alertNodes';
import { TypedEndpointNode, TypedRuleNode } from '../explorer/alerts/knownNodes';
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
export type RuleArg = RuleNode | TypedRuleNode | CurrentAlertNode | { ruleId: string } | string | undefined;

/** The rule a command acts on: its id, and the rule itself when the view or an earlier answer here knows it. */
interface RuleRef {
  id: string;
  rule?: AlertRule;
}

/** How a rule is named in messages: its name when known, else its id. */
const nameOf = (r: RuleRef): string => r.rule?.name ?? r.id;

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

  const profileId = (): string => requireClients(connection).profile.id;

  /** A rule by id, as the view's list or an earlier answer here knows it; never read from the platform (not shown). */
  function ruleById(id: string): RuleRef {
    const listed = tree
      .model()
      ?.rules.peek()
      ?.find((r) => r.id === id);
    return { id, rule: listed ?? tree.remembered.rule(profileId(), id) };
  }

  async function resolveRule(arg: RuleArg, placeHolder: string): Promise<RuleRef | undefined> {
    if (arg instanceof RuleNode) return { id: arg.rule.id, rule: arg.rule };
    if (arg instanceof TypedRuleNode) return ruleById(arg.ruleId);
    const id = arg instanceof CurrentAlertNode ? arg.alert.rule_id : typeof arg === 'string' ? arg : arg?.ruleId;
    if (id !== undefined) return ruleById(id);
    const model = tree.model();
    const client = requireClients(connection).alerts;
    // The list the view holds, when it holds one; read once for the view and the pick otherwise.
    let rules: AlertRule[] | undefined;
    try {
      rules =
        model?.rules.peek() ??
        (await withProgress(vscode.l10n.t('Loading alert rules…'), (signal) =>
          model ? untilAborted(model.rules.get(), signal) : client.listRules({}, signal),
        ));
    } catch (err) {
      if (!listIsMissing(err)) throw err;
    }
    const typeId = vscode.l10n.t('Enter a Rule Id…');
    const choices: Array<vscode.QuickPickItem & { ref?: RuleRef }> = (
      rules?.map((r) => ({ id: r.id, rule: r })) ??
      tree.remembered.rules(profileId()).map((r) => ({ id: r.id, rule: r.record }))
    ).map((ref) => ({
      label: nameOf(ref),
      description: ref.rule
        ? `${metricLabel(ref.rule.metric)} ${ref.rule.operator} ${formatAmount(ref.rule.metric, ref.rule.threshold_value)} · ${windowWords(ref.rule.window_duration)}${ref.rule.enabled ? '' : ` · ${vscode.l10n.t('disabled')}`}`
        : vscode.l10n.t('added by id'),
      detail: ref.id,
      ref,
    }));
    if (rules?.length === 0)
      throw new UserFacingError(
        vscode.l10n.t('This account has no alert rules yet. Create one with Agent Workbench: Create Alert Rule.'),
      );
    // Where the platform does not list rules, any rule is reachable by its id.
    if (!rules) choices.push({ label: typeId, description: vscode.l10n.t('the id from the studio, ar_…') });
    const pick = await prompts.pick(choices, { placeHolder, matchOnDescription: true, matchOnDetail: true });
    if (!pick) return undefined;
    if (pick.ref) return pick.ref;
    const typed = await askRuleId();
    return typed === undefined ? undefined : ruleById(typed);
  }

  function askRuleId(): Thenable<string | undefined> {
    const pattern = platformContract().alertsContract.ALERT_RULE_ID_PATTERN;
    return prompts
      .input({
        title: vscode.l10n.t('Alert rule id'),
        prompt: vscode.l10n.t('The id of the alert rule, as the studio shows it (ar_ followed by letters and digits)'),
        validateInput: (v) =>
          pattern.test(v.trim()) ? undefined : vscode.l10n.t('An alert rule id is ar_ followed by letters and digits.'),
      })
      .then((v) => v?.trim());
  }

  /** Keeps a rule the platform answered with, so the view shows it where the platform does not list rules. */
  async function remember(rule: AlertRule): Promise<void> {
    await tree.remembered.keepRule(profileId(), rule.id, rule);
  }

  /** Adds a rule to the view by its id, without reading it (the spec shows no read of one rule). */
  async function addRuleById(id?: string): Promise<string | undefined> {
    requireClients(connection);
    const typed = id?.trim() ?? (await askRuleId());
    if (!typed) return undefined;
    if (!platformContract().alertsContract.ALERT_RULE_ID_PATTERN.test(typed))
      throw new UserFacingError(
        vscode.l10n.t('"{0}" is not an alert rule id: ar_ followed by letters and digits. Nothing was added.', typed),
      );
    await tree.remembered.keepRule(profileId(), typed);
    await tree.refresh();
    return typed;
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
      await remember(created);
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

  /** A flat PATCH by id: nothing is read first. */
  async function save(ref: RuleRef, change: UpdateAlertRuleRequest, verb: string): Promise<AlertRule> {
    const client = requireClients(connection).alerts;
    const saved = await withProgress(vscode.l10n.t('{0} alert rule {1}…', verb, nameOf(ref)), (signal) =>
      client.updateRule(ref.id, change, signal),
    );
    await remember(saved);
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
    const ref = await resolveRule(arg, vscode.l10n.t('Alert rule to edit'));
    if (!ref) return undefined;
    const rule = ref.rule;
    let next: ReturnType<typeof checkRuleFields>;
    if (fields)
      next = checkRuleFields(
        fields,
        rule ? known(platformContract().alertsContract.ALERT_METRICS, rule.metric) : undefined,
      );
    else {
      const prompted = await promptRule(
        vscode.l10n.t('Edit Alert Rule {0}', nameOf(ref)),
        rule ? await projectNames(ctx.profile.projectId, rule) : { profile: ctx.profile.projectId },
        rule,
      );
      if (!prompted) return undefined;
      next = prompted;
    }
    // A rule not known here: every field given is sent (the platform keeps what is not named).
    const change = rule ? changedFields(rule, next) : next;
    if (Object.keys(change).length === 0) {
      void prompts.info(vscode.l10n.t('Alert rule "{0}" is unchanged: nothing was sent.', nameOf(ref)));
      return rule;
    }
    const saved = await save(ref, change, vscode.l10n.t('Saving'));
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
    const ref = await resolveRule(
      arg,
      enabled ? vscode.l10n.t('Alert rule to enable') : vscode.l10n.t('Alert rule to disable'),
    );
    if (!ref) return undefined;
    if (ref.rule?.enabled === enabled) {
      void prompts.info(
        enabled
          ? vscode.l10n.t('Alert rule "{0}" is already enabled.', ref.rule.name)
          : vscode.l10n.t('Alert rule "{0}" is already disabled.', ref.rule.name),
      );
      return ref.rule;
    }
    const saved = await save(ref, { enabled }, enabled ? vscode.l10n.t('Enabling') : vscode.l10n.t('Disabling'));
    void prompts.info(
      enabled
        ? vscode.l10n.t('Alert rule "{0}" enabled: it is evaluated again and reports OK until then.', saved.name)
        : vscode.l10n.t('Alert rule "{0}" disabled: it is not evaluated and sends no notifications.', saved.name),
    );
    return saved;
  }

  async function deleteRule(arg?: RuleArg): Promise<boolean | undefined> {
    const ref = await resolveRule(arg, vscode.l10n.t('Alert rule to delete'));
    if (!ref) return undefined;
    const go = vscode.l10n.t('Delete');
    const answer = await prompts.ask(
      vscode.l10n.t('Delete alert rule "{0}"?', nameOf(ref)),
      {
        detail: vscode.l10n.t(
          '{0} The rule stops watching at once and cannot be restored; no notification is sent.',
          ref.rule ? ruleSentence(ref.rule) : vscode.l10n.t('Rule {0}.', ref.id),
        ),
      },
      go,
    );
    if (answer !== go) return false;
    const client = requireClients(connection).alerts;
    await withProgress(vscode.l10n.t('Deleting alert rule {0}…', nameOf(ref)), (signal) =>
      client.deleteRule(ref.id, signal),
    );
    await tree.remembered.forget(profileId(), 'rules', ref.id);
    tree.model()?.invalidateRules();
    void prompts.info(vscode.l10n.t('Alert rule "{0}" deleted.', nameOf(ref)));
    return true;
  }

  /** Takes a rule or endpoint known here off the view (it is not deleted on the platform). */
  async function removeFromView(node?: TreeNode): Promise<boolean> {
    const rule = node instanceof RuleNode ? node.rule.id : node instanceof TypedRuleNode ? node.ruleId : undefined;
    const endpoint =
      node instanceof EndpointNode ? node.endpoint.id : node instanceof TypedEndpointNode ? node.endpointId : undefined;
    if (rule === undefined && endpoint === undefined) return false;
    if (rule !== undefined) await tree.remembered.forget(profileId(), 'rules', rule);
    if (endpoint !== undefined) await tree.remembered.forget(profileId(), 'endpoints', endpoint);
    await tree.refresh();
    return true;
  }

  return vscode.Disposable.from(
    // A refresh the person asks for asks again even the lists the platform said it does not have.
    vscode.commands.registerCommand(Command.refreshAlerts, () => {
      tree.model()?.forgetMissing();
      return tree.refresh();
    }),
    vscode.commands.registerCommand(
      Command.refreshAlertsNode,
      (node?: TreeNode | 'rules' | 'current' | 'endpoints') => {
        tree.model()?.forgetMissing();
        return typeof node === 'string' ? tree.refreshGroup(node) : tree.refreshNode(node);
      },
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
    vscode.commands.registerCommand(Command.addAlertRuleById, (id?: string) =>
      runCommand(() => addRuleById(typeof id === 'string' ? id : undefined)),
    ),
    vscode.commands.registerCommand(Command.removeFromAlertsView, (node?: TreeNode) =>
      runCommand(() => removeFromView(node)),
    ),
  );
}
