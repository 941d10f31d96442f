/** The API families of the platform, as the client names them. */
export type ApiFamily =
  'agents' | 'alerts' | 'chat' | 'messaging' | 'conversations' | 'concurrency' | 'outbound' | 'externalEvents' | 'dni';

export const FAMILY_LABEL: Record<ApiFamily, string> = {
  agents: 'Agents API',
  alerts: 'Alerts API',
  chat: 'Chat API',
  messaging: 'Messaging API',
  conversations: 'Conversations API',
  concurrency: 'Concurrent Calls API',
  outbound: 'Outbound Calling API',
  externalEvents: 'External Events API',
  dni: 'DNI API',
};

export type ErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'conflict'
  | 'unprocessable'
  | 'rateLimited'
  | 'server'
  | 'badGateway'
  | 'notImplemented'
  | 'unavailable'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'unexpectedResponse'
  | 'invalidInput'
  | 'notConfigured'
  /** A write answered 2xx (so it was done) with an answer that could not be read: not a failure. */
  | 'acceptedUnreadable';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * An endpoint the spec does not show and that we assumed (one row of docs/api-assumptions.md).
 * Requests to such endpoints carry it, so that a 404 or 405 from a platform that differs can say
 * which assumption failed instead of a bare "not found".
 */
export interface Assumption {
  /** The row, in the spec's words as the document lists it, e.g. "List agents: not shown". */
  row: string;
  /** What a person can do instead, e.g. "Enter the agent id by hand." */
  manualPath?: string;
}

export const ASSUMPTIONS_DOC = 'docs/api-assumptions.md';

/**
 * A 404 from an assumed endpoint whose path names one item (a topic, a deployment, a webhook endpoint): either the
 * item does not exist or the platform has no such endpoint, and the answer cannot tell which.
 */
export interface UnconfirmedEndpoint extends Assumption {
  /** The item the path names, in words: "topic tp_1", "webhook endpoint we_2". */
  resource: string;
}

/** The advice after a gateway or server error, which a write that must not repeat replaces (see ui/common/failure.ts). */
export const TRY_AGAIN_ADVICE = 'Try again; if it keeps failing, check the platform status.';

export interface PlatformErrorInit {
  family: ApiFamily;
  kind: ErrorKind;
  /** What the user was doing, e.g. "Publish to sandbox" or "GET /v1/agents". */
  operation: string;
  status?: number;
  /** The server's own words (message, error_message). */
  serverMessage?: string;
  fieldErrors?: FieldError[];
  retryAfterMs?: number;
  /** The body of the error answer, for callers that read details (a merge 409 lists diverged items). */
  body?: unknown;
  /** Set when the answer suggests that an assumed endpoint does not exist on this platform. */
  assumption?: Assumption;
  /** Set on a 404 from an assumed single-item endpoint: the item or the endpoint is missing. */
  unconfirmed?: UnconfirmedEndpoint;
  /** For a network failure: the host that could not be reached (host:port), as the profile's address names it. */
  host?: string;
  /**
   * For a network failure: the connection was closed (reset) after the request went out, so the platform was
   * reached and may have acted; unset when nothing answered at all (refused, no such host).
   */
  closed?: boolean;
  /** For a timeout: how long the answer was waited for. */
  timeoutMs?: number;
  /**
   * The request must not be sent twice (a create, a publish, a chat turn: `retry: 'never'`): where its answer was lost
   * or a gateway stood in for it, the message says it may have been done and never to simply try again.
   */
  once?: boolean;
  cause?: unknown;
}

/** The profile's address each API family is reached through, in the words of the Add Connection Profile steps. */
export function addressSettingOf(family: ApiFamily): string {
  switch (family) {
    case 'agents':
    case 'alerts':
      return 'build address';
    case 'messaging':
      return 'messaging address';
    default:
      return 'runtime address';
  }
}

/** A network error code in words; other codes are given as they came. */
function networkReason(code: string | undefined): string | undefined {
  switch (code) {
    case undefined:
      return undefined;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'no such host: the name does not resolve';
    case 'ECONNREFUSED':
      return 'nothing answers there: the connection was refused';
    case 'ECONNRESET':
      return 'the connection was closed';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the network cannot reach it';
    default:
      return /CERT|SSL|TLS/i.test(code) ? `its certificate was not accepted (${code})` : code;
  }
}

/**
 * Every failure of a platform call. `message` is written for a person: what failed, what the
 * platform means by it, the platform's own words, and what to do.
 */
