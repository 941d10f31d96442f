import type { Environment } from '../agents/model';
import { servedVariables } from '../agents/served';
import type { Platform } from '../platform';
import type { StoredConversation, StoredTurn } from '../state';
import { type Knowledge, servedKnowledge } from './knowledge';
import {
  DEFAULT_HANDOFF_DESTINATION,
  fallbackLine,
  GOODBYE_LINE,
  GREETING_REPLY_LINE,
  greetingLine,
  HANDOFF_LINE,
  HANDOFF_REASON_USER,
  HANDOFF_UNAVAILABLE_LINE,
  SILENCE_LINE,
  userNameOf,
} from './persona';
import { recognise } from './requests';
import { OOD_THRESHOLD } from './retrieval';
import { classify, extractEntities, type UserAct } from './understanding';
import { varyAnswer } from './variability';

export interface StartConversation {
  agentId: string;
  environment: Environment;
  /** Analytics label: VOICE-SIP, WEBCHAT, CHAT. */
  channel: string;
  source: 'chat' | 'messaging' | 'outbound' | 'dni' | 'demo';
  /** The conversation id to use (for example an outbound call_sid); a new one otherwise. */
  id?: string;
  /** The project the conversation belongs to; the agent's project otherwise. */
  accountId?: string;
  projectId?: string;
  variantId?: string | null;
  integrationAttributes?: Record<string, unknown> | null;
  fromNumber?: string | null;
  toNumber?: string | null;
  /** Initial conv.state entries (for example SIP headers, DNI attributes). */
  state?: Record<string, unknown>;
  /** Where a handoff goes (the connector's destination); `human-support-queue` otherwise. */
  handoffDestination?: string | null;
  language?: string | null;
}

export interface TurnInput {
  message?: string;
  metadata?: Record<string, unknown>;
  integrationAttributes?: Record<string, unknown>;
  asrLangCode?: string;
  ttsLangCode?: string;
  /** Overrides the handoff destination remembered from the start. */
  handoffDestination?: string | null;
  /** False when a handoff cannot be made now: the turn is recorded, no handoff happens. */
  handoffAvailable?: boolean;
}

export interface TurnReply {
  response: string;
  endConversation: boolean;
  handoff?: { destination: string; reason: string };
  isOod: boolean;
  intents: string[];
  entities: Record<string, string>;
  isSilence: boolean;
  /** The user asked for a person (whether or not the handoff could be made). */
  handoffRequested: boolean;
  /** The recorded latency of the turn, ms. */
  latency: number;
  /** Wall-clock time to wait before answering (variability's varying latency), ms; 0 without it. */
  delayMs: number;
}

/** A turn was sent to a conversation that has already ended. */
export class ConversationEndedError extends Error {
  constructor(readonly conversationId: string) {
    super(`Conversation ${conversationId} has ended`);
  }
}

/** Per-conversation facts the engine needs across turns, kept in the platform's state. */
interface EngineSection {
  handoffDestinations: Record<string, string>;
}

/**
 * The deterministic agent: greets from its behavior, answers from knowledge topics by ranked
 * retrieval, marks out-of-domain turns, hands off when asked for a person, ends on goodbye.
 * Every turn is recorded on the conversation.
 */
export class AgentEngine {
  constructor(readonly platform: Platform) {}

  /** Starts a conversation and records the greeting turn. */
  start(opts: StartConversation): { conversation: StoredConversation; greeting: string } {
    const p = this.platform;
    const agent = p.state.agents.agents[opts.agentId];
    const projectId = opts.projectId ?? agent?.projectId ?? '';
    const accountId = opts.accountId ?? agent?.accountId ?? p.projectById(projectId)?.accountId ?? '';
    const variant = opts.variantId ? p.state.variants.find((v) => v.id === opts.variantId) : undefined;
    const now = p.now();
    const attributes = opts.integrationAttributes ?? null;
    const conversation: StoredConversation = {
      id: opts.id ?? p.nextId('conv'),
      account_id: accountId,
      project_id: projectId,
      agent_id: opts.agentId,
      variant_id: opts.variantId ?? null,
      variant_name: variant?.name ?? null,
      environment: opts.environment,
      started_at: now,
      ended_at: null,
      channel: opts.channel,
      from_number: opts.fromNumber ?? null,
      to_number: opts.toNumber ?? null,
      in_progress: true,
      total_duration: 0,
      polyai_duration: 0,
      handoff: false,
      handoff_reason: null,
      handoff_destination: null,
      language: opts.language ?? null,
      metrics: { CALL_IN_PROGRESS: 'true', CALL_COMPLETED: 'false', CALL_TURN: [] },
      // The built-in agent's start function keeps the integration attributes in conv.state.
      state: { ...(opts.state ?? {}), ...(attributes ? { integration_attributes: attributes } : {}) },
      turns: [],
      api_errors: 0,
      function_errors: 0,
      crashed: false,
      source: opts.source,
      integration_attributes: attributes,
    };
    if (opts.handoffDestination) this.section().handoffDestinations[conversation.id] = opts.handoffDestination;
    const knowledge = servedKnowledge(p, opts.agentId, opts.environment);
    const greeting = this.greetingOverride(opts.agentId) ?? greetingLine(knowledge.persona, userNameOf(attributes));
    this.record(conversation, {
      at: now,
      userInput: null,
      response: greeting,
      intents: ['greeting'],
      latency: latencyOf('greeting', greeting),
    });
    p.addConversation(conversation);
    return { conversation, greeting };
  }

