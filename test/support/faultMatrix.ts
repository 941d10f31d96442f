import { AgentsClient } from '../../src/client/agents';
import { AlertsClient } from '../../src/client/alerts';
import { ChatClient } from '../../src/client/chat';
import { ConcurrencyClient } from '../../src/client/concurrency';
import type { ClientContext } from '../../src/client/context';
import { ConversationsClient } from '../../src/client/conversations';
import { DniClient } from '../../src/client/dni';
import type { ApiFamily, ErrorKind } from '../../src/client/errors';
import { ExternalEventsClient } from '../../src/client/externalEvents';
import { MessagingClient } from '../../src/client/messaging';
import { OutboundClient } from '../../src/client/outbound';
import type { LocalPlatform } from '../../src/localPlatform/server';
import { LOCAL_PROJECT } from '../../src/localPlatform/seed/credentials';
import { type FaultKind, type FaultTarget, exactPath } from './faults';
import type { LocalAdmin } from './localAdmin';

/**
 * The client's fault matrix (docs/reliability.md, "The client under each fault"): for each API family of the spec one
 * read and one write (the Conversations and Concurrent Calls APIs have no write, External Events and DNI no read; the
 * Agents API also has an idempotent write), each under every fault of FAULT_KINDS. What each cell must give is
 * `expected()`, so the table in the documentation and the test read the same source.
 */

const AGENT = 'ag_support';
const MAIN_BRANCH = 'br_support_main';

/** How a request may be repeated: `safe` by the transport (reads, idempotent writes), `once` never by itself. */
export type Repeat = 'safe' | 'once';

export interface MatrixWorld {
  lp: LocalPlatform;
  admin: LocalAdmin;
}

/** One operation of the matrix. */
export interface MatrixOperation {
  id: string;
  family: ApiFamily;
  /** read, write, or an idempotent write (PATCH, PUT). */
  role: 'read' | 'write' | 'idempotent write';
  /** What the client calls it, in the table. */
  name: string;
  /** The spec's rule ids of the endpoint. */
  rules: string;
  repeat: Repeat;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** The endpoint's path below its base, for the fault and the request log. */
  path: string;
  base: FaultTarget['family'];
  /** An endpoint the spec does not show: the spec-only platform lacks it, and the cell is skipped there. */
  assumed?: string;
  /**
   * Statuses the operation repeats by itself although it is not `safe`: a messaging session where the platform
   * answered that it made none (429, 5xx), since a second session is harmless.
   */
  repeatsAfterRefusal?: boolean;
  /**
   * The spec describes the answer only in words ("updated behavior"): what it leaves out is read from what was sent,
   * so an answer of another shape still reads.
   */
  filledFromRequest?: boolean;
  /** The spec shows no body for the answer: any 2xx reads as done, whatever it carries. */
  bodyNotRead?: boolean;
  /** What the cell needs first (a conversation to close, an event to wait for), made without faults. */
  prepare?(ctx: ClientContext, world: MatrixWorld): Promise<unknown>;
  /** Calls the operation; `marker` is unique to the cell, carried in what a write sends where it can be. */
  run(ctx: ClientContext, marker: string, prepared: unknown): Promise<unknown>;
  /** For a write: whether the platform carried out the call with this marker. */
  done?(world: MatrixWorld, marker: string, prepared: unknown): boolean | Promise<boolean>;
}

const stateHas = (world: MatrixWorld, marker: string): boolean =>
  JSON.stringify(world.lp.platform.state).includes(marker);
const sessions = (world: MatrixWorld): number =>
  Object.keys(
    ((world.lp.platform.state.families.messaging ?? {}) as { sessions?: Record<string, unknown> }).sessions ?? {},
  ).length;

const project = `/v1/acme/${LOCAL_PROJECT.slug}`;

