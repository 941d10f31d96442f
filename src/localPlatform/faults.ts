/** Faults injected through the admin API, so clients can be tested on their error paths. */
export interface Fault {
  id: string;
  /** Which base: runtime, build, messaging, or any. */
  family: 'runtime' | 'build' | 'messaging' | 'any';
  method?: string;
  /** A substring or a /regex/ matched against the path below the family prefix. */
  path?: string;
  /** Answer with this status (and an error body of the family's kind) instead of the real handler. */
  status?: number;
  /** Retry-After header value in seconds, sent with the status. */
  retryAfter?: number;
  /** Wait this long before handling (or answering the status). */
  delayMs?: number;
  /**
   * The request is carried out, then answered with its own status and this body instead of the real one: a
   * success whose answer the client cannot read.
   */
  replyBody?: unknown;
  /**
   * An answer that is not JSON (a proxy's error page, a sign-in page): with `status`, that status is answered with
   * this text instead of the family's error body, and the request is not carried out; without, the request is
   * carried out and its own status is answered with this text instead of its JSON.
   */
  rawBody?: string;
  /** The content type of `rawBody` (text/html unless given). */
  contentType?: string;
  /**
   * The connection is destroyed without an answer: `before` the request is carried out (nothing done), or `after`
   * (done, and its answer lost on the way back).
   */
  reset?: 'before' | 'after';
  /** How many matching requests it applies to; unset means until cleared. */
  times?: number;
  /** Messaging only: close open WebSockets of this session (or all) right away. */
  dropWebSocket?: boolean;
  /** Messaging only: the next server events of this kind fail with a system message. */
  messagingError?: string;
  /** Messaging only: seeded random drops and delays of the session's sockets while answers stream (`times` of them). */
  chaos?: MessagingChaos;
}

/**
 * Before each piece of a streamed answer, with chance `rate` (default 0.3), the session's sockets are dropped
 * (`dropShare` of the time, default one half) or held for a random time up to `maxDelayMs` (default 400): what the
 * platform sends meanwhile arrives late, in order, or not at all when a drop comes first. The same seed makes the
 * same choices.
 */
export interface MessagingChaos {
  seed: number;
  rate?: number;
  dropShare?: number;
  maxDelayMs?: number;
}

export class FaultBook {
  private faults: Fault[] = [];
  private next = 1;

  add(fault: Omit<Fault, 'id'>): Fault {
    const f: Fault = { ...fault, id: `fault_${this.next++}` };
    this.faults.push(f);
    return f;
  }

  list(): readonly Fault[] {
    return this.faults;
  }

  clear(): void {
    this.faults = [];
  }

  /** Clears one fault; false when there is none of that id (used up, or never added). */
  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length < before;
  }

  /** Takes the first fault that matches a request, counting it down. */
  take(
    family: Fault['family'],
    method: string,
    path: string,
    predicate: (f: Fault) => boolean = () => true,
  ): Fault | undefined {
    const i = this.faults.findIndex(
      (f) =>
        (f.family === 'any' || f.family === family) &&
        (!f.method || f.method.toUpperCase() === method) &&
        (!f.path || matchPath(f.path, path)) &&
        predicate(f),
    );
    if (i < 0) return undefined;
    const f = this.faults[i]!;
    if (f.times !== undefined) {
      f.times -= 1;
      if (f.times <= 0) this.faults.splice(i, 1);
    }
    return f;
  }
}

function matchPath(pattern: string, path: string): boolean {
  if (pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    return new RegExp(pattern.slice(1, -1)).test(path);
  }
  return path.includes(pattern);
}
