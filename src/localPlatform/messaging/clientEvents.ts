import type { WebSocket } from 'ws';
import {
  CLIENT_EVENT_TYPES,
  type ClientEventType,
  clientEventSchema,
  clientPayloadSchemas,
  MESSAGING_CHANNEL,
  SERVER_EVENT_TYPES,
  type SessionEndReason,
  SYSTEM_ERRORS as S,
} from '../../contract/messaging';
import { type AgentEngine } from '../engine/agentEngine';
import { servedKnowledge } from '../engine/knowledge';
import { classify } from '../engine/understanding';
import type { Platform } from '../platform';
import type { StoredConnector, StoredConversation } from '../state';
import { takeSocketFault } from './injectedErrors';
import {
  DEFAULT_HANDOFF_REQUEST_REASON,
  LIVE_AGENT_GOODBYE,
  LIVE_AGENT_NAME,
  liveAgentGreeting,
  liveAgentReply,
} from './liveAgent';
import type { Outbox } from './outbox';
import { findSession, isIdle, nextEventId, type StoredSession } from './store';
import { jsonTooDeep } from '../limits';
import { SPEC_ONLY_REFUSED_CLIENT_TYPES } from '../specOnlyEvents';

type Custom = Record<string, unknown> | undefined;
type HandoffMode = NonNullable<StoredConnector['handoffMode']>;

interface Parsed {
  type: ClientEventType;
  payload: Record<string, unknown>;
  custom: Custom;
}

const CLIENT_TYPES: ReadonlySet<string> = new Set(CLIENT_EVENT_TYPES);
const SERVER_TYPES: ReadonlySet<string> = new Set(SERVER_EVENT_TYPES);

/**
 * Reads one client message: the event, or the system error text it deserves (MSG-19..21). `refused`: client types
 * of ours taken for unknown ones (the spec-only mode's).
 */
export function parseClientEvent(
  data: string,
  refused: ReadonlySet<string> = new Set(),
): Parsed | { error: string; custom: Custom } {
  let json: unknown;
  // A message nested too deep could not be kept in the history and replayed: refused as bad input.
  if (jsonTooDeep(data)) return { error: S.invalidFormat, custom: undefined };
  try {
    json = JSON.parse(data);
  } catch {
    return { error: S.invalidFormat, custom: undefined };
  }
  const envelope = clientEventSchema.safeParse(json);
  if (!envelope.success) return { error: S.invalidFormat, custom: undefined };
  const { type, payload, metadata } = envelope.data;
  const custom = metadata?.custom;
  if (SERVER_TYPES.has(type)) return { error: `${S.notAllowedPrefix}${type}`, custom };
  if (!CLIENT_TYPES.has(type) || refused.has(type)) return { error: S.invalidFormat, custom };
  const clientType = type as ClientEventType;
  if (!clientPayloadSchemas[clientType].safeParse(payload).success) return { error: S.invalidFormat, custom };
  return { type: clientType, payload, custom };
}

/** What happens in a session when its client sends an event: the agent, the live agent, the end. */
export class ClientEvents {
  constructor(
    private readonly platform: Platform,
    private readonly engine: AgentEngine,
    private readonly out: Outbox,
    private readonly closeSockets: (sessionId: string) => void,
  ) {}