export const MATRIX_OPERATIONS: MatrixOperation[] = [
  {
    id: 'agents.read',
    family: 'agents',
    role: 'read',
    name: 'List the phone numbers',
    rules: 'AGENT-11',
    repeat: 'safe',
    method: 'GET',
    base: 'build',
    path: `/v1/agents/${AGENT}/telephony/phone-numbers`,
    run: (ctx) => new AgentsClient(ctx).listPhoneNumbers(AGENT),
  },
  {
    id: 'agents.write',
    family: 'agents',
    role: 'write',
    name: 'Publish to sandbox',
    rules: 'AGENT-6',
    repeat: 'once',
    method: 'POST',
    base: 'build',
    path: `/v1/agents/${AGENT}/deployments/publish`,
    run: (ctx, marker) => new AgentsClient(ctx).publish(AGENT, 'sandbox', marker),
    done: stateHas,
  },
  {
    id: 'agents.idempotent',
    family: 'agents',
    role: 'idempotent write',
    name: 'Save the behavior',
    rules: 'AGENT-4',
    repeat: 'safe',
    method: 'PATCH',
    base: 'build',
    path: `/v1/agents/${AGENT}/branches/${MAIN_BRANCH}/behavior`,
    filledFromRequest: true,
    run: (ctx, marker) => new AgentsClient(ctx).updateBehavior(AGENT, MAIN_BRANCH, `Behavior ${marker}`),
    done: stateHas,
  },
  {
    id: 'alerts.read',
    family: 'alerts',
    role: 'read',
    name: 'Read the current alerts',
    rules: 'ALERT-8',
    repeat: 'safe',
    method: 'GET',
    base: 'build',
    path: '/v1/alerts',
    run: (ctx) => new AlertsClient(ctx).currentAlerts(),
  },
  {
    id: 'alerts.write',
    family: 'alerts',
    role: 'write',
    name: 'Create an alert rule',
    rules: 'ALERT-8',
    repeat: 'once',
    method: 'POST',
    base: 'build',
    path: '/v1/alert-rules',
    run: (ctx, marker) =>
      new AlertsClient(ctx).createRule({
        name: marker,
        project_id: LOCAL_PROJECT.slug,
        metric: 'turn_latency_p95',
        operator: '>',
        threshold_value: 2000,
        window_duration: '5m',
      }),
    done: stateHas,
  },
  {
    id: 'chat.read',
    family: 'chat',
    role: 'idempotent write',
    name: 'Close a chat conversation',
    rules: 'CHAT-6',
    repeat: 'safe',
    method: 'PUT',
    base: 'runtime',
    path: `${project}/chat/close`,
    prepare: async (ctx) => (await new ChatClient(ctx).create()).conversation_id,
    run: (ctx, _marker, conversationId) => new ChatClient(ctx).close(conversationId as string),
  },
  {
    id: 'chat.write',
    family: 'chat',
    role: 'write',
    name: 'Start a chat conversation',
    rules: 'CHAT-1',
    repeat: 'once',
    method: 'POST',
    base: 'runtime',
    path: `${project}/chat/create`,
    run: (ctx, marker) => new ChatClient(ctx).create({ integration_attributes: { marker } }),
    done: stateHas,
  },
  {
    id: 'messaging.read',
    family: 'messaging',
    role: 'read',
    name: 'Get an access token',
    rules: 'MSG-5',
    repeat: 'safe',
    method: 'POST',
    base: 'messaging',
    path: '/api/v1/access-token',
    run: (ctx) => new MessagingClient(ctx).accessToken(),
  },
  {
    id: 'messaging.write',
    family: 'messaging',
    role: 'write',
    name: 'Start a messaging session',
    rules: 'MSG-10',
    repeat: 'once',
    repeatsAfterRefusal: true,
    method: 'POST',
    base: 'messaging',
    path: '/api/v1/sessions',
    prepare: async (ctx, world) => ({ token: await new MessagingClient(ctx).accessToken(), before: sessions(world) }),
    run: (ctx, _marker, prepared) => new MessagingClient(ctx).createSession({}, (prepared as { token: never }).token),
    done: (world, _marker, prepared) => sessions(world) > (prepared as { before: number }).before,
  },
  {
    id: 'conversations.read',
    family: 'conversations',
    role: 'read',
    name: 'Read a page of conversations',
    rules: 'CONV-1',
    repeat: 'safe',
    method: 'GET',
    base: 'runtime',
    path: `/v3/acme/${LOCAL_PROJECT.slug}/conversations`,
    run: (ctx) => new ConversationsClient(ctx).page({ limit: 1 }),
  },
  {
    id: 'concurrency.read',
    family: 'concurrency',
    role: 'read',
    name: 'Read the concurrency',
    rules: 'CONC-1',
    repeat: 'safe',
    method: 'GET',
    base: 'runtime',
    path: `/v1/acme/${LOCAL_PROJECT.slug}/conversations/concurrency`,
    run: (ctx) =>
      new ConcurrencyClient(ctx).query({ start_time: '2026-01-05T10:00:00Z', end_time: '2026-01-05T11:00:00Z' }),
  },
  {
    id: 'outbound.read',
    family: 'outbound',
    role: 'read',
    name: 'Read a call status',
    rules: 'OUT-10',
    repeat: 'safe',
    method: 'GET',
    base: 'runtime',
    // Every call's status: the call is made by the cell's own preparation.
    path: '/^\\/v1\\/outbound-calling\\/OUT-/',
    assumed: 'GET /v1/outbound-calling/{call_sid} (call status)',
    prepare: async (ctx) => (await new OutboundClient(ctx).placeCall({ to_number: '+14155550199' })).call_sid,
    run: (ctx, _marker, sid) => new OutboundClient(ctx).callStatus(sid as string),
  },
  {
    id: 'outbound.write',
    family: 'outbound',
    role: 'write',
    name: 'Place an outbound call',
    rules: 'OUT-1',
    repeat: 'once',
    method: 'POST',
    base: 'runtime',
    path: '/v1/outbound-calling',
    run: (ctx, marker) => new OutboundClient(ctx).placeCall({ to_number: '+14155550199', metadata: { marker } }),
    done: stateHas,
  },
  {
    id: 'externalEvents.write',
    family: 'externalEvents',
    role: 'write',
    name: 'Send an external event',
    rules: 'EXT-1',
    repeat: 'once',
    method: 'POST',
    base: 'runtime',
    path: '/v1/external-events/webhook',
    bodyNotRead: true,
    prepare: async (ctx, world) => {
      const { conversation_id } = await new ChatClient(ctx).create();
      return (await world.admin.awaitExternalEvent({ conversation_id })).event_id;
    },
    run: (ctx, marker, eventId) =>
      new ExternalEventsClient(ctx).send({
        eventIdLocation: 'payload',
        eventIdPath: 'id',
        body: JSON.stringify({ id: eventId, result: marker }),
        contentType: 'application/json',
      }),
    done: async (world, _marker, eventId) =>
      (await world.admin.externalEvents()).delivered.some((d) => JSON.stringify(d).includes(String(eventId))),
  },
  {
    id: 'dni.write',
    family: 'dni',
    role: 'write',
    name: 'Reserve a number',
    rules: 'DNI-1',
    repeat: 'once',
    method: 'POST',
    base: 'runtime',
    path: '/v1/conversations/dni-reservation',
    run: (ctx, marker) => new DniClient(ctx).reserve({ marker }),
    done: stateHas,
  },
];

