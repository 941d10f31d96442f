import * as vscode from 'vscode';
import type { AlertMetric, AlertRuleState } from '../../contract/alerts';

// Display of metrics, units, states and scopes, shared by the tree and the alert commands.
// Answers may carry values this extension does not know: they are shown as the platform wrote them.

/** A metric or state as answered: one of the known values, or text kept from the platform. */
type Known<T extends string> = T | (string & {});

/** Latency metrics are in milliseconds; the others are absolute counts within the window (ALERT-7). */
export function isLatency(metric: Known<AlertMetric>): boolean {
  return metric === 'turn_latency_p50' || metric === 'turn_latency_p95';
}

export function metricLabel(metric: Known<AlertMetric>): string {
  switch (metric) {
    case 'turn_latency_p50':
      return vscode.l10n.t('Turn latency p50');
    case 'turn_latency_p95':
      return vscode.l10n.t('Turn latency p95');
    case 'api_errors':
      return vscode.l10n.t('API errors');
    case 'function_errors':
      return vscode.l10n.t('Function errors');
    case 'call_crashes':
      return vscode.l10n.t('Call crashes');
    case 'call_volume':
      return vscode.l10n.t('Call volume');
    default:
      return metric;
  }
}

/** What the metric measures and in which unit, in a person's words. */
export function metricExplained(metric: Known<AlertMetric>): string {
  switch (metric) {
    case 'turn_latency_p50':
      return vscode.l10n.t('Median time the agent takes to answer a turn, in milliseconds');
    case 'turn_latency_p95':
      return vscode.l10n.t('95th percentile of the time the agent takes to answer a turn, in milliseconds');
    case 'api_errors':
      return vscode.l10n.t('Number of API errors within the window (a count, not a rate)');
    case 'function_errors':
      return vscode.l10n.t('Number of function errors within the window (a count, not a rate)');
    case 'call_crashes':
      return vscode.l10n.t('Number of calls that crashed within the window (a count, not a rate)');
    case 'call_volume':
      return vscode.l10n.t('Number of calls within the window (a count, not a rate)');
    default:
      return vscode.l10n.t('A metric this extension does not know ({0}), as the platform named it', metric);
  }
}

/** The unit of a threshold, for prompts: "milliseconds" or "count within the window". */
export function unitExplained(metric: Known<AlertMetric>): string {
  return isLatency(metric) ? vscode.l10n.t('milliseconds') : vscode.l10n.t('a count within the window');
}

/** A metric value with its unit: "2,740 ms" for latency, "12" for counts; "—" when there is none. */
export function formatAmount(metric: Known<AlertMetric>, value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const n = value.toLocaleString(vscode.env.language);
  return isLatency(metric) ? vscode.l10n.t('{0} ms', n) : n;
}

/** An evaluation window in words: "10 minutes". */
export function windowWords(window: string): string {
  const m = /^(\d+)m$/.exec(window);
  if (!m) return window;
  return m[1] === '1' ? vscode.l10n.t('1 minute') : vscode.l10n.t('{0} minutes', m[1]!);
}

export function operatorWords(operator: string): string {
  switch (operator) {
    case '>':
      return vscode.l10n.t('above');
    case '<':
      return vscode.l10n.t('below');
    case '>=':
      return vscode.l10n.t('at or above');
    case '<=':
      return vscode.l10n.t('at or below');
    default:
      return operator;
  }
}

export function stateLabel(state: Known<AlertRuleState>): string {
  switch (state) {
    case 'ok':
      return vscode.l10n.t('OK');
    case 'alert':
      return vscode.l10n.t('Firing');
    case 'no_data':
      return vscode.l10n.t('No data');
    case 'unknown':
      return vscode.l10n.t('Unknown');
    default:
      return state;
  }
}

/** One icon per state, in theme colours; a disabled rule is shown switched off whatever its state. */
export function stateIcon(state: Known<AlertRuleState>, enabled: boolean): vscode.ThemeIcon {
  if (!enabled) return new vscode.ThemeIcon('bell-slash', new vscode.ThemeColor('disabledForeground'));
  switch (state) {
    case 'ok':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('charts.green'));
    case 'alert':
      return new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.red'));
    case 'no_data':
      return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('descriptionForeground'));
    default:
      return new vscode.ThemeIcon('question', new vscode.ThemeColor('charts.yellow'));
  }
}

/** "account-wide" for a rule without a project (project_id null), else the project id. */
export function scopeLabel(projectId: string | null): string {
  return projectId === null ? vscode.l10n.t('account-wide') : projectId;
}

/** Text for a Markdown tooltip, shown as written (the platform's names and values never become markup). */
export { markdownText as md } from '../../core/shownText';
