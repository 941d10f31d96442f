import type { RecordedConversation, RecordedTurn } from '../../../agentTests/fromConversation';
import type { ConversationRecord } from '../../../contract/conversations';

/**
 * A recorded conversation as a test case's material: the greeting (a first turn without user input), each turn
 * where the user said something or pressed keys with the agent's recorded answer, and the record's handoff on the
 * last of them (the record says a handoff happened, not at which turn). Silent turns are left out (a case sends a
 * message each turn), and so is the end: the record does not say whether the agent ended the conversation.
 */
export function recordAsRecorded(record: ConversationRecord): RecordedConversation {
  const [first, ...rest] = record.turns;
  const greets = first !== undefined && !first.user_input && !first.user_input_dtmf && !first.is_silence;
  const spoken = (greets ? rest : record.turns).filter((t) => (t.user_input || t.user_input_dtmf).trim());
  const leftOut = (greets ? rest : record.turns).length - spoken.length;
  const handoff = record.handoff
    ? {
        ...(record.handoff_destination ? { destination: record.handoff_destination } : {}),
        ...(record.handoff_reason ? { reason: record.handoff_reason } : {}),
      }
    : undefined;
  const turns: RecordedTurn[] = spoken.map((t, i) => ({
    user: t.user_input || t.user_input_dtmf,
    answer: t.agent_response,
    ...(handoff && i === spoken.length - 1 ? { handoff } : {}),
  }));
  return {
    conversationId: record.id,
    ...(record.environment ? { environment: record.environment } : {}),
    ...(record.variant_id ? { variant: record.variant_id } : {}),
    ...(greets ? { greeting: first.agent_response } : {}),
    turns,
    ...(leftOut > 0 ? { leftOut } : {}),
  };
}
