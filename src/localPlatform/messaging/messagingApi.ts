import type { WebSocket } from 'ws';
import type { ServerEvent } from '../../contract/messaging';
import type { IDisposable } from '../../core/disposable';
import type { ConnectorReply, MessagingSessionsReply, ReceivedMessagesReply, SessionEventReply } from '../adminApi';
import { engineOf } from '../engine/agentEngine';
import type { Family, FamilyContext } from '../family';
import { buildError, Router } from '../http';
import type { Platform } from '../platform';
import type { StoredConnector } from '../state';
import type { StreamChaos } from './chaos';
import { ClientEvents } from './clientEvents';
import { addHandshakeRoutes } from './handshakeRoutes';
import { Outbox } from './outbox';
import { RateLimiter } from './rateLimit';
import { SocketHub } from './socketHub';
import { findSession, isIdle, messagingOf, nextEventId } from './store';

/** How often open sockets are checked for injected drops and sessions for inactivity, ms. */
const SWEEP_MS = 100;
/** Inactivity of sessions without sockets is checked every this many sweeps. */
const IDLE_SWEEP_EVERY = 10;

/**
 * Messaging API: access tokens, sessions and the WebSocket of events (MSG-1..30). Sessions and
 * their history live in the platform's state; sockets, queues and limits live here and are
 * dropped on reset and dispose.
 */
export function createMessagingFamily({ platform, admin }: FamilyContext): Family {
  const router = new Router();
  const httpLimiter = new RateLimiter(
    () => platform.options.messagingHttpPerMinute,
    60_000,
    () => platform.clock.now(),
  );
  const socketLimiter = new RateLimiter(
    () => platform.options.wsMessagesPerSecond,
    1000,
    () => platform.clock.now(),
  );
  addHandshakeRoutes(router, platform, httpLimiter);

  /** One queue per session, so an answer streams out whole before the next event is handled. */
  const queues = new Map<string, Promise<void>>();
  const hub: SocketHub = new SocketHub(platform, {
    connected(session, ws, cursor) {
      session.lastActivityMs = platform.clock.now();
      outbox.batch(ws, session, cursor);
    },
    message(sessionId, ws, data, released) {
      // Over the per-session rate, messages are dropped unanswered (MSG-28).
      if (!released && !socketLimiter.hit(sessionId).ok) return;
      if (!released && outbox.chaos.onClientMessage(sessionId, ws, data)) return;
      enqueue(sessionId, ws, data);
    },
    idle(session) {
      events.finish(session, 'inactivity');
    },
  });
  const outbox = new Outbox(platform, hub);
  const events = new ClientEvents(platform, engineOf(platform), outbox, (id) =>
    hub.close(id, 1000, 'session not found'),
  );

  function enqueue(sessionId: string, ws: WebSocket, data: string): void {
    const next = (queues.get(sessionId) ?? Promise.resolve())
      .then(() => events.handle(sessionId, ws, data))
      .catch(() => undefined);
    queues.set(sessionId, next);
    void next.then(() => {
      if (queues.get(sessionId) === next) queues.delete(sessionId);
    });
  }

  const ENDED_SESSION_RETENTION_MS = 60 * 60 * 1000;
  let ticks = 0;
  function sweep(): void {
    ticks += 1;
    for (const id of hub.sessionIds()) {
      if (platform.faults.take('messaging', 'WS', `/ws/${id}`, (f) => f.dropWebSocket === true)) hub.terminate(id);
    }
    const all = ticks % IDLE_SWEEP_EVERY === 0;
    const ids = all ? Object.keys(messagingOf(platform).sessions) : hub.sessionIds();
    const sessions = messagingOf(platform).sessions;
    for (const id of ids) {
      const session = sessions[id];
      if (session?.status === 'active' && isIdle(platform, session)) events.finish(session, 'inactivity');
      // A session over for an hour is forgotten, history and all: it can never be resumed, and
      // long runs would otherwise keep every session ever made (and rewrite them to --data-dir).
      else if (
        all &&
        session &&
        session.status !== 'active' &&
        !hub.sessionIds().includes(id) &&
        platform.clock.now() - session.lastActivityMs > ENDED_SESSION_RETENTION_MS
      ) {
        Reflect.deleteProperty(sessions, id);
        platform.mutated();
      }
    }
  }
  const timer = setInterval(sweep, SWEEP_MS);
  timer.unref();

  const onReset: IDisposable = platform.onDidReset(() => {
    hub.closeAll(1012, 'The local platform was reset');
    queues.clear();
    httpLimiter.clear();
    socketLimiter.clear();
    outbox.chaos.clear();
  });

  addMessagingAdminRoutes(admin, platform, hub, outbox.chaos);

  return {
    name: 'messaging',
    base: 'messaging',
    router,
    handleUpgrade(req, socket, head, path, query) {
      if (path !== '/ws') return false;
      hub.upgrade(req, socket, head, query);
      return true;
    },
    dispose() {
      clearInterval(timer);
      onReset.dispose();
      hub.dispose();
      queues.clear();
    },
  };
}

