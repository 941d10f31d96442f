import type * as vscode from 'vscode';
import type { AlertRule } from '../../../contract/alerts';
import type { EndpointRecord } from '../../model/alertsSource';

const KEY = 'agentWorkbench.rememberedAlerts';

/** A rule or endpoint known here: as the platform last answered for it, or only its id when it was typed. */
export interface Remembered<T> {
  id: string;
  /** The platform's last answer about it (create or save); undefined for an id typed by hand. */
  record?: T;
}

type Kind = 'rules' | 'endpoints';
type Stored = Record<
  string,
  { rules?: Record<string, AlertRule | null>; endpoints?: Record<string, EndpointRecord | null> }
>;

/**
 * The alert rules and webhook endpoints created, saved or added by id here, per connection profile: what the
 * Alerts view shows where the platform does not list them (the lists are assumed endpoints, see
 * docs/api-assumptions.md). Records never hold a signing secret. Kept in the editor's global state.
 */
export class RememberedAlerts {
  constructor(private readonly state: vscode.Memento) {}

  rules(profileId: string): Array<Remembered<AlertRule>> {
    return this.list<AlertRule>(profileId, 'rules');
  }

  endpoints(profileId: string): Array<Remembered<EndpointRecord>> {
    return this.list<EndpointRecord>(profileId, 'endpoints');
  }

  rule(profileId: string, id: string): AlertRule | undefined {
    return this.rules(profileId).find((r) => r.id === id)?.record;
  }

  endpoint(profileId: string, id: string): EndpointRecord | undefined {
    return this.endpoints(profileId).find((e) => e.id === id)?.record;
  }

  /** Keeps a rule the platform answered with; `undefined` keeps the id only (typed), without losing a known record. */
  keepRule(profileId: string, id: string, record?: AlertRule): Thenable<void> {
    return this.keep(profileId, 'rules', id, record);
  }

  keepEndpoint(profileId: string, id: string, record?: EndpointRecord): Thenable<void> {
    const { id: _id, name, url, event_types, created_at, updated_at } = record ?? ({} as Partial<EndpointRecord>);
    // Only the listed fields: an answer that carries the signing secret never reaches the state.
    return this.keep(
      profileId,
      'endpoints',
      id,
      record ? ({ id, name, url, event_types, created_at, updated_at } as EndpointRecord) : undefined,
    );
  }

  forget(profileId: string, kind: Kind, id: string): Thenable<void> {
    const all = this.state.get<Stored>(KEY, {});
    const mine = { ...all[profileId] };
    const items = Object.fromEntries(Object.entries(mine[kind] ?? {}).filter(([key]) => key !== id));
    return this.state.update(KEY, { ...all, [profileId]: { ...mine, [kind]: items } });
  }

  private list<T>(profileId: string, kind: Kind): Array<Remembered<T>> {
    const items = (this.state.get<Stored>(KEY, {})[profileId]?.[kind] ?? {}) as Record<string, T | null>;
    return Object.entries(items).map(([id, record]) => (record ? { id, record } : { id }));
  }

  private keep<T>(profileId: string, kind: Kind, id: string, record: T | undefined): Thenable<void> {
    const all = this.state.get<Stored>(KEY, {});
    const mine = { ...all[profileId] };
    const items = { ...(mine[kind] as Record<string, T | null> | undefined) };
    items[id] = record ?? items[id] ?? null;
    return this.state.update(KEY, { ...all, [profileId]: { ...mine, [kind]: items } });
  }
}
