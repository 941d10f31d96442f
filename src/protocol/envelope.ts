/**
 * The envelope of every message between a panel (extension host) and its webview app. Four kinds:
 * a command (no answer), a request (answered by a response with the same id, or timed out), a
 * notification (host to webview, no answer), and `ready`, which the webview sends once its script
 * runs so the host knows it can post. Payloads are view models only: never platform shapes or secrets.
 * Pure types and guards: imported by the extension host and by the browser code alike.
 */

/** Bumped when a message changes shape: a webview restored from an older build is reloaded, not trusted. */
export const PROTOCOL_VERSION = 1;

export interface ReadyMessage {
  kind: 'ready';
  protocol: number;
  /** Said again after the page's own socket closed (see src/ui/panels/directChannel.ts): post everything now. */
  socketClosed?: boolean;
}
export interface CommandMessage<C> {
  kind: 'command';
  command: C;
}
export interface RequestMessage<R> {
  kind: 'request';
  id: number;
  request: R;
}
export type ResponseMessage<T = unknown> =
  { kind: 'response'; id: number; ok: true; result: T } | { kind: 'response'; id: number; ok: false; error: string };
export interface NotificationMessage<N> {
  kind: 'notification';
  notification: N;
}

/** A guard over unknown input: every message crossing the boundary is checked with one before use. */
export type Guard<T> = (value: unknown) => value is T;

/**
 * A panel's requests by name: what each carries besides its name, and what it is answered with. Both sides
 * take their types from it, so a request's answer follows from its name: the host's handler must return it,
 * and the webview's request resolves with it.
 */
export type RequestMap = { [name: string]: { args: object; result: object } };
/** The map of a panel that asks nothing. */
export type NoRequests = Record<never, never>;
/** A request as sent: its name as `type`, with its arguments (with K, the request of that name only). */
export type RequestOf<M extends RequestMap, K extends keyof M & string = keyof M & string> = {
  [P in K]: { type: P } & M[P]['args'];
}[K];
/** The answer to the request named K. */
export type ResultOf<M extends RequestMap, K extends keyof M & string> = M[K]['result'];
/** One guard per request for its answer: the asking side checks every answer before use. */
export type ResultGuards<M extends RequestMap> = { [K in keyof M & string]: Guard<ResultOf<M, K>> };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
export const isString = (v: unknown): v is string => typeof v === 'string';
export const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
export const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isOptional =
  <T>(guard: Guard<T>) =>
  (v: unknown): v is T | undefined =>
    v === undefined || guard(v);
export const isArrayOf =
  <T>(guard: Guard<T>) =>
  (v: unknown): v is T[] =>
    Array.isArray(v) && v.every(guard);
export const isOneOf =
  <T extends string>(values: readonly T[]) =>
  (v: unknown): v is T =>
    typeof v === 'string' && (values as readonly string[]).includes(v);

/** A plain JSON object (custom metadata, attributes): a record whose values survive a JSON round trip. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  if (!isRecord(v)) return false;
  try {
    return JSON.stringify(v).length < 64 * 1024;
  } catch {
    return false;
  }
}

/** Checks an object's fields with one guard each; extra fields are allowed (and ignored by readers). */
export function hasFields<T>(v: unknown, fields: { [K in keyof T]-?: Guard<T[K]> }): v is T {
  if (!isRecord(v)) return false;
  return Object.entries(fields).every(([key, guard]) => (guard as Guard<unknown>)(v[key]));
}

/** A union by `type`: the guard of the member named by the value's `type`. */
export function isTagged<T extends { type: string }>(guards: {
  [K in T['type']]: Guard<Extract<T, { type: K }>>;
}): Guard<T> {
  return (v: unknown): v is T => {
    if (!isRecord(v) || typeof v.type !== 'string' || !Object.hasOwn(guards, v.type)) return false;
    const guard = (guards as Record<string, Guard<T>>)[v.type];
    return guard?.(v) ?? false;
  };
}

export const isReady: Guard<ReadyMessage> = (v): v is ReadyMessage =>
  hasFields<ReadyMessage>(v, {
    kind: (k): k is 'ready' => k === 'ready',
    protocol: isNumber,
    socketClosed: isOptional(isBoolean),
  });

export function isCommand<C>(inner: Guard<C>): Guard<CommandMessage<C>> {
  return (v): v is CommandMessage<C> => isRecord(v) && v.kind === 'command' && inner(v.command);
}
export function isRequest<R>(inner: Guard<R>): Guard<RequestMessage<R>> {
  return (v): v is RequestMessage<R> =>
    isRecord(v) && v.kind === 'request' && Number.isSafeInteger(v.id) && inner(v.request);
}
export function isNotification<N>(inner: Guard<N>): Guard<NotificationMessage<N>> {
  return (v): v is NotificationMessage<N> => isRecord(v) && v.kind === 'notification' && inner(v.notification);
}
export const isResponse: Guard<ResponseMessage> = (v): v is ResponseMessage =>
  isRecord(v) &&
  v.kind === 'response' &&
  Number.isSafeInteger(v.id) &&
  (v.ok === true || (v.ok === false && typeof v.error === 'string'));
