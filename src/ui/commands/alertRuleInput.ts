import * as vscode from 'vscode';
import type {
  AlertMetric,
  AlertOperator,
  AlertRule,
  AlertWindowDuration,
  CreateAlertRuleRequest,
  UpdateAlertRuleRequest,
} from '../../contract/alerts';
import { platformContract } from '../model/platformClients';
import { MultiStepInput } from '../common/multiStep';
import {
  formatAmount,
  metricExplained,
  metricLabel,
  operatorWords,
  scopeLabel,
  unitExplained,
  windowWords,
} from '../common/alertFormat';
import { UserFacingError } from '../common/commandSupport';
import { parseWholeNumber } from '../common/numbers';

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
  return platformContract().alertsContract;
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

/** A threshold as typed or given: a whole number of 0 or more, digits grouped as the view shows them allowed. */
export function thresholdOf(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  return parseWholeNumber(value, vscode.env.language);
}

/** A threshold is a whole number of 0 or more, in the metric's unit. */
export function checkThreshold(value: string | number, metric?: AlertMetric): string | undefined {
  if (thresholdOf(value) !== undefined) return undefined;
  const text = typeof value === 'number' ? String(value) : value.trim();
  const unit = metric ? unitExplained(metric) : vscode.l10n.t("the metric's unit");
  return vscode.l10n.t('The threshold is a whole number of 0 or more ({0}); "{1}" is not.', unit, text);
}

export function checkProjectId(value: string): string | undefined {
  return PROJECT_ID.test(value.trim())
    ? undefined
    : vscode.l10n.t('A project id is a slug (letters, digits, - and _) or the prefixed form PROJECT-xxxxxxxx.');
}

/** The fields of a rule in a person's words, for messages ("threshold" for threshold_value). */
export function ruleFieldWords(field: keyof UpdateAlertRuleRequest): string {
  switch (field) {
    case 'name':
      return vscode.l10n.t('name');
    case 'project_id':
      return vscode.l10n.t('scope');
    case 'metric':
      return vscode.l10n.t('metric');
    case 'operator':
      return vscode.l10n.t('comparison');
    case 'threshold_value':
      return vscode.l10n.t('threshold');
    case 'window_duration':
      return vscode.l10n.t('window');
    case 'enabled':
      return vscode.l10n.t('on or off');
  }
}

