import {
  ALERT_METRICS,
  ALERT_RULE_ID_PATTERN,
  ALERT_RULE_WRITABLE_FIELDS,
  type AlertMetric,
  type AlertRuleList,
  createAlertRuleRequestSchema,
  type CurrentAlertList,
  updateAlertRuleRequestSchema,
} from '../../contract/alerts';
import { buildError, type RequestContext, type Router } from '../http';
import type { Platform } from '../platform';
import type { StoredAccount } from '../state';
import { alertsOf, ruleToWire, type StoredAlertRule } from './model';
import {
  booleanFilter,
  type FieldError,
  fieldErrors,
  objectBody,
  requireIdFormat,
  validationError,
} from './validation';

const READ_ONLY = ['id', 'current_state', 'created_at', 'updated_at', 'since', 'last_evaluated_at', 'current_value'];
const WHAT = 'alert rule';

/** The account of the request's Alerts key (AUTH-1: x-api-key; 401 otherwise). */
export function accountOf(platform: Platform, ctx: RequestContext): StoredAccount {
  const key = platform.requireBuildKey('alerts', ctx.header('x-api-key'));
  const account = platform.state.accounts.find((a) => a.id === key.accountId);
  if (!account) throw buildError(401, 'Invalid API key');
  return account;
}

/** POST, GET, PATCH, DELETE /v1/alert-rules and GET /v1/alerts. */
export function addRuleRoutes(router: Router, platform: Platform): void {
  router.post('/v1/alert-rules', (ctx) => {
    const account = accountOf(platform, ctx);
    const body = objectBody(ctx);
    const parsed = createAlertRuleRequestSchema.safeParse(body);
    const errors = parsed.success ? [] : fieldErrors(parsed.error.issues, READ_ONLY, 'an alert rule');
    const projectId = resolveProject(platform, account, body.project_id, errors);
    if (!parsed.success || errors.length > 0) throw validationError(WHAT, errors);
    const section = alertsOf(platform);
    const max = platform.options.maxAlertRules;
    if (section.rules.filter((r) => r.accountId === account.id).length >= max) {
      throw buildError(
        409,
        `Alert rule limit reached: an account can have at most ${max} alert rules. Delete a rule before creating another.`,
      );
    }
    requireBackendSync(platform);
    const now = platform.now();
    const enabled = parsed.data.enabled ?? true;
    const rule: StoredAlertRule = {
      id: platform.nextId('ar'),
      accountId: account.id,
      name: parsed.data.name,
      project_id: projectId ?? null,
      metric: parsed.data.metric,
      operator: parsed.data.operator,
      threshold_value: parsed.data.threshold_value,
      window_duration: parsed.data.window_duration,
      enabled,
      // ALERT-3: "(rule created) → ok", with no exception for a rule created disabled (it is not evaluated
      // until it is switched on, so it reports ok until then).
      current_state: 'ok',
      created_at: now,
      updated_at: now,
      since: now,
      last_evaluated_at: null,
      current_value: null,
    };
    section.rules.push(rule);
    return { status: 201, body: ruleToWire(rule) };
  });

  router.get('/v1/alert-rules', (ctx) => {
    const account = accountOf(platform, ctx);
    const enabled = booleanFilter(ctx.query, 'enabled');
    const rules = filterRules(platform, account, ctx.query).filter(
      (r) => enabled === undefined || r.enabled === enabled,
    );
    const body: AlertRuleList = { alert_rules: rules.map(ruleToWire) };
    return { body };
  });

  router.get('/v1/alert-rules/:ruleId', (ctx) => ({ body: ruleToWire(findRule(platform, ctx)) }));

  router.patch('/v1/alert-rules/:ruleId', (ctx) => {
    const rule = findRule(platform, ctx);
    const account = accountOf(platform, ctx);
    const body = objectBody(ctx);
    const parsed = updateAlertRuleRequestSchema.safeParse(body);
    const errors = parsed.success ? [] : fieldErrors(parsed.error.issues, READ_ONLY, 'an alert rule');
    const projectId = resolveProject(platform, account, body.project_id, errors);
    if (!parsed.success || errors.length > 0) throw validationError(WHAT, errors);
    const change = parsed.data;
    if (Object.keys(change).length === 0) return { body: ruleToWire(rule) };
    requireBackendSync(platform);
    const now = platform.now();
    for (const field of ALERT_RULE_WRITABLE_FIELDS) {
      if (field === 'enabled' || field === 'project_id' || change[field] === undefined) continue;
      Object.assign(rule, { [field]: change[field] });
    }
    if (projectId !== undefined) rule.project_id = projectId;
    if (change.enabled !== undefined && change.enabled !== rule.enabled) {
      // Switching off stops evaluation (state unknown, no notification); switching on starts afresh like a new rule.
      rule.enabled = change.enabled;
      rule.current_state = change.enabled ? 'ok' : 'unknown';
      rule.current_value = null;
      rule.since = now;
    }
    rule.updated_at = now;
    return { body: ruleToWire(rule) };
  });

  router.delete('/v1/alert-rules/:ruleId', (ctx) => {
    const rule = findRule(platform, ctx);
    requireBackendSync(platform);
    const section = alertsOf(platform);
    section.rules = section.rules.filter((r) => r !== rule);
    return { status: 204 };
  });

  router.get('/v1/alerts', (ctx) => {
    const account = accountOf(platform, ctx);
    const firing = filterRules(platform, account, ctx.query).filter((r) => r.enabled && r.current_state === 'alert');
    const body: CurrentAlertList = {
      alerts: firing.map((r) => ({
        rule_id: r.id,
        name: r.name,
        project_id: r.project_id,
        metric: r.metric,
        operator: r.operator,
        threshold_value: r.threshold_value,
        window_duration: r.window_duration,
        current_value: r.current_value,
        triggered_at: r.since ?? r.updated_at,
        last_evaluated_at: r.last_evaluated_at,
      })),
    };
    return { body };
  });
}

