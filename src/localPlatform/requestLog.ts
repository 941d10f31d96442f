/** One request a family's API was asked, as the admin API lists it: never a header, so never a key. */
export interface LoggedRequest {
  seq: number;
  /** The platform clock's time it arrived. */
  at: string;
  method: string;
  /** runtime, build or messaging. */
  base: string;
  /** The path under the base, e.g. /v3/acme/support-desk/conversations. */
  path: string;
  /** Each query parameter with all its values, in the order sent. */
  query: Record<string, string[]>;
}

/** Query parameters that may carry a credential: their values are not kept. */
const SECRET_PARAM = /token|key|secret|password/i;
const KEEP = 2_000;

/**
 * What the families were asked, newest last (at most the last 2,000): tests check the query an
 * editor sent for each filter without reading the editor's own code.
 */
export class RequestLog {
  private entries: LoggedRequest[] = [];
  private seq = 0;

  record(at: string, method: string, base: string, path: string, params: URLSearchParams): void {
    const query: Record<string, string[]> = {};
    for (const key of new Set(params.keys())) query[key] = SECRET_PARAM.test(key) ? ['‹redacted›'] : params.getAll(key);
    this.entries.push({ seq: ++this.seq, at, method, base, path, query });
    if (this.entries.length > KEEP) this.entries.splice(0, this.entries.length - KEEP);
  }

  /** The requests after `since` (a seq), optionally only those whose path contains `path`. */
  list(filter: { since?: number; path?: string; base?: string } = {}): LoggedRequest[] {
    return this.entries.filter(
      (e) =>
        (filter.since === undefined || e.seq > filter.since) &&
        (filter.base === undefined || e.base === filter.base) &&
        (filter.path === undefined || e.path.includes(filter.path)),
    );
  }

  clear(): void {
    this.entries = [];
  }
}
