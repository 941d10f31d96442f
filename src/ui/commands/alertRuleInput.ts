import * as vscode from 'vscode';
import type {
  AlertMetric,
  AlertOperator,
  AlertRule,
  AlertWindowDuration,
  CreateAlertRuleRequest,
  UpdateAlertRuleRequest,
} from '../../contract/alerts';
import { clientRuntime } from '../clientRuntime';
import { MultiStepInput } from '../common/multiStep';
import { metricExplained, metricLabel, operatorWords, unitExplained } from '../explorer/alerts/alertFormat';
import { UserFacingError } from './commandSupport';

/** Fields of an alert rule as a caller (automation, tests) gives them: the API's own names. */
export interface AlertRuleFields {
  name?: string;
  /** null watches the whole account; absent on create means the active profile's project. */
  project_id?: string | null;
  metric?: string;
  operator?: string;
  /** A non-negative integer (a string of digits is accepted too). */
  threshold_value?: number | string;
  window_duration?: string;
  enabled?: boolean;
}

/** A complete rule definition, checked. */
export type RuleDraft = Omit<CreateAlertRuleRequest, 'enabled'>;

const PROJECT_ID = /^(?:PROJECT-[A-Za-z0-9]+|[A-Za-z0-9][A-Za-z0-9_-]*)$/;

function contract() {
  return clientRuntime().alertsContract;
}

export function checkRuleName(value: string): string | undefined {
  const { ALERT_RULE_NAME_MIN, ALERT_RULE_NAME_MAX } = contract();
  const n = value.trim().length;
  return n < ALERT_RULE_NAME_MIN || n > ALERT_RULE_NAME_MAX
    ? vscode.l10n.t(
        'An alert rule name has {0} to {1} characters (now {2}).',
        ALERT_RULE_NAME_MIN,
        ALERT_RULE_NAME_MAX,
        n,
      )
    : undefined;
}

/** A threshold is a whole number of 0 or more, in the metric's unit. */
export function checkThreshold(value: string | number, metric?: AlertMetric): string | undefined {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const ok =
    typeof value === 'number'
      ? Number.isSafeInteger(value) && value >= 0
      : /^\d+$/.test(text) && Number.isSafeInteger(Number(text));
  if (ok) return undefined;
  const unit = metric ? unitExplained(metric) : vscode.l10n.t("the metric's unit");
  return vscode.l10n.t('The threshold is a whole number of 0 or more ({0}); "{1}" is not.', unit, text);
}

export function checkProjectId(value: string): string | undefined {
  return PROJECT_ID.test(value.trim())
    ? undefined
    : vscode.l10n.t('A project id is a slug (letters, digits, - and _) or the prefixed form PROJECT-xxxxxxxx.');
}

function checkChoice(field: string, value: string, allowed: readonly string[]): string | undefined {
  return allowed.includes(value)
    ? undefined
    : vscode.l10n.t('{0} must be one of {1} (not "{2}").', field, allowed.join(', '), value);
}

/**
 * Checks the fields a caller gave, all of them at once, and returns them in the API's types.
 * Throws one error naming every problem: nothing is sent on bad input.
 */
export function checkRuleFields(fields: AlertRuleFields, metricForUnit?: AlertMetric): UpdateAlertRuleRequest {
  const { ALERT_METRICS, ALERT_OPERATORS, ALERT_WINDOW_DURATIONS } = contract();
  const problems: string[] = [];
  const out: UpdateAlertRuleRequest = {};
  if (fields.name !== undefined) {
    const p = typeof fields.name === 'string' ? checkRuleName(fields.name) : vscode.l10n.t('The name must be text.');
    if (p) problems.push(p);
    else out.name = fields.name.trim();
  }
  if (fields.project_id !== undefined) {
    if (fields.project_id === null) out.project_id = null;
    else {
      const p =
        typeof fields.project_id === 'string'
          ? checkProjectId(fields.project_id)
          : vscode.l10n.t('project_id must be a project id or null (account-wide).');
      if (p) problems.push(p);
      else out.project_id = fields.project_id.trim();
    }
  }
  if (fields.metric !== undefined) {
    const p = checkChoice('metric', String(fields.metric), ALERT_METRICS);
    if (p) problems.push(p);
    else out.metric = fields.metric as AlertMetric;
  }
  if (fields.operator !== undefined) {
    const p = checkChoice('operator', String(fields.operator), ALERT_OPERATORS);
    if (p) problems.push(p);
    else out.operator = fields.operator as AlertOperator;
  }
  if (fields.threshold_value !== undefined) {
    const v = fields.threshold_value;
    const p =
      typeof v === 'number' || typeof v === 'string'
        ? checkThreshold(v, out.metric ?? metricForUnit)
        : vscode.l10n.t('The threshold is a whole number of 0 or more.');
    if (p) problems.push(p);
    else out.threshold_value = Number(v);
  }
  if (fields.window_duration !== undefined) {
    const p = checkChoice('window_duration', String(fields.window_duration), ALERT_WINDOW_DURATIONS);
    if (p) problems.push(p);
    else out.window_duration = fields.window_duration as AlertWindowDuration;
  }
  if (fields.enabled !== undefined) {
    if (typeof fields.enabled !== 'boolean') problems.push(vscode.l10n.t('enabled must be true or false.'));
    else out.enabled = fields.enabled;
  }
  if (problems.length) throw new UserFacingError(`${problems.join(' ')} ${vscode.l10n.t('Nothing was sent.')}`);
  return out;
}