  async handle(sessionId: string, ws: WebSocket, data: string): Promise<void> {
    const event = parseClientEvent(
      data,
      this.platform.responses.mode === 'spec-only' ? SPEC_ONLY_REFUSED_CLIENT_TYPES : undefined,
    );
    const session = findSession(this.platform, sessionId);
    if ('error' in event) return this.out.error(ws, session, event.error, event.custom);
    const { custom } = event;
    if (session && event.type === 'EVENT_TYPE_USER_MESSAGE') {
      (session.received ??= []).push({ text: String(event.payload.text), ...(custom ? { custom } : {}) });
      this.platform.mutated();
    }
    if (takeSocketFault(this.platform, 'session-lookup', sessionId))
      return this.out.error(ws, session, S.sessionLookupFailed, custom);
    if (!session || session.status !== 'active' || takeSocketFault(this.platform, 'session-not-found', sessionId)) {
      this.out.error(ws, session, S.sessionNotFound, custom);
      if (session?.status === 'active') this.finish(session, 'session_not_found', custom);
      else this.closeSockets(sessionId);
      return;
    }
    if (isIdle(this.platform, session)) return this.finish(session, 'inactivity');
    session.lastActivityMs = this.platform.clock.now();
    const connector = this.platform.state.connectors.find((c) => c.id === session.connectorId);
    if (!connector || takeSocketFault(this.platform, 'connector-not-found', sessionId)) {
      this.out.error(ws, session, S.connectorNotFound, custom);
      return this.finish(session, 'connector_not_found', custom);
    }
    if (event.type !== 'EVENT_TYPE_USER_TYPING' && takeSocketFault(this.platform, 'overload', sessionId))
      return this.out.error(ws, session, S.overload, custom);
    switch (event.type) {
      case 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN':
        return this.join(session, ws, connector, custom);
      case 'EVENT_TYPE_USER_MESSAGE':
        return this.userMessage(session, ws, connector, String(event.payload.text), custom);
      case 'EVENT_TYPE_USER_TYPING':
        return;
      case 'EVENT_TYPE_REQUEST_HANDOFF':
        return this.requestHandoff(
          session,
          ws,
          connector,
          typeof event.payload.reason === 'string' ? event.payload.reason : undefined,
          custom,
        );
      case 'EVENT_TYPE_END_SESSION':
        return this.finish(session, 'ended_by_user', custom);
    }
  }

  /** Ends a session: the live agent leaves, the conversation ends, SESSION_END goes out. */
  finish(session: StoredSession, reason: SessionEndReason, custom?: Custom): void {
    if (session.status !== 'active') return;
    if (session.handoff) {
      this.out.emit(session, 'EVENT_TYPE_HANDOFF_ENDED', { reason: 'session_ended' }, custom);
      session.handoff = null;
    }
    const conversation = session.conversationId ? this.platform.findConversation(session.conversationId) : undefined;
    if (conversation) this.engine.end(conversation);
    this.out.end(session, reason, custom);
  }

  private async join(session: StoredSession, ws: WebSocket, connector: StoredConnector, custom: Custom): Promise<void> {
    if (session.joined) {
      // Already joined (the join was in the replay): the joined event is sent again, no new greeting.
      const joined = session.events.find((e) => e.type === 'EVENT_TYPE_VIRTUAL_AGENT_JOINED');
      if (joined) this.out.sendTo(ws, session, 'EVENT_TYPE_VIRTUAL_AGENT_JOINED', joined.payload, custom);
      return;
    }
    if (
      !this.platform.state.agents.agents[session.agentId] ||
      takeSocketFault(this.platform, 'start-failed', session.id)
    ) {
      return this.out.error(ws, session, S.startFailed, custom);
    }
    const { conversation, greeting } = this.engine.start({
      agentId: session.agentId,
      environment: session.environment,
      channel: MESSAGING_CHANNEL,
      source: 'messaging',
      accountId: session.accountId,
      projectId: session.projectId,
      variantId: connector.variantId ?? null,
      handoffDestination: connector.handoffDestination ?? null,
      state: { session_id: session.id, messaging_platform: session.platform },
    });
    session.conversationId = conversation.id;
    session.joined = true;
    const agentName =
      servedKnowledge(this.platform, session.agentId, session.environment).persona.name ??
      this.platform.state.agents.agents[session.agentId]!.name;
    this.out.emit(
      session,
      'EVENT_TYPE_VIRTUAL_AGENT_JOINED',
      { conversation_id: conversation.id, agent_name: agentName },
      custom,
    );
    await this.out.agentSays(session, greeting, custom);
  }

  /** The session's conversation, or the system error that says why there is none. */
  private conversationOf(session: StoredSession, ws: WebSocket, custom: Custom): StoredConversation | undefined {
    if (
      !session.joined ||
      !session.conversationId ||
      takeSocketFault(this.platform, 'conversation-not-found', session.id)
    ) {
      this.out.error(ws, session, S.conversationNotFound, custom);
      return undefined;
    }
    const conversation = this.platform.findConversation(session.conversationId);
    if (!conversation || takeSocketFault(this.platform, 'conversation-id-not-found', session.id)) {
      this.out.error(ws, session, S.conversationIdNotFound, custom);
      return undefined;
    }
    if (!conversation.in_progress) {
      this.out.error(ws, session, S.conversationNotFound, custom);
      return undefined;
    }
    return conversation;
  }

