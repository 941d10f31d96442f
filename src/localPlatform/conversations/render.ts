import {
  CONVERSATION_FIELD_DESCRIPTIONS,
  type ConversationMetrics,
  type ConversationRecord,
  type ConversationRecordV1,
  type ConversationsApiVersion,
  type ConversationTurn,
  type ConversationTurnV1,
  V1_WHITELIST_FIELDS,
} from '../../contract/conversations';
import type { ProjectSettings, StoredConversation, StoredTurn } from '../state';

/** What shapes a rendered record besides the version: project settings and the request. */
export interface RenderOptions {
  settings: ProjectSettings;
  /** include_latency=true (v3 only). */
  includeLatency: boolean;
  /** The platform's now, for the running duration of conversations in progress. */
  nowMs: number;
}

function durations(conv: StoredConversation, nowMs: number): { total: number; platform: number } {
  if (!conv.in_progress) return { total: conv.total_duration, platform: conv.polyai_duration };
  const total = Math.max(0, Math.round((nowMs - Date.parse(conv.started_at)) / 100) / 10);
  return { total, platform: conv.handoff && conv.polyai_duration > 0 ? conv.polyai_duration : total };
}

/** The project's enabled response metrics; built-ins are computed, custom ones come from the record. */
export function metricsOf(conv: StoredConversation, enabled: readonly string[], total: number): ConversationMetrics {
  const out: ConversationMetrics = {};
  for (const name of enabled) {
    switch (name) {
      case 'CALL_DURATION':
        out[name] = String(total);
        break;
      case 'CALL_TURN':
        out[name] = conv.turns.map((t) => t.agent_response_datetime ?? t.user_input_datetime ?? conv.started_at);
        break;
      case 'CALL_IN_PROGRESS':
        out[name] = String(conv.in_progress);
        break;
      case 'CALL_COMPLETED':
        out[name] = String(!conv.in_progress);
        break;
      case 'HANDOFF_TO':
        if (conv.handoff) out[name] = conv.handoff_destination ?? '';
        break;
      case 'HANDOFF_REASON':
        if (conv.handoff) out[name] = conv.handoff_reason ?? '';
        break;
      default: {
        const custom = conv.metrics[name];
        if (custom !== undefined) out[name] = custom;
      }
    }
  }
  return out;
}

function turnV3(t: StoredTurn, opts: RenderOptions, full: boolean): ConversationTurn {
  const turn: ConversationTurn = {
    user_input: t.user_input ?? '',
    user_input_dtmf: t.user_input_dtmf ?? '',
    user_input_datetime: t.user_input_datetime ?? '',
    barge_in: t.barge_in,
    agent_response: t.agent_response ?? '',
    agent_response_datetime: t.agent_response_datetime ?? '',
    intents: t.intents,
    entities: t.entities,
    is_ood: t.is_ood,
    is_silence: t.is_silence,
  };
  if (full && opts.includeLatency) turn.latency = t.latency;
  if (full && opts.settings.translation) {
    // The local platform does not translate: a missing translation is the original text.
    turn.translated_user_input = t.translated_user_input ?? t.user_input ?? '';
    turn.english_agent_response = t.english_agent_response ?? t.agent_response ?? '';
  }
  return turn;
}

/** A v3 record, or with `full` false a v2 record (v3's schema without latency and translations). */
export function renderRecord(conv: StoredConversation, opts: RenderOptions, full: boolean): ConversationRecord {
  const { total, platform } = durations(conv, opts.nowMs);
  let silences = 0;
  let ood = 0;
  for (const t of conv.turns) {
    if (t.is_silence) silences += 1;
    if (t.is_ood) ood += 1;
  }
  return {
    id: conv.id,
    account_id: conv.account_id,
    project_id: conv.project_id,
    variant_id: conv.variant_id ?? '',
    variant_name: conv.variant_name ?? '',
    environment: conv.environment,
    started_at: conv.started_at,
    channel: conv.channel,
    from_number: conv.from_number ?? '',
    to_number: conv.to_number ?? '',
    in_progress: conv.in_progress,
    num_turns: conv.turns.length,
    total_duration: total,
    polyai_duration: platform,
    handoff: conv.handoff,
    handoff_reason: conv.handoff_reason ?? '',
    handoff_destination: conv.handoff_destination ?? '',
    num_silences: silences,
    num_ood: ood,
    metrics: metricsOf(conv, opts.settings.responseMetrics, total),
    state: conv.state,
    turns: opts.settings.transcriptVisibility ? conv.turns.map((t) => turnV3(t, opts, full)) : [],
  };
}

const orNull = (s: string | null): string | null => (s === '' ? null : s);

function turnV1(t: StoredTurn): ConversationTurnV1 {
  return {
    user_input: orNull(t.user_input),
    user_input_dtmf: orNull(t.user_input_dtmf),
    user_input_datetime: orNull(t.user_input_datetime),
    barge_in: t.barge_in,
    agent_response: orNull(t.agent_response),
    agent_response_datetime: orNull(t.agent_response_datetime),
    intents: t.intents,
    entities: t.entities,
    is_ood: t.is_ood,
    is_silence: t.is_silence,
  };
}

/** A v1 record: null for empty text, no latency or translations; whitelisting keeps four fields. */
export function renderRecordV1(conv: StoredConversation, opts: RenderOptions): ConversationRecordV1 {
  if (opts.settings.v1FieldWhitelist) {
    return { id: conv.id, started_at: conv.started_at, account_id: conv.account_id, project_id: conv.project_id };
  }
  // Turns are rendered below in v1's own form.
  const r = renderRecord(conv, { ...opts, settings: { ...opts.settings, transcriptVisibility: false } }, false);
  return {
    ...r,
    variant_id: orNull(conv.variant_id),
    variant_name: orNull(conv.variant_name),
    channel: orNull(conv.channel),
    from_number: orNull(conv.from_number),
    to_number: orNull(conv.to_number),
    handoff_reason: orNull(conv.handoff_reason),
    handoff_destination: orNull(conv.handoff_destination),
    turns: opts.settings.transcriptVisibility ? conv.turns.map(turnV1) : [],
  };
}

/** The `descriptions` object: every key the records of this reply can carry. */
export function descriptionsFor(version: ConversationsApiVersion, opts: RenderOptions): Record<string, string> {
  if (version === 'v1' && opts.settings.v1FieldWhitelist) {
    return Object.fromEntries(V1_WHITELIST_FIELDS.map((k) => [k, CONVERSATION_FIELD_DESCRIPTIONS[k]!]));
  }
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(CONVERSATION_FIELD_DESCRIPTIONS)) {
    if (key === 'turns.latency' && (version !== 'v3' || !opts.includeLatency)) continue;
    if (
      (key === 'turns.translated_user_input' || key === 'turns.english_agent_response') &&
      (version !== 'v3' || !opts.settings.translation)
    )
      continue;
    out[key] = text;
  }
  return out;
}