/** The fields of `next` that differ from `rule`: what an edit sends (a PATCH of only the changes). */
export function changedFields(rule: AlertRule, next: UpdateAlertRuleRequest): UpdateAlertRuleRequest {
  const change: UpdateAlertRuleRequest = {};
  for (const key of contract().ALERT_RULE_WRITABLE_FIELDS) {
    const value = next[key];
    if (value !== undefined && value !== rule[key]) Object.assign(change, { [key]: value });
  }
  return change;
}

interface Item<T> extends vscode.QuickPickItem {
  value: T;
}

/**
 * Asks for a whole rule, step by step with Back: name, scope, metric (with its unit), operator,
 * threshold (checked as typed) and window. Starts from `initial` when editing.
 */
/** A value of a rule as answered, when it is one this extension offers; otherwise the person chooses again. */
export function known<T extends string>(values: readonly T[], value: string): T | undefined {
  return (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

export async function promptRule(
  title: string,
  profileProjectId: string,
  initial?: AlertRule,
): Promise<RuleDraft | undefined> {
  const { ALERT_METRICS, ALERT_OPERATORS, ALERT_WINDOW_DURATIONS } = contract();
  const draft: Partial<RuleDraft> = initial
    ? {
        name: initial.name,
        project_id: initial.project_id,
        metric: known(ALERT_METRICS, initial.metric),
        operator: known(ALERT_OPERATORS, initial.operator),
        threshold_value: initial.threshold_value ?? undefined,
        window_duration: known(ALERT_WINDOW_DURATIONS, initial.window_duration),
      }
    : { project_id: profileProjectId, operator: '>', window_duration: '10m' };
  const other = Symbol('another project');
  const result = await MultiStepInput.run<Partial<RuleDraft>>(6, draft, [
    async (input, d) => {
      d.name = await input.text({
        title,
        prompt: vscode.l10n.t('Name of the alert rule'),
        value: d.name,
        validate: checkRuleName,
      });
      return 1;
    },
    async (input, d) => {
      const items: Array<Item<string | null | typeof other>> = [
        {
          label: vscode.l10n.t('This project'),
          description: profileProjectId,
          detail: vscode.l10n.t('Watch the project of the active connection profile'),
          value: profileProjectId,
        },
        {
          label: vscode.l10n.t('Account-wide'),
          detail: vscode.l10n.t('Watch every project of the account together'),
          value: null,
        },
      ];
      if (typeof d.project_id === 'string' && d.project_id !== profileProjectId)
        items.push({
          label: vscode.l10n.t('Project {0}', d.project_id),
          description: vscode.l10n.t('current'),
          value: d.project_id,
        });
      items.push({
        label: vscode.l10n.t('Another project…'),
        detail: vscode.l10n.t('Type a project id (slug or PROJECT-xxxxxxxx)'),
        value: other,
      });
      const picked = await input.pick({
        title,
        placeholder: vscode.l10n.t('What the rule watches'),
        items,
        active: items.find((i) => i.value === d.project_id),
      });
      if (picked.value === other) return 2;
      d.project_id = picked.value;
      return 3;
    },
    async (input, d) => {
      d.project_id = await input.text({
        title,
        prompt: vscode.l10n.t('Project id (slug or PROJECT-xxxxxxxx) of this account'),
        value: typeof d.project_id === 'string' ? d.project_id : '',
        validate: checkProjectId,
      });
      return 3;
    },
    async (input, d) => {
      const items: Array<Item<AlertMetric>> = ALERT_METRICS.map((m) => ({
        label: metricLabel(m),
        description: m,
        detail: metricExplained(m),
        value: m,
      }));
      d.metric = (
        await input.pick({
          title,
          placeholder: vscode.l10n.t('Metric to watch'),
          items,
          active: items.find((i) => i.value === d.metric),
        })
      ).value;
      return 4;
    },
    async (input, d) => {
      const items: Array<Item<AlertOperator>> = ALERT_OPERATORS.map((o) => ({
        label: o,
        description: vscode.l10n.t('fire when the metric is {0} the threshold', operatorWords(o)),
        value: o,
      }));
      d.operator = (
        await input.pick({
          title,
          placeholder: vscode.l10n.t('When does the rule fire?'),
          items,
          active: items.find((i) => i.value === d.operator),
        })
      ).value;
      return 5;
    },
    async (input, d) => {
      const metric = d.metric!;
      const text = await input.text({
        title,
        prompt: vscode.l10n.t(
          'Threshold for {0}, in {1}: the rule fires when the metric is {2} it',
          metricLabel(metric),
          unitExplained(metric),
          operatorWords(d.operator!),
        ),
        value: d.threshold_value === undefined ? '' : String(d.threshold_value),
        validate: (v) => checkThreshold(v, metric),
      });
      d.threshold_value = Number(text);
      return 6;
    },
    async (input, d) => {
      const labels: Record<AlertWindowDuration, string> = {
        '5m': vscode.l10n.t('5 minutes'),
        '10m': vscode.l10n.t('10 minutes'),
        '60m': vscode.l10n.t('60 minutes'),
      };
      const items: Array<Item<AlertWindowDuration>> = ALERT_WINDOW_DURATIONS.map((w) => ({
        label: w,
        description: labels[w],
        value: w,
      }));
      d.window_duration = (
        await input.pick({
          title,
          placeholder: vscode.l10n.t('Evaluation window: the metric is measured over this span'),
          items,
          active: items.find((i) => i.value === d.window_duration),
        })
      ).value;
      return 'done';
    },
  ]);
  return result as RuleDraft | undefined;
}