  private async userMessage(
    session: StoredSession,
    ws: WebSocket,
    connector: StoredConnector,
    text: string,
    custom: Custom,
  ): Promise<void> {
    const conversation = this.conversationOf(session, ws, custom);
    if (!conversation) return;
    this.out.emit(session, 'EVENT_TYPE_USER_MESSAGE', { text }, custom);
    if (session.handoff) return this.toLiveAgent(session, ws, connector, text, custom);
    if (takeSocketFault(this.platform, 'response-failed', session.id))
      return this.out.error(ws, session, S.responseFailed, custom);
    const mode = classify(text) === 'handoff' ? this.handoffMode(session, connector) : 'ok';
    const turn = this.engine.respond(conversation, {
      message: text,
      ...(custom ? { metadata: custom } : {}),
      handoffDestination: connector.handoffDestination ?? null,
      handoffAvailable: mode === 'ok' || mode === 'forward-fails',
    });
    if (turn.handoffRequested && !turn.handoff) {
      return this.out.error(
        ws,
        session,
        mode === 'connect-fails' ? S.handoffConnectFailed : S.handoffNotInitiated,
        custom,
      );
    }
    const interrupted = takeSocketFault(this.platform, 'stream-interrupted', session.id);
    await this.out.agentSays(
      session,
      turn.response,
      custom,
      interrupted ? () => this.out.error(ws, session, S.streamInterrupted, custom) : undefined,
    );
    if (interrupted || session.status !== 'active') return;
    if (turn.handoff) this.startHandoff(session, turn.handoff, custom);
    if (turn.endConversation) this.finish(session, 'conversation_ended', custom);
  }

  private requestHandoff(
    session: StoredSession,
    ws: WebSocket,
    connector: StoredConnector,
    reason: string | undefined,
    custom: Custom,
  ): void {
    const conversation = this.conversationOf(session, ws, custom);
    if (!conversation || session.handoff) return;
    const mode = this.handoffMode(session, connector);
    if (mode === 'invalid-config') return this.out.error(ws, session, S.handoffNotInitiated, custom);
    if (mode === 'connect-fails') return this.out.error(ws, session, S.handoffConnectFailed, custom);
    const handoff = this.engine.handOff(
      conversation,
      reason || DEFAULT_HANDOFF_REQUEST_REASON,
      connector.handoffDestination,
    );
    this.startHandoff(session, handoff, custom);
  }

  private startHandoff(session: StoredSession, handoff: { destination: string; reason: string }, custom: Custom): void {
    session.handoff = { ...handoff, liveAgentName: LIVE_AGENT_NAME };
    this.out.emit(session, 'EVENT_TYPE_HANDOFF_STARTED', handoff, custom);
    this.out.emit(
      session,
      'EVENT_TYPE_LIVE_AGENT_MESSAGE',
      {
        message_id: `msg-${nextEventId(session)}`,
        text: liveAgentGreeting(LIVE_AGENT_NAME),
        agent_name: LIVE_AGENT_NAME,
      },
      custom,
    );
  }

  private toLiveAgent(
    session: StoredSession,
    ws: WebSocket,
    connector: StoredConnector,
    text: string,
    custom: Custom,
  ): void {
    const name = session.handoff!.liveAgentName;
    if (connector.handoffMode === 'forward-fails' || takeSocketFault(this.platform, 'handoff-forward', session.id)) {
      return this.out.error(ws, session, S.handoffForwardFailed, custom);
    }
    if (classify(text) === 'goodbye') {
      this.out.emit(
        session,
        'EVENT_TYPE_LIVE_AGENT_MESSAGE',
        { message_id: `msg-${nextEventId(session)}`, text: LIVE_AGENT_GOODBYE, agent_name: name },
        custom,
      );
      this.out.emit(session, 'EVENT_TYPE_HANDOFF_ENDED', { reason: 'live_agent_ended' }, custom);
      session.handoff = null;
      return this.finish(session, 'conversation_ended', custom);
    }
    this.out.emit(
      session,
      'EVENT_TYPE_LIVE_AGENT_MESSAGE',
      { message_id: `msg-${nextEventId(session)}`, text: liveAgentReply(text), agent_name: name },
      custom,
    );
  }

  /** The connector's handoff mode, unless a fault says otherwise for this one request. */
  private handoffMode(session: StoredSession, connector: StoredConnector): HandoffMode {
    if (takeSocketFault(this.platform, 'handoff-init', session.id)) return 'invalid-config';
    if (takeSocketFault(this.platform, 'handoff-connect', session.id)) return 'connect-fails';
    return connector.handoffMode ?? 'ok';
  }
}
