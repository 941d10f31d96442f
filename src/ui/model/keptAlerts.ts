import type { AlertRule } from '../../contract/alerts';
import type { EndpointRecord } from './endpointRecord';

const KEY = 'agentWorkbench.rememberedAlerts';

/** A rule or endpoint known here: as the platform last answered for it, or only its id when it was typed. */
export interface Kept<T> {
  id: string;
  /** The platform's last answer about it (create or save); undefined for an id typed by hand. */
  record?: T;
}

/** Where the records are kept: the editor's global state (a vscode.Memento), or a plain object in tests. */
export interface KeptState {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): Thenable<void>;
}

export type KeptKind = 'rules' | 'endpoints';
type Stored = Record<
  string,
  { rules?: Record<string, AlertRule | null>; endpoints?: Record<string, EndpointRecord | null> }
>;

/**
 * The alert rules and webhook endpoints created, saved or added by id here, for one connection profile: what the
 * Alerts view shows where the platform does not list them (the lists are assumed endpoints, see
 * docs/api-assumptions.md). Records never hold a signing secret. Kept in the editor's global state, by profile.
 */
export class KeptAlerts {
  constructor(
    private readonly state: KeptState,
    private readonly profileId: string,
  ) {}

  rules(): Array<Kept<AlertRule>> {
    return this.list<AlertRule>('rules');
  }

  endpoints(): Array<Kept<EndpointRecord>> {
    return this.list<EndpointRecord>('endpoints');
  }

  /** Keeps a rule the platform answered with; `undefined` keeps the id only (typed), without losing a known record. */
  keepRule(id: string, record?: AlertRule): Thenable<void> {
    return this.keep('rules', id, record);
  }

  keepEndpoint(id: string, record?: EndpointRecord): Thenable<void> {
    // Only the listed fields: an answer that carries the signing secret never reaches the state.
    const kept: EndpointRecord | undefined = record && {
      id,
      name: record.name,
      url: record.url,
      event_types: record.event_types,
      created_at: record.created_at,
      updated_at: record.updated_at,
    };
    return this.keep('endpoints', id, kept);
  }

  forget(kind: KeptKind, id: string): Thenable<void> {
    const all = this.state.get<Stored>(KEY, {});
    const mine = { ...all[this.profileId] };
    const items = Object.fromEntries(Object.entries(mine[kind] ?? {}).filter(([key]) => key !== id));
    return this.state.update(KEY, { ...all, [this.profileId]: { ...mine, [kind]: items } });
  }

  private list<T>(kind: KeptKind): Array<Kept<T>> {
    const items = (this.state.get<Stored>(KEY, {})[this.profileId]?.[kind] ?? {}) as Record<string, T | null>;
    return Object.entries(items).map(([id, record]) => (record ? { id, record } : { id }));
  }

  private keep<T>(kind: KeptKind, id: string, record: T | undefined): Thenable<void> {
    const all = this.state.get<Stored>(KEY, {});
    const mine = { ...all[this.profileId] };
    const items = { ...(mine[kind] as Record<string, T | null> | undefined) };
    items[id] = record ?? items[id] ?? null;
    return this.state.update(KEY, { ...all, [this.profileId]: { ...mine, [kind]: items } });
  }
}