export class PlatformError extends Error {
  readonly family: ApiFamily;
  readonly kind: ErrorKind;
  readonly operation: string;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;
  readonly fieldErrors: readonly FieldError[];
  readonly retryAfterMs: number | undefined;
  readonly body: unknown;
  /** The assumption that failed, when an assumed endpoint answered 404 or 405; the UI offers `manualPath`. */
  readonly assumption: Assumption | undefined;
  /** A 404 from an assumed single-item endpoint: the item, or the endpoint itself, does not exist. */
  readonly unconfirmed: UnconfirmedEndpoint | undefined;
  /**
   * The message already says that the request may have been done (a write that must not repeat, whose answer was
   * lost or came from a gateway): callers add nothing more about it.
   */
  readonly toldMayHaveActed: boolean;
  /** A network failure after the request went out: the connection was closed before its answer came. */
  readonly closed: boolean;

  constructor(init: PlatformErrorInit) {
    super(composeMessage(init), { cause: init.cause });
    this.name = 'PlatformError';
    this.family = init.family;
    this.kind = init.kind;
    this.operation = init.operation;
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.fieldErrors = init.fieldErrors ?? [];
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
    this.assumption = init.assumption;
    this.unconfirmed = init.unconfirmed;
    this.toldMayHaveActed =
      (init.once === true && actedWords(init) !== undefined) ||
      (init.kind === 'acceptedUnreadable' && init.serverMessage === NOT_JSON);
    this.closed = init.closed === true;
  }

  /** True when the platform did what was asked (a 2xx to a write) although its answer could not be read. */
  get accepted(): boolean {
    return this.kind === 'acceptedUnreadable';
  }

  /** True when trying the same call again later may succeed. */
  get isTransient(): boolean {
    return ['rateLimited', 'server', 'badGateway', 'unavailable', 'network', 'timeout'].includes(this.kind);
  }
}

/**
 * A PlatformError, known by its name: the editor's bundle and the client bundle (dist/client.js) each have their own
 * copy of the class, so `instanceof` would not recognise one made in the other.
 */
export function isPlatformError(err: unknown): err is PlatformError {
  return err instanceof Error && err.name === 'PlatformError' && typeof (err as { kind?: unknown }).kind === 'string';
}

/** A failure of an endpoint the spec does not show (a 404 or 405 naming its assumption). */
export function isAssumptionFailure(err: unknown): err is PlatformError & { assumption: Assumption } {
  return isPlatformError(err) && err.assumption !== undefined;
}

/**
 * How much a failed write tells of what happened on the platform: `answerLost` (network, timeout: the write may have
 * acted before its answer was lost), `gateway` (502, 503, 504: a gateway's error says nothing of whether the platform
 * behind it acted), `accepted` (a 2xx whose answer could not be read: it did act), or undefined (the platform
 * answered that it did not act).
 */
export function mayHaveActed(err: unknown): 'answerLost' | 'gateway' | 'accepted' | undefined {
  if (!isPlatformError(err)) return undefined;
  return actedOf(err.kind);
}

function actedOf(kind: ErrorKind): 'answerLost' | 'gateway' | 'accepted' | undefined {
  if (kind === 'acceptedUnreadable') return 'accepted';
  if (kind === 'network' || kind === 'timeout') return 'answerLost';
  if (kind === 'badGateway' || kind === 'unavailable') return 'gateway';
  return undefined;
}

/**
 * What a request that must not repeat may have done, in words, when the failure cannot tell (its answer lost, or a
 * gateway's error in its place); undefined when the platform said it did nothing or did it. A network failure where
 * nothing answered at all (refused, no such host) sent nothing.
 */
function actedWords(init: PlatformErrorInit): string | undefined {
  const acted = actedOf(init.kind);
  if (acted === 'gateway') return 'It may have been done: check before trying again.';
  if (acted === 'answerLost' && (init.kind === 'timeout' || init.closed))
    return 'It may have been done before the answer was lost: refresh and check before trying again.';
  return undefined;
}

export function kindOfStatus(status: number): ErrorKind {
  switch (status) {
    case 400:
      return 'validation';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'notFound';
    case 409:
      return 'conflict';
    case 413:
      return 'validation';
    case 422:
      return 'unprocessable';
    case 429:
      return 'rateLimited';
    case 501:
      return 'notImplemented';
    case 502:
      return 'badGateway';
    case 503:
    case 504:
      return 'unavailable';
    default:
      return status >= 500 ? 'server' : 'validation';
  }
}