/** The account's rule named in the path: 401, then 422 for a malformed id, then 404. */
function findRule(platform: Platform, ctx: RequestContext): StoredAlertRule {
  const account = accountOf(platform, ctx);
  const id = ctx.param('ruleId');
  requireIdFormat(id, ALERT_RULE_ID_PATTERN, 'rule_id', WHAT);
  const rule = alertsOf(platform).rules.find((r) => r.id === id && r.accountId === account.id);
  if (!rule)
    throw buildError(404, `Alert rule not found: ${id}`, [{ field: 'rule_id', message: 'no such alert rule' }]);
  return rule;
}

/**
 * The prefixed id of a project named by slug or prefixed id (ADDR-1); null for account-wide;
 * undefined when the body has no string or null project_id (the schema reports that).
 */
function resolveProject(
  platform: Platform,
  account: StoredAccount,
  value: unknown,
  errors: FieldError[],
): string | null | undefined {
  if (value === null) return null;
  if (typeof value !== 'string' || value === '') return undefined;
  const project = platform.findProject(account, value);
  if (!project) {
    if (!errors.some((e) => e.field === 'project_id'))
      errors.push({ field: 'project_id', message: `"${value}" is not a project of this account` });
    return undefined;
  }
  return project.id;
}

/** Rules of the account narrowed by the project_id and metric filters. */
function filterRules(platform: Platform, account: StoredAccount, query: URLSearchParams): StoredAlertRule[] {
  const metric = query.get('metric');
  if (metric !== null && !(ALERT_METRICS as readonly string[]).includes(metric)) {
    throw buildError(400, `Invalid filter metric: must be one of ${ALERT_METRICS.join(', ')}`, [
      { field: 'metric', message: `must be one of ${ALERT_METRICS.join(', ')}` },
    ]);
  }
  const projectParam = query.get('project_id');
  const projectId =
    projectParam === null ? undefined : (platform.findProject(account, projectParam)?.id ?? projectParam);
  return alertsOf(platform).rules.filter(
    (r) =>
      r.accountId === account.id &&
      (projectId === undefined || r.project_id === projectId) &&
      (metric === null || r.metric === (metric as AlertMetric)),
  );
}

/** 502 while the monitoring backend is switched to failing (admin); nothing is changed. */
function requireBackendSync(platform: Platform): void {
  if (alertsOf(platform).switches.backendSyncFails) {
    throw buildError(502, 'Monitoring backend sync failed: the alert rule was not saved. Try again later.');
  }
}
