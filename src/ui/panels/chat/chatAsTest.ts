import type { RecordedConversation, RecordedTurn } from '../../../agentTests/fromConversation';
import type { ChatSnapshot } from '../../../protocol/chat';

/** What a Chat API answer said besides its text, as the inspector kept it. */
interface RespondOutcome {
  handoff?: { destination?: string; reason?: string };
  end: boolean;
}

/**
 * The chat playground's conversation as a test case's material: the person's messages in order, each with the
 * agent's answer (its pieces joined), and in Chat API mode the handoff and end of each answer as the inspector
 * recorded them (`chat/respond`). In messaging mode a handoff the status shows goes with the last turn, and the end
 * is left unchecked (a session may end for reasons other than the agent's answer).
 */
export function chatAsRecorded(snapshot: ChatSnapshot, conversationId: string | undefined): RecordedConversation {
  const { settings, lines, inspector, status } = snapshot;
  let greeting: string | undefined;
  const turns: Array<{ user: string; answers: string[]; metadata?: Record<string, unknown> }> = [];
  for (const line of lines) {
    if (line.error) continue;
    if (line.role === 'user')
      turns.push({ user: line.text, answers: [], ...(line.custom ? { metadata: line.custom } : {}) });
    else if (line.role === 'agent' || line.role === 'liveAgent') {
      const turn = turns.at(-1);
      if (turn) turn.answers.push(line.text);
      else greeting = greeting === undefined ? line.text : `${greeting}\n${line.text}`;
    }
  }
  const chatApi = settings.mode !== 'messaging';
  const outcomes: RespondOutcome[] = chatApi
    ? inspector.filter((e) => e.direction === 'in' && e.label === 'chat/respond').map((e) => outcomeOf(e.json))
    : [];
  const answered = turns.filter((t) => t.answers.length > 0);
  const recorded: RecordedTurn[] = answered.map((t, i) => {
    const outcome = chatApi
      ? outcomes[i]
      : i === answered.length - 1 && status.handoff
        ? { handoff: { destination: status.handoff }, end: false }
        : undefined;
    return {
      user: t.user,
      answer: t.answers.join('\n'),
      ...(t.metadata ? { metadata: t.metadata } : {}),
      ...(outcome?.handoff ? { handoff: outcome.handoff } : {}),
      ...(chatApi && outcome ? { end: outcome.end } : {}),
    };
  });
  return {
    ...(conversationId ? { conversationId } : {}),
    ...(settings.target.environment ? { environment: settings.target.environment } : {}),
    ...(chatApi && settings.variantId ? { variant: settings.variantId } : {}),
    ...(chatApi && settings.integrationAttributes ? { integrationAttributes: settings.integrationAttributes } : {}),
    ...(chatApi && settings.asrLanguage ? { asrLangCode: settings.asrLanguage } : {}),
    ...(chatApi && settings.ttsLanguage ? { ttsLangCode: settings.ttsLanguage } : {}),
    ...(greeting !== undefined ? { greeting } : {}),
    turns: recorded,
    ...(turns.length > answered.length ? { leftOut: turns.length - answered.length } : {}),
  };
}

function outcomeOf(json: string): RespondOutcome {
  try {
    const body = JSON.parse(json) as {
      handoff?: { destination?: unknown; reason?: unknown };
      end_conversation?: unknown;
    };
    const h = body.handoff;
    return {
      end: body.end_conversation === true,
      ...(h && typeof h === 'object'
        ? {
            handoff: {
              ...(typeof h.destination === 'string' ? { destination: h.destination } : {}),
              ...(typeof h.reason === 'string' ? { reason: h.reason } : {}),
            },
          }
        : {}),
    };
  } catch {
    return { end: false };
  }
}