/** What a status means for each family, in the words of the spec's error tables. */
export function meaningOf(family: ApiFamily, status: number): string {
  const specific = SPECIFIC[family]?.[status];
  if (specific) return specific;
  switch (status) {
    case 400:
      return 'the request was not valid';
    case 401:
      return `the ${credentialName(family)} is missing or was not accepted`;
    case 403:
      return `the ${credentialName(family)} lacks permission for this workspace or resource`;
    case 404:
      return 'it was not found';
    case 405:
      return 'this endpoint does not accept that method';
    case 409:
      return 'it conflicts with the current state';
    case 422:
      return 'an id is malformed or a value does not match its schema';
    case 429:
      return 'too many requests: the platform asked to slow down';
    case 500:
      return 'the platform had an internal error';
    case 502:
      return 'a backend of the platform did not answer properly';
    case 503:
      return 'the platform is unavailable for the moment';
    case 504:
      return 'a gateway in front of the platform did not get its answer in time';
    default:
      return `the platform answered HTTP ${status}`;
  }
}

const SPECIFIC: Partial<Record<ApiFamily, Record<number, string>>> = {
  agents: {
    409: 'it conflicts with the current state of the agent (for example a branch that diverged from main, a name already in use, or a deployment that cannot move further)',
  },
  alerts: {
    409: 'the account already has the maximum number of alert rules or webhook endpoints',
    502: 'the monitoring backend failed to sync',
  },
  outbound: {
    400: 'the number could not be parsed, or the metadata is not string-only or is over 26 KB in base64',
    401: 'the outbound auth token is invalid or missing, or its connector is not configured for outbound calling',
    500: 'the call could not be placed',
  },
  externalEvents: {
    400: 'the event id could not be found or is invalid',
    500: 'the platform had a transient processing error',
  },
  concurrency: {
    400: 'a parameter is missing or invalid, or the time range is longer than one week',
    403: 'the Conversations API key is not one for this project and region, or lacks Conversations data permission',
    404: 'the account or project was not found',
    501: 'slicing by language or phone number is not available',
  },
  conversations: {
    400: 'a parameter is invalid, or the cursor is malformed',
    403: 'the Conversations API key is not one for this project and region, or lacks Conversations data permission',
  },
};

function credentialName(family: ApiFamily): string {
  switch (family) {
    case 'chat':
      return 'Chat API key or connector token';
    case 'messaging':
      return 'connector token or access token';
    case 'outbound':
      return 'outbound auth token';
    case 'externalEvents':
      return 'External Events key';
    case 'dni':
      return 'DNI key';
    case 'conversations':
    case 'concurrency':
      return 'Conversations API key';
    case 'alerts':
      return 'Alerts API key';
    case 'agents':
      return 'Agents API key';
  }
}

function advice(init: PlatformErrorInit): string | undefined {
  switch (init.kind) {
    case 'unauthorized':
      return `Check the ${credentialName(init.family)} of the connection profile (Agent Workbench: Set Credential).`;
    case 'notConfigured':
      return 'Add it with Agent Workbench: Set Credential.';
    case 'forbidden':
      // Conversations keys are scoped to a project and a region.
      return init.family === 'conversations' || init.family === 'concurrency'
        ? "Set a Conversations API key of this project's region, with Conversations data permission (Agent Workbench: Set Credential)."
        : 'Ask the platform operator for a key with access to this workspace.';
    case 'rateLimited':
      return init.retryAfterMs !== undefined
        ? `Try again in ${Math.ceil(init.retryAfterMs / 1000)} s.`
        : 'Try again in a moment.';
    case 'server':
    case 'badGateway':
    case 'unavailable':
      return TRY_AGAIN_ADVICE;
    case 'network':
      return init.closed
        ? `Try again; if it keeps failing, check your network and the ${addressSettingOf(init.family)} of the connection profile.`
        : `Check the ${addressSettingOf(init.family)} of the connection profile (Agent Workbench: Edit Connection Profile) and your network.`;
    case 'timeout':
      return 'Try again; if it keeps failing, check the platform status and your network.';
    case 'acceptedUnreadable':
      return init.serverMessage === NOT_JSON
        ? `Refresh to see whether it was done, and check the ${addressSettingOf(init.family)} of the connection profile (Agent Workbench: Edit Connection Profile) if something other than the API answers there; the answer as received is in the log (Agent Workbench: Show Log).`
        : 'Refresh to see the result; the answer as received is in the log (Agent Workbench: Show Log).';
    case 'unexpectedResponse':
      // A redirect's words already say what to check.
      if (init.status !== undefined && init.status >= 300 && init.status < 400) return undefined;
      return init.serverMessage === NOT_JSON
        ? `Check the ${addressSettingOf(init.family)} of the connection profile (Agent Workbench: Edit Connection Profile): something other than the API (a proxy, a sign-in page) may answer there. The answer as received is in the log (Agent Workbench: Show Log).`
        : 'Try again later; the answer as received is in the log (Agent Workbench: Show Log), to report if it keeps coming.';
    default:
      return undefined;
  }
}