  /** Answers one user turn and records it. Throws {@link ConversationEndedError} when the conversation has ended. */
  respond(conversation: StoredConversation, input: TurnInput): TurnReply {
    const p = this.platform;
    if (!conversation.in_progress) throw new ConversationEndedError(conversation.id);
    const message = input.message ?? '';
    this.applyTurnContext(conversation, input);
    const act = classify(message);
    // A booking or a blocked card is recognised whatever the answer: its intent, entities and state are recorded.
    const request = act === 'question' ? recognise(message, conversation.state, conversation.id) : undefined;
    const entities = act === 'silence' ? {} : { ...extractEntities(message), ...request?.entities };
    const knowledge = servedKnowledge(p, conversation.agent_id, conversation.environment);
    const decided = this.decide(conversation, act, message, knowledge, input);
    const varied = this.varied(conversation, message, decided, knowledge);
    const recognised = request ? { ...decided, intents: [...request.intents, ...decided.intents] } : decided;
    if (request) Object.assign(conversation.state, request.state);
    const reply = { ...recognised, response: varied.response };
    const latency = Math.round(latencyOf(reply.kind, reply.response) * varied.latencyFactor);
    const now = p.now();
    this.record(conversation, {
      at: now,
      userInput: message,
      response: reply.response,
      intents: reply.intents,
      entities,
      isOod: reply.isOod,
      isSilence: act === 'silence',
      latency,
    });
    if (reply.handoff) this.markHandoff(conversation, reply.handoff);
    if (reply.end) this.end(conversation, 'agent');
    else p.conversationChanged(conversation);
    return {
      response: reply.response,
      endConversation: reply.end,
      ...(reply.handoff ? { handoff: reply.handoff } : {}),
      isOod: reply.isOod,
      intents: reply.intents,
      entities,
      isSilence: act === 'silence',
      handoffRequested: act === 'handoff',
      latency,
      delayMs: varied.delayMs,
    };
  }

  /** The decided answer as the varied agent gives it, when the platform's variability is on. */
  private varied(
    conversation: StoredConversation,
    message: string,
    decided: Decision,
    knowledge: Knowledge,
  ): { response: string; latencyFactor: number; delayMs: number } {
    const { variabilityRate, variabilitySeed, variabilityLatencyMs } = this.platform.options;
    if (variabilityRate <= 0) return { response: decided.response, latencyFactor: 1, delayMs: 0 };
    // Another topic the question touches, else any other: what a model that strays answers.
    const other =
      decided.kind === 'faq'
        ? knowledge.index.rank(message).find((m) => m.topic.content !== decided.response)?.topic.content
        : undefined;
    return varyAnswer(
      { rate: variabilityRate, seed: variabilitySeed, latencyMs: variabilityLatencyMs },
      { conversationId: conversation.id, turn: conversation.turns.length, message },
      decided.response,
      other,
    );
  }

  /** Records a handoff asked for outside a turn (for example a messaging handoff request). */
  handOff(
    conversation: StoredConversation,
    reason: string,
    destination?: string | null,
  ): { destination: string; reason: string } {
    const handoff = { destination: destination || this.destinationOf(conversation), reason };
    this.markHandoff(conversation, handoff);
    this.platform.conversationChanged(conversation);
    return handoff;
  }

  /**
   * Ends a conversation (closed by the client, goodbye, session end) and updates its metrics. `by` says who ended
   * it, where that is known: kept in conv.state as `ended_by` (the built-in agent's end function stores it).
   */
  end(conversation: StoredConversation, by?: 'agent' | 'caller'): void {
    if (!conversation.in_progress) return;
    if (by) conversation.state.ended_by = by;
    conversation.metrics.CALL_IN_PROGRESS = 'false';
    conversation.metrics.CALL_COMPLETED = 'true';
    this.platform.endConversation(conversation);
    conversation.metrics.CALL_DURATION = String(conversation.total_duration);
  }

