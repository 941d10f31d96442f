import type { AlertRule, CurrentAlert } from '../../contract/alerts';
import { Disposable } from '../../core/disposable';
import { Emitter, type Event } from '../../core/event';
import type { AlertsSource, EndpointRecord } from './alertsSource';
import { Loadable } from './loadable';

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
      const loadable = this.register(new Loadable(load));
      this.register(loadable.onDidChange(() => this._onDidChange.fire(name)));
      return loadable;
    };
    this.rules = part('rules', () => source.listRules());
    this.currentAlerts = part('currentAlerts', () => source.currentAlerts());
    this.endpoints = part('endpoints', () => source.listEndpoints());
  }

  /** Rules and current alerts reflect the same evaluations: a change to rules forgets both. */
  invalidateRules(): void {
    this.currentAlerts.invalidate();
    this.rules.invalidate();
  }
}