/** The fault target of an operation: its method and exactly its path. */
export function targetOf(op: MatrixOperation): FaultTarget {
  return { family: op.base, method: op.method, path: op.path.startsWith('/^') ? op.path : exactPath(op.path) };
}

/** How many times the transport repeats a request (the product's default backoff). */
export const RETRIES = 3;

/** What a cell must give. */
export interface Expected {
  /** How many requests reach the platform. */
  attempts: number;
  /** Answered in the end (the fault was waited out), or the error's kind. */
  outcome: 'answered' | ErrorKind;
  /** For a write: whether the platform carries it out (`later`: after the client stopped waiting). */
  carriedOut?: boolean | 'later';
  /** Words the message must hold. */
  says: RegExp[];
  /** Words it must not. */
  never: RegExp[];
  /** A short result for the table. */
  result: string;
}

/** A lead that says the call failed ("Publish to sandbox failed: ..."). */
const FAILED = /^[^:]*\bfailed:/;
const MAY = /may have been done/;
const CLOSED = /was closed before its answer came/;

/** What an operation gives under a fault. */
export function expected(op: MatrixOperation, fault: FaultKind): Expected {
  const safe = op.repeat === 'safe';
  const read = op.method === 'GET';
  const all = 1 + RETRIES;
  const repeated = `repeated ${RETRIES} times`;
  // The messaging session is made again where the platform said it made none.
  const refusedAgain = safe || op.repeatsAfterRefusal === true;
  // Whether the platform carried it out is checked for the writes that can say.
  const writes = !read && op.done !== undefined;
  const give = (
    attempts: number,
    outcome: Expected['outcome'],
    carriedOut: boolean | 'later',
    says: RegExp[],
    never: RegExp[],
    result: string,
  ): Expected => ({ attempts, outcome, ...(writes ? { carriedOut } : {}), says, never, result });
  const answered = (result: string): Expected => give(1, 'answered', true, [], [], result);
  switch (fault) {
    case 'timeout':
      return safe
        ? give(
            1,
            'timeout',
            'later',
            [/did not answer in time \(\d+(\.\d)? s\)/, /Try again/],
            [MAY],
            'not repeated; "did not answer in time", try again',
          )
        : give(
            1,
            'timeout',
            'later',
            [/did not answer in time/, MAY],
            [FAILED, /Try again/],
            'sent once; "may have been done", check first',
          );
    case 'resetBefore':
    case 'resetAfter': {
      const done = fault === 'resetAfter';
      return safe
        ? give(
            all,
            'network',
            done,
            [CLOSED, /Try again/],
            [MAY, /could not be reached/],
            `${repeated}; "closed before its answer", try again`,
          )
        : give(
            1,
            'network',
            done,
            [CLOSED, MAY],
            [FAILED, /could not be reached/],
            `sent once${done ? ', done' : ''}; "may have been done", check first`,
          );
    }
    case 'retryAfterShort':
      return refusedAgain
        ? give(2, 'answered', true, [], [], 'waited 1 s, answered')
        : give(1, 'rateLimited', false, [/Try again in 1 s/], [MAY], 'sent once; "try again in 1 s"');
    case 'retryAfterLong':
      return give(1, 'rateLimited', false, [/Try again in 120 s/], [MAY], 'not waited; "try again in 120 s"');
    case 'rateLimited':
      return give(
        refusedAgain ? all : 1,
        'rateLimited',
        false,
        [/Try again in a moment/],
        [MAY],
        `${refusedAgain ? `${repeated} with backoff` : 'sent once'}; "try again in a moment"`,
      );
    case 'status500':
      return give(
        refusedAgain ? all : 1,
        'server',
        false,
        [FAILED, /Try again/],
        [MAY],
        `${refusedAgain ? repeated : 'sent once'}; "failed", try again`,
      );
    case 'status502':
    case 'status503':
    case 'status504':
    case 'errorPage': {
      const page = fault === 'errorPage' ? [/502 Bad Gateway/] : [];
      const kind = fault === 'status502' || fault === 'errorPage' ? 'badGateway' : 'unavailable';
      const what = fault === 'errorPage' ? ", the page's title" : '';
      if (safe)
        return give(all, kind, false, [FAILED, /Try again/, ...page], [MAY], `${repeated}; "failed"${what}, try again`);
      return give(
        refusedAgain ? all : 1,
        kind,
        false,
        [MAY, /check before trying again/, ...page],
        [FAILED, /Try again;/],
        `${refusedAgain ? repeated : 'sent once'}; "may have been done"${what}, check first`,
      );
    }
    case 'notJson':
      if (op.bodyNotRead) return answered('sent once, done (the spec shows no body)');
      return read
        ? give(
            1,
            'unexpectedResponse',
            false,
            [/with text, not JSON/, /Check the .* address/],
            [MAY],
            '"text, not JSON": check the address',
          )
        : give(
            1,
            'acceptedUnreadable',
            true,
            [/with text, not JSON/, MAY, /Refresh/],
            [FAILED],
            'sent once, done; "may have been done", refresh',
          );
    case 'wrongShape':
      if (op.bodyNotRead) return answered('sent once, done (the spec shows no body)');
      if (op.filledFromRequest) return answered('sent once, done; read from what was sent');
      return read
        ? give(
            1,
            'unexpectedResponse',
            false,
            [/unexpected shape/, /Show Log/],
            [MAY],
            '"unexpected shape", the field named, log',
          )
        : give(
            1,
            'acceptedUnreadable',
            true,
            [/accepted it/, /Refresh/],
            [FAILED],
            'sent once, done; "accepted", refresh',
          );
    case 'slow':
      return answered('waited, answered, sent once');
  }
}