function checkChoice(what: string, value: string, allowed: ReadonlyArray<{ value: string; words: string }>) {
  return allowed.some((a) => a.value === value)
    ? undefined
    : vscode.l10n.t(
        'The {0} must be one of {1} (not "{2}").',
        what,
        allowed.map((a) => (a.words === a.value ? a.value : `${a.words} (${a.value})`)).join(', '),
        value,
      );
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
          : vscode.l10n.t('The scope must be a project id, or null to watch the whole account.');
      if (p) problems.push(p);
      else out.project_id = fields.project_id.trim();
    }
  }
  if (fields.metric !== undefined) {
    const p = checkChoice(
      vscode.l10n.t('metric'),
      String(fields.metric),
      ALERT_METRICS.map((m) => ({ value: m, words: metricLabel(m) })),
    );
    if (p) problems.push(p);
    else out.metric = fields.metric as AlertMetric;
  }
  if (fields.operator !== undefined) {
    const p = checkChoice(
      vscode.l10n.t('comparison'),
      String(fields.operator),
      ALERT_OPERATORS.map((o) => ({ value: o, words: o })),
    );
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
    else out.threshold_value = thresholdOf(v as string | number)!;
  }
  if (fields.window_duration !== undefined) {
    const p = checkChoice(
      vscode.l10n.t('evaluation window'),
      String(fields.window_duration),
      ALERT_WINDOW_DURATIONS.map((w) => ({ value: w, words: windowWords(w) })),
    );
    if (p) problems.push(p);
    else out.window_duration = fields.window_duration as AlertWindowDuration;
  }
  if (fields.enabled !== undefined) {
    if (typeof fields.enabled !== 'boolean')
      problems.push(vscode.l10n.t('Whether the rule is enabled must be true or false.'));
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

/** A value of a rule as answered, when it is one this extension offers; otherwise the person chooses again. */
export function known<T extends string>(values: readonly T[], value: string): T | undefined {
  return (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** How the project of the active profile is named where a rule names it otherwise (slug or prefixed id). */
export interface ProjectNames {
  /** The project of the active connection profile, as the profile names it. */
  profile: string;
  /** The same project as the rule being edited names it, when the platform says they are one. */
  sameAs?: string;
}

// The steps of the rule flow, by index.
const NAME = 0;
const SCOPE = 1;
const PROJECT = 2;
const METRIC = 3;
const OPERATOR = 4;
const THRESHOLD = 5;
const WINDOW = 6;
const REVIEW = 7;

/**
 * Asks for a whole rule, step by step with Back: name, scope, metric (with its unit), operator,
 * threshold (checked as typed, grouped digits allowed), window, then a review of the whole rule, from
 * which any field can be changed before it is sent. Starts from `initial` when editing, and with `typed` over it:
 * what the person typed before, when sending it failed.
 */
export async function promptRule(
  title: string,
  project: ProjectNames,
  initial?: AlertRule,
  typed?: UpdateAlertRuleRequest,
): Promise<RuleDraft | undefined> {
  const { ALERT_METRICS, ALERT_OPERATORS, ALERT_WINDOW_DURATIONS } = contract();
  const thisProject = project.sameAs ?? project.profile;
  const draft: Partial<RuleDraft> = {
    ...(initial
      ? {
          name: initial.name,
          project_id: initial.project_id,
          metric: known(ALERT_METRICS, initial.metric),
          operator: known(ALERT_OPERATORS, initial.operator),
          threshold_value: initial.threshold_value ?? undefined,
          window_duration: known(ALERT_WINDOW_DURATIONS, initial.window_duration),
        }
      : { project_id: project.profile, operator: '>', window_duration: '10m' }),
    ...withoutEnabled(typed),
  };
  const other = Symbol('another project');
  /** Once at the review, a change to one field returns to the review. */
  let reviewing = false;
  const then = (next: number): number => (reviewing ? REVIEW : next);
  const format = (n: number | undefined): string => (n === undefined ? '' : n.toLocaleString(vscode.env.language));
  const steps: Array<(input: MultiStepInput, d: Partial<RuleDraft>) => Promise<number | 'done'>> = [];
  steps[NAME] = async (input, d) => {
    d.name = await input.text({
      title,
      prompt: vscode.l10n.t('Name of the alert rule'),
      value: d.name,
      validate: checkRuleName,
    });
    return then(SCOPE);
  };
  steps[SCOPE] = async (input, d) => {
    const items: Array<Item<string | null | typeof other>> = [
      {
        label: vscode.l10n.t('This project'),
        description:
          project.sameAs && project.sameAs !== project.profile
            ? `${project.profile} · ${project.sameAs}`
            : project.profile,
        detail: vscode.l10n.t('Watch the project of the active connection profile'),
        value: thisProject,
      },
      {
        label: vscode.l10n.t('Account-wide'),
        detail: vscode.l10n.t('Watch every project of the account together'),
        value: null,
      },
    ];
    if (typeof d.project_id === 'string' && d.project_id !== thisProject)
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
    if (picked.value === other) return PROJECT;
    d.project_id = picked.value;
    return then(METRIC);
  };
  steps[PROJECT] = async (input, d) => {
    d.project_id = await input.text({
      title,
      prompt: vscode.l10n.t('Project id (slug or PROJECT-xxxxxxxx) of this account'),
      value: typeof d.project_id === 'string' && d.project_id !== thisProject ? d.project_id : '',
      validate: checkProjectId,
    });
    return then(METRIC);
  };
  steps[METRIC] = async (input, d) => {
    const items: Array<Item<AlertMetric>> = ALERT_METRICS.map((m) => ({
      label: metricLabel(m),
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
    // A new metric may have another unit: its threshold is asked again.
    return reviewing ? THRESHOLD : OPERATOR;
  };
  steps[OPERATOR] = async (input, d) => {
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
    // The comparison and the threshold are one condition: the threshold is asked next, also from the review.
    return THRESHOLD;
  };
  steps[THRESHOLD] = async (input, d) => {
    const metric = d.metric!;
    const text = await input.text({
      title,
      prompt: vscode.l10n.t(
        'Threshold for {0}, in {1}: the rule fires when the metric is {2} it',
        metricLabel(metric),
        unitExplained(metric),
        operatorWords(d.operator!),
      ),
      value: format(d.threshold_value),
      validate: (v) => checkThreshold(v, metric),
    });
    d.threshold_value = thresholdOf(text);
    return then(WINDOW);
  };
  steps[WINDOW] = async (input, d) => {
    const items: Array<Item<AlertWindowDuration>> = ALERT_WINDOW_DURATIONS.map((w) => ({
      label: windowWords(w),
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
    return REVIEW;
  };
  steps[REVIEW] = async (input, d) => {
    reviewing = true;
    const go: Item<number | 'done'> = {
      label: initial ? vscode.l10n.t('$(check) Save Changes') : vscode.l10n.t('$(check) Create Rule'),
      detail: ruleSentence(d as RuleDraft),
      value: 'done',
    };
    const field = (label: string, description: string, value: number): Item<number | 'done'> => ({
      label,
      description,
      value,
    });
    const items = [
      go,
      field(vscode.l10n.t('Name'), d.name!, NAME),
      field(vscode.l10n.t('Watches'), scopeLabel(d.project_id ?? null), SCOPE),
      field(vscode.l10n.t('Metric'), metricLabel(d.metric!), METRIC),
      field(
        vscode.l10n.t('Fires when'),
        `${operatorWords(d.operator!)} ${formatAmount(d.metric!, d.threshold_value)}`,
        OPERATOR,
      ),
      field(vscode.l10n.t('Window'), windowWords(d.window_duration!), WINDOW),
    ];
    const picked = await input.pick({
      title,
      placeholder: initial
        ? vscode.l10n.t('Save the rule as shown, or choose a field to change')
        : vscode.l10n.t('Create the rule as shown, or choose a field to change'),
      items,
      active: go,
    });
    return picked.value;
  };
  // Eight steps, numbered by their place: the project id is typed only for another project, so the counter goes
  // from 2/8 to 4/8 otherwise (a total that changed as the person went would read as a mistake).
  const result = await MultiStepInput.run<Partial<RuleDraft>>(8, draft, steps, (index) => index + 1);
  return result as RuleDraft | undefined;
}

/** The fields of a rule the flow asks for (whether it is enabled is not among them). */
function withoutEnabled(fields: UpdateAlertRuleRequest | undefined): Partial<RuleDraft> {
  if (!fields) return {};
  const { enabled: _enabled, ...rest } = fields;
  return rest;
}

/** A whole rule in one sentence: "Fires when Turn latency p95 is above 1,500 ms over 10 minutes, for support-desk." */
export function ruleSentence(r: {
  metric: string;
  operator: string;
  threshold_value: number | null;
  window_duration: string;
  project_id: string | null;
}): string {
  return vscode.l10n.t(
    'Fires when {0} is {1} {2} over {3}, for {4}.',
    metricLabel(r.metric),
    operatorWords(r.operator),
    formatAmount(r.metric, r.threshold_value),
    windowWords(r.window_duration),
    r.project_id === null ? vscode.l10n.t('the whole account') : r.project_id,
  );
}
