import * as vscode from 'vscode';
import type { CurrentAlert } from '../../contract/alerts';
import { Disposable } from '../../core/disposable';
import type { ProfileModels } from '../model/profileModels';
import { prompts } from '../common/prompts';
import { Command, View } from '../ids';
import type { Log } from '../log';
import { formatAmount, metricLabel, operatorWords } from '../common/alertFormat';

/** The setting that says how often current alerts are read; 0 stops reading them. */
export const POLL_SETTING = 'agentWorkbench.alerts.pollIntervalSeconds';
const DEFAULT_POLL_SECONDS = 60;
/** Never faster than this, whatever the setting says: the Alerts API is shared by the whole account. */
const MIN_POLL_SECONDS = 5;

/** What a check of the current alerts found (also to automation and tests). */
export interface AlertsCheck {
  firing: Array<{ ruleId: string; name: string }>;
  triggered: string[];
  resolved: string[];
  /** The status bar badge's text, undefined while it is hidden. */
  badge: string | undefined;
  /** Why the current alerts could not be read; then `firing` is empty because nothing is known, not because all is clear. */
  unreadable?: string;
}

/** "Slow answers (Turn latency p95 is 774 ms, above 500 ms)": the person's words, never the API's names. */
function describe(a: CurrentAlert): string {
  const value =
    a.current_value === null
      ? ''
      : ` (${vscode.l10n.t(
          '{0} is {1}, {2} {3}',
          metricLabel(a.metric),
          formatAmount(a.metric, a.current_value),
          operatorWords(a.operator),
          formatAmount(a.metric, a.threshold_value),
        )})`;
  return `${a.name || a.rule_id}${value}`;
}

/**
 * Reads the alerts firing now at the interval of the setting, through the model the Alerts view reads, so the
 * view follows. A status bar badge shows while any rule fires; a rule that starts or stops firing is told once.
 */
export class AlertWatcher extends Disposable {
  private readonly badge = this.register(
    vscode.window.createStatusBarItem('agentWorkbench.alerts', vscode.StatusBarAlignment.Left, 90),
  );
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Firing rules of the profile last read; undefined until the first reading, which tells nothing (it is where we start from). */
  private known: { profile: string; firing: Map<string, CurrentAlert> } | undefined;
  private checking: Promise<AlertsCheck | undefined> | undefined;

  constructor(
    private readonly models: ProfileModels<object>,
    private readonly log: Log,
  ) {
    super();
    this.badge.name = vscode.l10n.t('Agent Workbench Alerts');
    this.badge.command = `${View.alerts}.focus`;
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(POLL_SETTING)) this.schedule();
      }),
    );
    this.register(
      models.onDidChange(() => {
        this.known = undefined;
        this.badge.hide();
        if (this.interval() > 0) void this.check();
      }),
    );
    this.register(vscode.commands.registerCommand(Command.checkAlerts, () => this.checkNow()));
    this.schedule();
  }

  override dispose(): void {
    super.dispose();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const seconds = this.interval();
    if (seconds > 0) this.timer = setInterval(() => void this.check(), seconds * 1000);
  }

  /** Seconds between readings, 0 when switched off. */
  private interval(): number {
    const seconds = vscode.workspace.getConfiguration().get<number>(POLL_SETTING, DEFAULT_POLL_SECONDS);
    return typeof seconds === 'number' && seconds > 0 ? Math.max(MIN_POLL_SECONDS, seconds) : 0;
  }

  /** Reads the current alerts now (one reading at a time); undefined without a profile or when the reading failed. */
  check(): Promise<AlertsCheck | undefined> {
    this.checking ??= this.read().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /**
   * Check Alerts Now: a reading, and a word when it changed nothing (a change is told as it always is), so the
   * person knows the check ran.
   */
  async checkNow(): Promise<AlertsCheck | undefined> {
    const result = await this.check();
    if (!result) {
      if (!this.models.active()) void prompts.info(vscode.l10n.t('Choose a connection profile to check its alerts.'));
      return result;
    }
    if (result.unreadable) {
      void prompts.warn(vscode.l10n.t('The current alerts could not be read: {0}', result.unreadable));
    } else if (!result.triggered.length && !result.resolved.length) {
      const names = result.firing.map((f) => f.name || f.ruleId).join(', ');
      void prompts.info(
        result.firing.length === 0
          ? vscode.l10n.t('Alerts checked: no change, no alert rule is firing.')
          : result.firing.length === 1
            ? vscode.l10n.t('Alerts checked: no change, 1 alert rule is still firing ({0}).', names)
            : vscode.l10n.t(
                'Alerts checked: no change, {0} alert rules are still firing ({1}).',
                result.firing.length,
                names,
              ),
      );
    }
    return result;
  }

  private async read(): Promise<AlertsCheck | undefined> {
    const model = this.models.active();
    if (!model) {
      this.badge.hide();
      return undefined;
    }
    const alerts = model.alerts;
    let current: CurrentAlert[];
    try {
      alerts.currentAlerts.invalidate();
      current = await alerts.currentAlerts.get();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.warn(`Current alerts could not be read: ${reason}`);
      if (this.models.active() !== model || this.isDisposed) return undefined;
      // Not read is its own state: a hidden badge would read as "nothing firing".
      return { firing: [], triggered: [], resolved: [], badge: this.showUnreadable(reason), unreadable: reason };
    }
    if (this.models.active() !== model || this.isDisposed) return undefined;
    const firing = new Map(current.map((a) => [a.rule_id, a]));
    const before = this.known?.profile === model.profileId ? this.known.firing : undefined;
    this.known = { profile: model.profileId, firing };
    const triggered = before ? current.filter((a) => !before.has(a.rule_id)) : [];
    const resolved = before ? [...before.values()].filter((a) => !firing.has(a.rule_id)) : [];
    // Rule states changed with them: the Alerts view reads the rules again.
    if (triggered.length || resolved.length) alerts.rules.invalidate();
    const badge = this.showBadge(current);
    const show = vscode.l10n.t('Show Alerts');
    for (const a of triggered) {
      void prompts
        .warn(vscode.l10n.t('Alert triggered: {0}.', describe(a)), show)
        .then((c) => c === show && vscode.commands.executeCommand(`${View.alerts}.focus`));
    }
    for (const a of resolved) void prompts.info(vscode.l10n.t('Alert resolved: {0}.', a.name || a.rule_id));
    return {
      firing: current.map((a) => ({ ruleId: a.rule_id, name: a.name })),
      triggered: triggered.map((a) => a.name || a.rule_id),
      resolved: resolved.map((a) => a.name || a.rule_id),
      badge,
    };
  }

  private showUnreadable(reason: string): string {
    this.badge.text = '$(bell-slash) ?';
    this.badge.tooltip = vscode.l10n.t(
      'The current alerts could not be read, so whether any rule fires is not known: {0} Click to show the Alerts view.',
      reason,
    );
    this.badge.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.badge.show();
    return this.badge.text;
  }

  private showBadge(current: readonly CurrentAlert[]): string | undefined {
    if (current.length === 0) {
      this.badge.hide();
      return undefined;
    }
    this.badge.text = `$(bell-dot) ${current.length}`;
    const names = current.map((a) => a.name || a.rule_id).join(', ');
    this.badge.tooltip =
      current.length === 1
        ? vscode.l10n.t('1 alert rule firing: {0}. Click to show the Alerts view.', names)
        : vscode.l10n.t('{0} alert rules firing: {1}. Click to show the Alerts view.', current.length, names);
    this.badge.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.badge.show();
    return this.badge.text;
  }
}
