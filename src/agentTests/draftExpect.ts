import type { RecordedConversation } from './fromConversation';
import { type LanguageModel, ModelCallError, type ModelMessage } from './model/types';

/** At most this many criteria are drafted for one answer: a few to edit, not a list to read. */
const MAX_PER_TURN = 3;

/**
 * The prompt that drafts `expect:` criteria from a recorded conversation: for each answer, one to three sentences
 * in a builder's words of what it must do (its meaning, not its wording), for the person to edit.
 */
export function draftMessages(conversation: RecordedConversation): ModelMessage[] {
  const lines: string[] = [];
  let n = 0;
  if (conversation.greeting !== undefined) lines.push(`Answer ${n++} (greeting): ${conversation.greeting}`);
  for (const t of conversation.turns) {
    lines.push(`User: ${t.user}`);
    lines.push(`Answer ${n++}: ${t.answer}`);
  }
  return [
    {
      role: 'system',
      content:
        'You write acceptance criteria for a voice or chat agent. For each numbered answer of the conversation, write ' +
        `1 to ${MAX_PER_TURN} short sentences saying what the answer must do or say (its meaning, not its exact words), ` +
        'such as "says returns are accepted within 30 days and offers to start one". Reply with JSON only: ' +
        '{"answers": [{"answer": 0, "expect": ["..."]}]}.',
    },
    { role: 'user', content: lines.join('\n') },
  ];
}

/**
 * The conversation with drafted `expect:` criteria on its greeting and answers, from one call of the model; throws
 * a `ModelCallError` when the model fails or its answer is not the JSON asked for.
 */
export async function draftExpectations(
  model: LanguageModel,
  conversation: RecordedConversation,
  signal?: AbortSignal,
): Promise<RecordedConversation> {
  const reply = await model.complete(draftMessages(conversation), signal);
  const drafted = parseDraft(reply.text);
  if (!drafted)
    throw new ModelCallError(
      `${model.id} answered something that is not the criteria asked for; write the expect: criteria by hand.`,
      'unreadable',
    );
  const offset = conversation.greeting !== undefined ? 1 : 0;
  return {
    ...conversation,
    ...(offset && drafted.get(0) ? { greetingExpect: drafted.get(0) } : {}),
    turns: conversation.turns.map((t, i) => {
      const expect = drafted.get(i + offset);
      return expect ? { ...t, expect } : t;
    }),
  };
}

/** The criteria by answer number, from a reply that holds the JSON asked for (fenced or not). */
function parseDraft(text: string): Map<number, string[]> | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  const answers = (value as { answers?: unknown }).answers;
  if (!Array.isArray(answers)) return undefined;
  const byAnswer = new Map<number, string[]>();
  for (const a of answers as unknown[]) {
    const { answer, expect } = (a ?? {}) as { answer?: unknown; expect?: unknown };
    if (typeof answer !== 'number' || !Array.isArray(expect)) continue;
    const texts = expect
      .filter((e): e is string => typeof e === 'string' && e.trim() !== '')
      .map((e) => e.trim().replace(/\s+/g, ' '))
      .slice(0, MAX_PER_TURN);
    if (texts.length > 0) byAnswer.set(answer, texts);
  }
  return byAnswer.size > 0 ? byAnswer : undefined;
}
