import type { Environment } from '../agents/model';
import type { Platform } from '../platform';
import type { StoredConversation } from '../state';

export interface StartConversation {
  agentId: string;
  environment: Environment;
  /** Analytics label: VOICE-SIP, WEBCHAT, CHAT. */
  channel: string;
  source: 'chat' | 'messaging' | 'outbound' | 'dni' | 'demo';
  variantId?: string | null;
  integrationAttributes?: Record<string, unknown> | null;
  fromNumber?: string | null;
  toNumber?: string | null;
  /** Initial conv.state entries (for example SIP headers, DNI attributes). */
  state?: Record<string, unknown>;
}

export interface TurnInput {
  message?: string;
  metadata?: Record<string, unknown>;
  integrationAttributes?: Record<string, unknown>;
  asrLangCode?: string;
  ttsLangCode?: string;
}

export interface TurnReply {
  response: string;
  endConversation: boolean;
  handoff?: { destination: string; reason: string };
  isOod: boolean;
  intents: string[];
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
    throw new Error(`not implemented yet: ${opts.agentId}`);
  }

  /** Answers one user turn and records it. */
  respond(conversation: StoredConversation, input: TurnInput): TurnReply {
    throw new Error(`not implemented yet: ${conversation.id} ${input.message ?? ''}`);
  }
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
