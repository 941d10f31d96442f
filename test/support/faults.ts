import type { FaultRequest } from '../../src/localPlatform/adminApi';
import type { Fault } from '../../src/localPlatform/faults';
import { LOCAL_CONNECTORS, LOCAL_KEYS } from '../../src/localPlatform/seed/credentials';

/**
 * The faults of the reliability matrices (docs/reliability.md, "Faults"): what goes wrong between the editor and the
 * platform, each made by the local platform's fault API. The client matrix (test/unit/client/faultMatrix.test.ts)
 * and the editor's (test/integration/faults.test.ts) inject every one of them, in this order.
 */
export const FAULT_KINDS = [
  'timeout',
  'resetBefore',
  'resetAfter',
  'retryAfterShort',
  'retryAfterLong',
  'rateLimited',
  'status500',
  'status502',
  'status503',
  'status504',
  'notJson',
  'errorPage',
  'wrongShape',
  'slow',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The column heading of each fault in docs/reliability.md. */
export const FAULT_LABEL: Record<FaultKind, string> = {
  timeout: 'timeout',
  resetBefore: 'reset before',
  resetAfter: 'reset after',
  retryAfterShort: '429, Retry-After 1 s',
  retryAfterLong: '429, Retry-After 120 s',
  rateLimited: '429, no Retry-After',
  status500: '500',
  status502: '502',
  status503: '503',
  status504: '504',
  notJson: '200, not JSON',
  errorPage: '502, HTML page',
  wrongShape: '200, wrong shape',
  slow: 'slow (10 s)',
};

/** What the fault is, in a sentence (the table's legend). */
export const FAULT_MEANING: Record<FaultKind, string> = {
  timeout: "the answer is held past the client's timeout (then the request is carried out)",
  resetBefore: 'the connection is destroyed without an answer, before the request is carried out',
  resetAfter: 'the request is carried out, then the connection is destroyed without its answer',
  retryAfterShort: '429 with `Retry-After: 1`, once (the request not carried out)',
  retryAfterLong: '429 with `Retry-After: 120` (the request not carried out)',
  rateLimited: '429 without `Retry-After` (the request not carried out)',
  status500: "500 in the family's error shape (not carried out)",
  status502: "502 in the family's error shape (not carried out)",
  status503: "503 in the family's error shape (not carried out)",
  status504: "504 in the family's error shape (not carried out)",
  notJson: 'the request is carried out and its own 2xx answered with an HTML sign-in page',
  errorPage: "a proxy's HTML page with 502 (not carried out)",
  wrongShape: 'the request is carried out and its own 2xx answered with JSON of another shape',
  slow: 'the answer is held 10 s (within the timeout), then given',
};

/** How long the slow answer is held. */
export const SLOW_MS = 10_000;
/** The proxy page of `errorPage`, whose title the message shows. */
export const ERROR_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
/** The sign-in page of `notJson`. */
export const SIGN_IN_PAGE =
  '<!doctype html><html><head><title>Sign in</title></head><body><form>…</form></body></html>';

/** Which requests a fault applies to. */
export interface FaultTarget {
  family: Fault['family'];
  method: string;
  /** A substring or a /regex/ of the path below the family's base. */
  path: string;
}

/**
 * The fault request of a kind for a target. `timeoutMs` is the client's timeout: the timeout fault holds the answer
 * well past it (undici checks its timers about every half second).
 */
export function faultFor(kind: FaultKind, target: FaultTarget, timeoutMs: number): FaultRequest {
  const on = { family: target.family, method: target.method, path: target.path };
  switch (kind) {
    case 'timeout':
      return { ...on, delayMs: timeoutMs + 1_500 };
    case 'resetBefore':
      return { ...on, reset: 'before' };
    case 'resetAfter':
      return { ...on, reset: 'after' };
    case 'retryAfterShort':
      return { ...on, status: 429, retryAfter: 1, times: 1 };
    case 'retryAfterLong':
      return { ...on, status: 429, retryAfter: 120 };
    case 'rateLimited':
      return { ...on, status: 429 };
    case 'status500':
      return { ...on, status: 500 };
    case 'status502':
      return { ...on, status: 502 };
    case 'status503':
      return { ...on, status: 503 };
    case 'status504':
      return { ...on, status: 504 };
    case 'notJson':
      return { ...on, rawBody: SIGN_IN_PAGE };
    case 'errorPage':
      return { ...on, status: 502, rawBody: ERROR_PAGE };
    case 'wrongShape':
      return { ...on, replyBody: { unexpected: true } };
    case 'slow':
      return { ...on, delayMs: SLOW_MS };
  }
}

/** A path that is exactly this one (a /regex/ for the fault API). */
export function exactPath(path: string): string {
  return `/^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`;
}

/** Words that say what to do, one of which every message for a person must hold. */
export const WHAT_TO_DO =
  /\b(Try again|try again|Retry|Check|check before|Refresh|refresh|Set a|Add it|Ask|Edit|Start a new session|Follow the call|send your next message|Send again)\b/;

/** Every secret of the local account: none may reach a message. */
const SECRETS: string[] = [...Object.values(LOCAL_KEYS), ...Object.values(LOCAL_CONNECTORS)].filter(
  (v) => typeof v === 'string' && v.length >= 8,
);

/** What is wrong with a message for a person, or undefined: no stack, no secret, no markup, and what to do. */
export function messageProblem(message: string): string | undefined {
  if (/\n\s*at |\.ts:\d+|\.js:\d+|Error: /.test(message)) return 'it carries a stack or an exception';
  const secret = SECRETS.find((s) => message.includes(s));
  if (secret) return 'it carries a secret';
  if (/eyJ[\w-]{10,}\.[\w-]{10,}/.test(message)) return 'it carries an access token';
  if (/<\/?[a-z][^>]*>/i.test(message)) return 'it carries markup';
  if (!WHAT_TO_DO.test(message)) return 'it does not say what to do';
  return undefined;
}