  private decide(
    conversation: StoredConversation,
    act: UserAct,
    message: string,
    knowledge: Knowledge,
    input: TurnInput,
  ): Decision {
    switch (act) {
      case 'silence':
        return { kind: 'silence', response: SILENCE_LINE, intents: ['silence'], isOod: false, end: false };
      case 'goodbye':
        return { kind: 'goodbye', response: GOODBYE_LINE, intents: ['goodbye'], isOod: false, end: true };
      case 'greeting':
        return { kind: 'greeting', response: GREETING_REPLY_LINE, intents: ['greeting'], isOod: false, end: false };
      case 'handoff': {
        if (input.handoffAvailable === false)
          return {
            kind: 'handoff',
            response: HANDOFF_UNAVAILABLE_LINE,
            intents: ['handoff'],
            isOod: false,
            end: false,
          };
        const destination = input.handoffDestination || this.destinationOf(conversation);
        return {
          kind: 'handoff',
          response: HANDOFF_LINE,
          intents: ['handoff'],
          isOod: false,
          end: false,
          handoff: { destination, reason: HANDOFF_REASON_USER },
        };
      }
      case 'question': {
        const best = knowledge.index.rank(message)[0];
        if (!best || best.score < OOD_THRESHOLD) {
          return {
            kind: 'ood',
            response: fallbackLine(knowledge.topicNames),
            intents: ['ood'],
            isOod: true,
            end: false,
          };
        }
        return {
          kind: 'faq',
          response: best.topic.content,
          intents: [`faq.${knowledge.slugs.get(best.topic.topicId) ?? 'topic'}`],
          isOod: false,
          end: false,
        };
      }
    }
  }

  private applyTurnContext(conversation: StoredConversation, input: TurnInput): void {
    if (input.integrationAttributes) {
      conversation.integration_attributes = {
        ...(conversation.integration_attributes ?? {}),
        ...input.integrationAttributes,
      };
      conversation.state.integration_attributes = conversation.integration_attributes;
    }
    // Metadata belongs to one turn: the state shows the metadata of the latest turn only.
    if (input.metadata) conversation.state.metadata = input.metadata;
    else delete conversation.state.metadata;
    if (input.asrLangCode) {
      conversation.language = input.asrLangCode;
      conversation.state.asr_lang_code = input.asrLangCode;
    }
    if (input.ttsLangCode) conversation.state.tts_lang_code = input.ttsLangCode;
  }

  private markHandoff(conversation: StoredConversation, handoff: { destination: string; reason: string }): void {
    conversation.handoff = true;
    conversation.handoff_destination = handoff.destination;
    conversation.handoff_reason = handoff.reason;
    conversation.metrics.HANDOFF_TO = handoff.destination;
    conversation.metrics.HANDOFF_REASON = handoff.reason;
    // The agent's part of the conversation ends at the handoff.
    const secs = Math.max(0, (this.platform.clock.now() - Date.parse(conversation.started_at)) / 1000);
    conversation.polyai_duration = Math.round(secs * 10) / 10;
  }

  private destinationOf(conversation: StoredConversation): string {
    return this.section().handoffDestinations[conversation.id] ?? DEFAULT_HANDOFF_DESTINATION;
  }

  private greetingOverride(agentId: string): string | undefined {
    // Runtime values take effect at once, without publishing: any config page may carry it.
    for (const variables of Object.values(servedVariables(this.platform, agentId))) {
      const v = variables.greetingOverride;
      if (typeof v === 'string' && v.trim() !== '') return v.trim();
    }
    return undefined;
  }

  private record(conversation: StoredConversation, t: TurnRecord): void {
    const turn: StoredTurn = {
      user_input: t.userInput,
      user_input_dtmf: null,
      user_input_datetime: t.at,
      barge_in: false,
      agent_response: t.response,
      agent_response_datetime: new Date(Date.parse(t.at) + t.latency).toISOString(),
      latency: t.latency,
      translated_user_input: null,
      english_agent_response: null,
      intents: t.intents,
      entities: t.entities ?? {},
      is_ood: t.isOod ?? false,
      is_silence: t.isSilence ?? false,
    };
    conversation.turns.push(turn);
    const times = conversation.metrics.CALL_TURN;
    if (Array.isArray(times)) times.push(t.at);
    else conversation.metrics.CALL_TURN = [t.at];
  }

  private section(): EngineSection {
    return this.platform.section<EngineSection>('engine', () => ({ handoffDestinations: {} }));
  }
}

type ReplyKind = 'greeting' | 'faq' | 'ood' | 'handoff' | 'goodbye' | 'silence';

interface Decision {
  kind: ReplyKind;
  response: string;
  intents: string[];
  isOod: boolean;
  end: boolean;
  handoff?: { destination: string; reason: string };
}

interface TurnRecord {
  at: string;
  userInput: string | null;
  response: string;
  intents: string[];
  entities?: Record<string, string>;
  isOod?: boolean;
  isSilence?: boolean;
  latency: number;
}

/** Base think time per kind of reply, ms. */
const BASE_LATENCY: Record<ReplyKind, number> = {
  greeting: 180,
  faq: 240,
  ood: 320,
  handoff: 280,
  goodbye: 150,
  silence: 120,
};

/**
 * A deterministic latency: think time by kind plus speaking time by length, so Conversations
 * and latency alerts see plausible, repeatable numbers.
 */
export function latencyOf(kind: ReplyKind, response: string): number {
  return BASE_LATENCY[kind] + Math.round(response.length * 2.5);
}

/** One engine per platform. */
const engines = new WeakMap<Platform, AgentEngine>();
export function engineOf(platform: Platform): AgentEngine {
  let e = engines.get(platform);
  if (!e) {
    e = new AgentEngine(platform);
    engines.set(platform, e);
  }
  return e;
}