/** The server message of an answer that is not JSON where JSON was expected. */
export const NOT_JSON = 'The answer is not JSON';

function composeMessage(init: PlatformErrorInit): string {
  const parts: string[] = [];
  const label = FAMILY_LABEL[init.family];
  // A write that may have been done is not said to have failed.
  const failed = init.once && actedWords(init) ? '' : ' failed';
  switch (init.kind) {
    case 'network':
      parts.push(
        init.closed
          ? `${init.operation}${failed}: the connection to the ${label}${init.host ? ` at ${init.host}` : ''} was closed before its answer came`
          : `${init.operation} failed: the ${label} could not be reached${init.host ? ` at ${init.host}` : ''}${init.serverMessage ? ` (${networkReason(init.serverMessage)})` : ''}`,
      );
      break;
    case 'timeout':
      parts.push(
        `${init.operation}${failed}: the ${label} did not answer in time${init.timeoutMs ? ` (${secondsWords(init.timeoutMs)})` : ''}`,
      );
      break;
    case 'cancelled':
      parts.push(`${init.operation} was cancelled`);
      break;
    case 'unexpectedResponse':
      parts.push(
        init.serverMessage === NOT_JSON
          ? `${init.operation} failed: the ${label} answered HTTP ${init.status ?? '?'} with text, not JSON`
          : `${init.operation}: the ${label} answered in an unexpected shape`,
      );
      break;
    case 'acceptedUnreadable':
      // Text where JSON was due may come from something in front of the platform (a proxy, a sign-in page).
      parts.push(
        init.serverMessage === NOT_JSON
          ? `${init.operation}: the ${label} answered HTTP ${init.status ?? '?'} with text, not JSON, so it may have been done`
          : `${init.operation}: the platform accepted it; its answer could not be read (${label}, HTTP ${init.status ?? '?'})`,
      );
      break;
    case 'invalidInput':
      parts.push(`${init.operation}: nothing was sent`);
      break;
    case 'notConfigured':
      parts.push(
        `${init.operation} needs the ${init.serverMessage ?? credentialName(init.family)}, which this connection profile does not have`,
      );
      break;
    default:
      parts.push(
        init.unconfirmed
          ? `${init.operation} failed: ${eitherMissingWords(init.unconfirmed)} (${label}, HTTP ${init.status ?? '?'})`
          : init.assumption
            ? `${init.operation} failed: this platform does not seem to offer the endpoint (${label}, HTTP ${init.status ?? '?'}). ` +
              `The spec does not show it and we assumed it ("${stripDot(init.assumption.row)}", see ${ASSUMPTIONS_DOC}, ${label})`
            : `${init.operation}${failed}: ${meaningOf(init.family, init.status ?? 0)} (${label}, HTTP ${init.status ?? '?'})`,
      );
  }
  let text = parts.join('');
  // Text where JSON was due is said in the lead; which field the text lacks would tell nothing more.
  const notJson = init.serverMessage === NOT_JSON;
  const said = init.serverMessage && !notJson && forPeople(init.serverMessage);
  if (said && init.kind !== 'notConfigured' && init.kind !== 'network') text += `. ${stripDot(said)}`;
  if (init.fieldErrors?.length && !notJson)
    text += `. ${init.fieldErrors.map((e) => `${e.field}: ${stripDot(e.message)}`).join('; ')}`;
  const assumed = init.assumption ?? init.unconfirmed;
  // A write that must not repeat is never told to simply try again where it may have been done.
  const acted = init.once ? actedWords(init) : undefined;
  const tip = assumed ? assumed.manualPath : (acted ?? advice(init));
  return `${text}.${tip ? ` ${tip}` : ''}`;
}

/** "30 s", "1.5 s". */
function secondsWords(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** "either topic tp_1 does not exist or this platform has no such endpoint (assumption: row "...", see docs/...)". */
export function eitherMissingWords(u: Pick<UnconfirmedEndpoint, 'resource' | 'row'>): string {
  return `either ${u.resource} does not exist or this platform has no such endpoint (assumption: row "${stripDot(u.row)}", see ${ASSUMPTIONS_DOC})`;
}

/**
 * A platform's message without what is meant for the developers of a client: retry strategies ("Retry with
 * exponential backoff": the error offers Retry where it may) and a lead that repeats the failure ("Call placement
 * failed:", said already).
 */
export function forPeople(message: string): string {
  return message
    .replace(/(^|[.;]\s*)[^.;]*\bback-?off\b[^.;]*[.;]?/gi, '$1')
    .replace(/^\s*call placement failed:\s*/i, '')
    .replace(/[\s;,:]+$/, '');
}

function stripDot(s: string): string {
  return s.trim().replace(/[.\s]+$/, '');
}
