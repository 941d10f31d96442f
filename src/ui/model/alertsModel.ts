import type { AlertRule, CurrentAlert } from '../../contract/alerts';
import { Disposable } from '../../core/disposable';
import { Emitter, type Event } from '../../core/event';
import type { AlertsSource, EndpointRecord } from './alertsSource';
import { Loadable } from './loadable';
import { isPlatformError } from '../common/failure';

/**
 * How long a list the platform does not have (a 404 or 405 of an endpoint the spec does not show) is not asked
 * again, unless the person refreshes: the watcher reads the current alerts every minute, and each reading redraws
 * the view.
 */
export const MISSING_LIST_KEPT_MS = 30 * 60_000;

function endpointMissing(err: unknown): boolean {
  return isPlatformError(err) && err.assumption !== undefined && (err.status === 404 || err.status === 405);
}

export type AlertsChange = 'rules' | 'currentAlerts' | 'endpoints';

/** The alert rules, the alerts firing now and the webhook endpoints of one connection profile. */
export class AlertsModel extends Disposable {
  readonly rules: Loadable<AlertRule[]>;
  readonly currentAlerts: Loadable<CurrentAlert[]>;
  readonly endpoints: Loadable<EndpointRecord[]>;
  private readonly _onDidChange = this.register(new Emitter<AlertsChange>());
  readonly onDidChange: Event<AlertsChange> = this._onDidChange.event;

  constructor(readonly source: AlertsSource) {
    super();
    const part = <T>(name: AlertsChange, load: () => Promise<T>): Loadable<T> => {
      const loadable = this.register(new Loadable(load, { failure: endpointMissing, keepMs: MISSING_LIST_KEPT_MS }));
      this.register(loadable.onDidChange(() => this._onDidChange.fire(name)));
      return loadable;
    };
    this.rules = part('rules', () => source.listRules());
    this.currentAlerts = part('currentAlerts', () => source.currentAlerts());
    this.endpoints = part('endpoints', () => source.listEndpoints());
  }

  /** Asks again, on the next read, the lists the platform answered it does not have (a refresh the person asked for). */
  forgetMissing(): void {
    for (const part of [this.rules, this.currentAlerts, this.endpoints]) part.forgetFailure();
  }

  /** Rules and current alerts reflect the same evaluations: a change to rules forgets both. */
  invalidateRules(): void {
    this.currentAlerts.invalidate();
    this.rules.invalidate();
  }
}
