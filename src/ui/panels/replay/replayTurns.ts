import { wordDiff } from '../../../core/wordDiff';
import type { ConversationRecord } from '../../../contract/conversations';
import type { DiffPart, ReplayTurn } from '../../../protocol/replay';

/**
 * The turns of a replay from a recorded conversation: the greeting (turn 0, what starting a
 * conversation answers), then each turn where the user said something, pressed keys or stayed
 * silent, with the agent's recorded answer. Each carries the number the transcript gives the recorded
 * turn (every recorded turn counts, the greeting too), so the two read alike.
 */
export function turnsOf(record: ConversationRecord): ReplayTurn[] {
  const turns = record.turns;
  const first = turns[0];
  const greets = first !== undefined && !first.user_input && !first.user_input_dtmf && !first.is_silence;
  const out: ReplayTurn[] = [
    greets
      ? { index: 0, turn: 1, user: '', recorded: first.agent_response, state: 'waiting' }
      : { index: 0, user: '', recorded: '', state: 'waiting', uncompared: true },
  ];
  for (const t of greets ? turns.slice(1) : turns) {
    out.push({
      index: out.length,
      turn: greets ? out.length + 1 : out.length,
      user: t.user_input || t.user_input_dtmf,
      recorded: t.agent_response,
      state: 'waiting',
    });
  }
  return out;
}

/** The recorded answer against the new one, word by word (see wordDiff). */
export function compare(recorded: string, replayed: string): { diff: DiffPart[]; same: boolean } {
  return wordDiff(recorded, replayed);
}
