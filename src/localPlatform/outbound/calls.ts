import { randomBytes } from 'node:crypto';
import {
  CALL_SID_PREFIX,
  CALL_STATUS_RETENTION_MS,
  type OutboundCallStatus,
  type OutboundEncryption,
} from '../../contract/outbound';
import { engineOf } from '../engine/agentEngine';
import type { Platform } from '../platform';
import type { StoredConnector } from '../state';

/**
 * Numbers the local platform reserves so clients can exercise every outcome of a call, in
 * the manner of Twilio's test numbers. Any other valid number connects at once.
 */
export const OUTBOUND_TEST_NUMBERS = {
  /** Placement fails: `POST /v1/outbound-calling` answers 500 and no call exists. */
  placementFails: '+15005550001',
  /** The call is placed but the line is busy: status `failed` at once, no conversation. */
  busy: '+15005550002',
  /** The call rings until `POST /_local/outbound/calls/{call_sid}/answer`, or fails unanswered after a minute. */
  ringsUntilAnswered: '+15005550006',
} as const;

/** A ringing call nobody answers fails after this long (platform clock). */
export const RING_TIMEOUT_MS = 60_000;

type StoredStatus = 'ringing' | 'in-progress' | 'completed' | 'failed';

export interface StoredCall {
  call_sid: string;
  connector_id: string;
  agent_id: string;
  to_number: string;
  from_number: string | null;
  encryption: OutboundEncryption;
  /** Becomes `state.sip_headers` of the conversation once the call connects. */
  sip_headers: Record<string, string>;
  status: StoredStatus;
  created_at: string;
  answered_at: string | null;
  ended_at: string | null;
  conversation_id: string | null;
  failure_reason: string | null;
}

interface OutboundSection {
  calls: Record<string, StoredCall>;
}

export interface PlaceCall {
  connector: StoredConnector;
  toNumber: string;
  encryption: OutboundEncryption;
  sipHeaders: Record<string, string>;
}

/** The calls of the local platform, kept in `state.families.outbound` so they persist. */
export class OutboundCalls {
  constructor(private readonly platform: Platform) {}

  private get calls(): Record<string, StoredCall> {
    return this.platform.section<OutboundSection>('outbound', () => ({ calls: {} })).calls;
  }

  /** Places a call that was accepted; the reserved numbers decide odd outcomes. */
  place(req: PlaceCall): StoredCall {
    this.prune();
    const now = this.platform.now();
    const call: StoredCall = {
      call_sid: CALL_SID_PREFIX + randomBytes(16).toString('hex'),
      connector_id: req.connector.id,
      agent_id: req.connector.agentId,
      to_number: req.toNumber,
      from_number:
        this.platform.state.agents.phoneNumbers.find((p) => p.connectorId === req.connector.id)?.number ?? null,
      encryption: req.encryption,
      sip_headers: req.sipHeaders,
      status: 'ringing',
      created_at: now,
      answered_at: null,
      ended_at: null,
      conversation_id: null,
      failure_reason: null,
    };
    this.calls[call.call_sid] = call;
    if (req.toNumber === OUTBOUND_TEST_NUMBERS.busy) this.fail(call, 'busy', now);
    else if (req.toNumber !== OUTBOUND_TEST_NUMBERS.ringsUntilAnswered) {
      try {
        this.answer(call);
      } catch (err) {
        // The call never connected, so there is no call to report on.
        Reflect.deleteProperty(this.calls, call.call_sid);
        throw err;
      }
    }
    return call;
  }

  /** The call connects: the conversation starts and the agent's start function greets. */
  answer(call: StoredCall): void {
    if (call.status !== 'ringing') return;
    const connector = this.platform.state.connectors.find((c) => c.id === call.connector_id);
    // The conversation takes the call_sid as its id, so the Conversations API finds the call by it.
    const { conversation } = engineOf(this.platform).start({
      id: call.call_sid,
      agentId: call.agent_id,
      accountId: connector?.accountId,
      projectId: connector?.projectId,
      handoffDestination: connector?.handoffDestination ?? null,
      environment: connector?.environment ?? 'live',
      channel: 'VOICE-SIP',
      source: 'outbound',
      variantId: connector?.variantId ?? null,
      fromNumber: call.from_number,
      toNumber: call.to_number,
      // Built-in state keys of a call (from_, to, call_sid) beside the SIP headers the agent reads.
      state: {
        from_: call.from_number,
        to: call.to_number,
        call_sid: call.call_sid,
        sip_headers: { ...call.sip_headers },
      },
    });
    call.status = 'in-progress';
    call.answered_at = this.platform.now();
    call.conversation_id = conversation.id;
  }

  /** Ends a call: the conversation ends (completed), or a ringing call fails. */
  hangUp(call: StoredCall): void {
    this.refresh(call);
    if (call.status === 'ringing') {
      this.fail(call, 'no-answer', this.platform.now());
      return;
    }
    const conv = call.conversation_id ? this.platform.findConversation(call.conversation_id) : undefined;
    if (conv) engineOf(this.platform).end(conv);
    this.refresh(call);
  }

  /** A call by sid, brought up to date; undefined when unknown or past retention. */
  get(callSid: string): StoredCall | undefined {
    this.prune();
    return this.calls[callSid];
  }

  list(): StoredCall[] {
    this.prune();
    return Object.values(this.calls);
  }

  /** The public status record (OUT-10). */
  view(call: StoredCall): OutboundCallStatus {
    return {
      call_sid: call.call_sid,
      status: call.status,
      to_number: call.to_number,
      from_number: call.from_number,
      encryption: call.encryption,
      conversation_id: call.conversation_id,
      created_at: call.created_at,
      ended_at: call.ended_at,
      failure_reason: call.failure_reason,
    };
  }

  /** Statuses follow the platform clock and the conversation, so they are computed on read. */
  private refresh(call: StoredCall): void {
    const now = this.platform.clock.now();
    if (call.status === 'ringing' && now - Date.parse(call.created_at) >= RING_TIMEOUT_MS) {
      this.fail(call, 'no-answer', new Date(Date.parse(call.created_at) + RING_TIMEOUT_MS).toISOString());
    }
    if (call.status === 'in-progress') {
      const conv = call.conversation_id ? this.platform.findConversation(call.conversation_id) : undefined;
      if (!conv || !conv.in_progress) {
        call.status = 'completed';
        call.ended_at = conv?.ended_at ?? this.platform.now();
      }
    }
  }

  /** Drops calls whose status is past retention (about 2 hours after the end). */
  private prune(): void {
    const now = this.platform.clock.now();
    for (const [sid, call] of Object.entries(this.calls)) {
      this.refresh(call);
      if (call.ended_at && now - Date.parse(call.ended_at) > CALL_STATUS_RETENTION_MS)
        Reflect.deleteProperty(this.calls, sid);
    }
  }

  private fail(call: StoredCall, reason: string, at: string): void {
    call.status = 'failed';
    call.failure_reason = reason;
    call.ended_at = at;
  }
}
