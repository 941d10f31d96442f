import * as vscode from 'vscode';
import type { AlertRule, CreateAlertRuleRequest, UpdateAlertRuleRequest } from '../../contract/alerts';
import { platformContract } from '../model/platformClients';
import type { AlertsModel } from '../model/alertsModel';
import type { ProfileModels } from '../model/profileModels';
import { CurrentAlertNode } from '../explorer/alerts/alertNodes';
import { EndpointNode } from '../explorer/alerts/endpointNodes';
import { RuleNode } from '../explorer/alerts/ruleNodes';
import type { AlertsTree } from '../explorer/alerts/alertsTree';
import { TreeNode } from '../explorer/treeNode';
import {
  type AlertRuleFields,
  changedFields,
  type RuleDraft,
  checkRuleFields,
  known,
  type ProjectNames,
  promptRule,
  ruleFieldWords,
  ruleSentence,
} from './alertRuleInput';
import { formatAmount, metricLabel, windowWords } from '../common/alertFormat';
import { isPlatformError } from '../common/failure';
import { requireModel, runCommand, untilAborted, UserFacingError, withProgress } from '../common/commandSupport';
import { Command } from '../ids';
import { prompts } from '../common/prompts';

/** A rule given by a tree node (a rule or a firing alert), by id (palette, automation), or picked. */
export type RuleArg = RuleNode | CurrentAlertNode | { ruleId: string } | string | undefined;

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
export function registerAlertCommands(models: ProfileModels<object>, tree: AlertsTree): vscode.Disposable {
  /** The alerts model of the active profile, which makes every write. */
  const alerts = (): AlertsModel => requireModel(models).alerts;

  /**
   * What the person typed into a rule flow whose write failed, by profile and rule (`new` for a creation): the next
   * Create (or Edit of that rule) opens with it, so nothing typed is lost. Sent, or the reopened flow left with
   * Escape, it goes.
   */
  const typed = new Map<string, UpdateAlertRuleRequest>();
  const typedKey = (ruleId: string | undefined): string => `${alerts().source.profileId}:${ruleId ?? 'new'}`;
  const keepTyped = (ruleId: string | undefined, fields: UpdateAlertRuleRequest) => (err: unknown) => {
    // A write the platform took (2xx, its answer in JSON) is done: nothing to type again.
    if (isPlatformError(err) && err.kind === 'acceptedUnreadable' && !err.toldMayHaveActed) return undefined;
    typed.set(typedKey(ruleId), fields);
    return ruleId === undefined
      ? vscode.l10n.t('What you typed is kept: Create Alert Rule opens with it.')
      : vscode.l10n.t('What you typed is kept: Edit Alert Rule opens with it for this rule.');
  };
  /** Asks with what was typed before, when there is some; forgets it when the person leaves the flow. */
  async function promptKept(
    ruleId: string | undefined,
    ask: (kept: UpdateAlertRuleRequest | undefined) => Promise<RuleDraft | undefined>,
  ): Promise<RuleDraft | undefined> {
    const key = typedKey(ruleId);
    const kept = typed.get(key);
    const answered = await ask(kept);
    if (!answered) typed.delete(key);
    return answered;
  }

  function refuseAtLimit(): void {
    const max = platformContract().alertsContract.ALERT_RULES_MAX;
    const known = alerts().rules.peek()?.length;
    if (known !== undefined && known >= max) throw new UserFacingError(limitMessage(max));
  }

  /** A rule by id, as the loaded list or an earlier answer here knows it; never read from the platform (not shown). */
  function ruleById(id: string): RuleRef {
    return { id, rule: alerts().rule(id) };
  }

  async function resolveRule(arg: RuleArg, placeHolder: string): Promise<RuleRef | undefined> {
    if (arg instanceof RuleNode)
      return arg.rule.record ? { id: arg.rule.id, rule: arg.rule.record } : ruleById(arg.rule.id);
    const id = arg instanceof CurrentAlertNode ? arg.alert.rule_id : typeof arg === 'string' ? arg : arg?.ruleId;
    if (id !== undefined) return ruleById(id);
    const model = alerts();
    // The rules the view holds (listed, or kept here where the platform lists none); read once for both otherwise.
    const known =
      model.knownRules.peek() ??
      (await withProgress(vscode.l10n.t('Loading alert rules…'), (signal) =>
        untilAborted(model.knownRules.get(), signal),
      ));
    const listed = known.notListed === undefined;
    const typeId = vscode.l10n.t('Enter a Rule Id…');
    const choices: Array<vscode.QuickPickItem & { ref?: RuleRef }> = known.items
      .map((r) => ({ id: r.id, rule: r.record }))
      .map((ref) => ({
        label: nameOf(ref),
        description: ref.rule
          ? `${metricLabel(ref.rule.metric)} ${ref.rule.operator} ${formatAmount(ref.rule.metric, ref.rule.threshold_value)} · ${windowWords(ref.rule.window_duration)}${ref.rule.enabled ? '' : ` · ${vscode.l10n.t('disabled')}`}`
          : vscode.l10n.t('added by id'),
        detail: ref.id,
        ref,
      }));
    if (listed && known.items.length === 0)
      throw new UserFacingError(
        vscode.l10n.t('This account has no alert rules yet. Create one with Agent Workbench: Create Alert Rule.'),
      );
    // Where the platform does not list rules, any rule is reachable by its id.
    if (!listed) choices.push({ label: typeId, description: vscode.l10n.t('the id from the studio, ar_…') });
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

  /** Adds a rule to the view by its id, without reading it (the spec shows no read of one rule). */
  async function addRuleById(id?: string): Promise<string | undefined> {
    const model = alerts();
    const typed = id?.trim() ?? (await askRuleId());
    if (!typed) return undefined;
    if (!platformContract().alertsContract.ALERT_RULE_ID_PATTERN.test(typed))
      throw new UserFacingError(
        vscode.l10n.t('"{0}" is not an alert rule id: ar_ followed by letters and digits. Nothing was added.', typed),
      );
    await model.add('rules', typed);
    return typed;
  }

  /** The rule to create, from the caller's fields or the multi-step input; checked, or undefined when cancelled. */
  async function askNewRule(args?: AlertRuleFields): Promise<CreateAlertRuleRequest | undefined> {
    const projectId = alerts().source.projectId;
    refuseAtLimit();
    if (!args)
      return promptKept(undefined, (kept) =>
        promptRule(vscode.l10n.t('Create Alert Rule'), { profile: projectId }, undefined, kept),
      );
    const checked = checkRuleFields({
      ...args,
      project_id: args.project_id === undefined ? projectId : args.project_id,
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
    const model = alerts();
    try {
      const created = await withProgress(vscode.l10n.t('Creating alert rule {0}…', draft.name), (signal) =>
        model.createRule(draft, signal),
      );
      typed.delete(typedKey(undefined));
      void prompts.info(
        vscode.l10n.t(
          'Alert rule "{0}" created ({1}). It reports OK until its first evaluation.',
          created.name,
          created.id,
        ),
      );
      return created;
    } catch (err) {
      if (isPlatformError(err) && err.status === 409)
        throw new UserFacingError(limitMessage(platformContract().alertsContract.ALERT_RULES_MAX, err.serverMessage));
      throw err;
    }
  }

  /** A creation is sent once (a repeat could make a second rule); a transient failure offers Retry with the same rule. */
  async function createRule(args?: AlertRuleFields): Promise<AlertRule | undefined> {
    const draft = await askNewRule(args);
    if (!draft) return undefined;
    // Typed by the person (not given by a caller): kept when the write fails.
    const kept = args ? undefined : keepTyped(undefined, draft);
    const attempt = (): Promise<AlertRule | undefined> =>
      runCommand(() => sendNewRule(draft), { retry: attempt, ...(kept ? { kept } : {}) });
    return attempt();
  }

  /** A flat PATCH by id: nothing is read first. */
  async function save(ref: RuleRef, change: UpdateAlertRuleRequest, verb: string): Promise<AlertRule> {
    const model = alerts();
    return withProgress(vscode.l10n.t('{0} alert rule {1}…', verb, nameOf(ref)), (signal) =>
      model.updateRule(ref.id, change, signal),
    );
  }

  /**
   * The profile's project, and the name the rule gives it when that is the same project under its other
   * name (slug or prefixed id): the platform says so by listing the rule among the project's rules.
   */
  async function projectNames(profileProject: string, rule: AlertRule): Promise<ProjectNames> {
    if (rule.project_id === null || rule.project_id === profileProject) return { profile: profileProject };
    try {
      const model = alerts();
      const ofProject = await withProgress(vscode.l10n.t('Reading alert rule {0}…', rule.name), (signal) =>
        model.rulesOfProject(profileProject, signal),
      );
      return ofProject.some((r) => r.id === rule.id && r.project_id === rule.project_id)
        ? { profile: profileProject, sameAs: rule.project_id }
        : { profile: profileProject };
    } catch {
      // Not knowing only shows the project twice; the edit itself goes on.
      return { profile: profileProject };
    }
  }

  /** `failed.kept` is set once there is something typed to keep, should the save fail. */
  async function editRule(
    arg: RuleArg,
    fields: AlertRuleFields | undefined,
    failed: { kept?: (err: unknown) => string | undefined },
  ): Promise<AlertRule | undefined> {
    const projectId = alerts().source.projectId;
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
      const names = rule ? await projectNames(projectId, rule) : { profile: projectId };
      const prompted = await promptKept(ref.id, (kept) =>
        promptRule(vscode.l10n.t('Edit Alert Rule {0}', nameOf(ref)), names, rule, kept),
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
    // Typed in the flow (not given by a caller): kept if the save fails, and the failure's message says so.
    if (!fields) failed.kept = keepTyped(ref.id, next);
    const saved = await save(ref, change, vscode.l10n.t('Saving'));
    typed.delete(typedKey(ref.id));
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
    const model = alerts();
    await withProgress(vscode.l10n.t('Deleting alert rule {0}…', nameOf(ref)), (signal) =>
      model.deleteRule(ref.id, signal),
    );
    void prompts.info(vscode.l10n.t('Alert rule "{0}" deleted.', nameOf(ref)));
    return true;
  }

  /** Takes a rule or endpoint known here off the view (it is not deleted on the platform). */
  async function removeFromView(node?: TreeNode): Promise<boolean> {
    const model = alerts();
    if (node instanceof RuleNode) await model.forget('rules', node.rule.id);
    else if (node instanceof EndpointNode) await model.forget('endpoints', node.endpoint.id);
    else return false;
    return true;
  }

  return vscode.Disposable.from(
    // A refresh the person asks for asks again even the lists the platform said it does not have.
    vscode.commands.registerCommand(Command.refreshAlerts, () => {
      models.active()?.alerts.forgetMissing();
      return tree.refresh();
    }),
    vscode.commands.registerCommand(
      Command.refreshAlertsNode,
      (node?: TreeNode | 'rules' | 'current' | 'endpoints') => {
        models.active()?.alerts.forgetMissing();
        return typeof node === 'string' ? tree.refreshGroup(node) : tree.refreshNode(node);
      },
    ),
    vscode.commands.registerCommand(Command.createAlertRule, (args?: AlertRuleFields | TreeNode) =>
      runCommand(() => createRule(args instanceof TreeNode ? undefined : args)),
    ),
    vscode.commands.registerCommand(Command.editAlertRule, (arg?: RuleArg, fields?: AlertRuleFields) => {
      const failed: { kept?: (err: unknown) => string | undefined } = {};
      return runCommand(() => editRule(arg, fields, failed), { kept: (err) => failed.kept?.(err) });
    }),
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