const HANDOFF_MODES: ReadonlyArray<NonNullable<StoredConnector['handoffMode']>> = [
  'ok',
  'connect-fails',
  'forward-fails',
  'invalid-config',
];

/** `/_local/messaging/...`: see sessions, and switch a webchat connector's handoff behaviour or host. */
function addMessagingAdminRoutes(admin: Router, platform: Platform, hub: SocketHub, chaos: StreamChaos): void {
  admin.get('/messaging/sessions', () => ({
    body: {
      sessions: Object.values(messagingOf(platform).sessions).map((s) => ({
        session_id: s.id,
        status: s.status,
        joined: s.joined,
        conversation_id: s.conversationId,
        streaming_enabled: s.streaming,
        platform: s.platform,
        events: s.events.length,
        connections: hub.count(s.id),
        in_handoff: s.handoff !== null,
        chaos: chaos.tallyOf(s.id),
      })),
    } satisfies MessagingSessionsReply,
  }));
  // What the WebSocket took in: how a test counts that each message reached the platform once.
  admin.get('/messaging/sessions/:sessionId/messages', (ctx) => {
    const session = findSession(platform, ctx.param('sessionId'));
    if (!session) throw buildError(404, `No messaging session ${ctx.params.sessionId}`);
    return { body: { messages: session.received ?? [] } satisfies ReceivedMessagesReply };
  });
  // One event of any type, to the session's open sockets only (never its history): how a client under test
  // meets an event it does not know.
  admin.post('/messaging/sessions/:sessionId/events', (ctx) => {
    const session = findSession(platform, ctx.param('sessionId'));
    if (!session) throw buildError(404, `No messaging session ${ctx.params.sessionId}`);
    const body = (ctx.json() ?? {}) as Record<string, unknown>;
    if (typeof body.type !== 'string' || body.type === '')
      throw buildError(400, 'Invalid type', [{ field: 'type', message: 'the event type, a non-empty string' }]);
    const payload = body.payload ?? {};
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
      throw buildError(400, 'Invalid payload', [{ field: 'payload', message: 'an object' }]);
    const event: ServerEvent = {
      id: nextEventId(session),
      type: body.type,
      timestamp: platform.now(),
      payload: payload as Record<string, unknown>,
      metadata: {},
    };
    hub.broadcast(session.id, event);
    return { status: 201, body: { event, connections: hub.count(session.id) } satisfies SessionEventReply };
  });
  admin.patch('/messaging/connectors/:connectorId', (ctx) => {
    const connector = platform.state.connectors.find(
      (c) => c.id === ctx.params.connectorId && (c.kind === 'webchat' || c.kind === 'chat'),
    );
    if (!connector) throw buildError(404, `No webchat or Chat connector ${ctx.params.connectorId}`);
    const body = (ctx.json() ?? {}) as Record<string, unknown>;
    // A Chat connector has a handoff destination only: the rest is a webchat's.
    const webchatOnly = (['handoffMode', 'hostDomain', 'appNamespace'] as const).find((f) => f in body);
    if (connector.kind === 'chat' && webchatOnly)
      throw buildError(400, `A Chat connector has no ${webchatOnly}`, [
        { field: webchatOnly, message: 'set only handoffDestination on a Chat connector' },
      ]);
    if ('handoffMode' in body) {
      if (!HANDOFF_MODES.includes(body.handoffMode as never))
        throw buildError(400, 'Invalid handoffMode', [
          { field: 'handoffMode', message: `one of ${HANDOFF_MODES.join(', ')}` },
        ]);
      connector.handoffMode = body.handoffMode as StoredConnector['handoffMode'];
    }
    for (const field of ['hostDomain', 'appNamespace', 'handoffDestination'] as const) {
      if (!(field in body)) continue;
      const v = body[field];
      if (v !== null && typeof v !== 'string')
        throw buildError(400, `Invalid ${field}`, [{ field, message: 'a string or null' }]);
      if (field === 'handoffDestination') connector.handoffDestination = v ?? undefined;
      else connector[field] = v;
    }
    platform.mutated();
    return {
      body: {
        id: connector.id,
        handoffMode: connector.handoffMode ?? 'ok',
        hostDomain: connector.hostDomain ?? null,
        appNamespace: connector.appNamespace ?? null,
        handoffDestination: connector.handoffDestination ?? null,
      } satisfies ConnectorReply,
    };
  });
}
