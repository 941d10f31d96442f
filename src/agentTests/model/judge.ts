// PLACEHOLDER of the runner branch until wt-model's judge.ts is merged (the merge takes theirs): the signature of types.ts.
import type { CriterionOutcome, JudgeInput, ModelCalls } from './types';
export async function judgeCriterion(
  calls: ModelCalls,
  input: JudgeInput,
  signal?: AbortSignal,
): Promise<CriterionOutcome> {
  const reply = await calls.call(
    'judge',
    input.file,
    [
      { role: 'system', content: 'judge' },
      {
        role: 'user',
        content: JSON.stringify({
          criterion: input.criterion.text,
          scope: input.scope,
          conversation: input.conversation,
        }),
      },
    ],
    signal,
  );
  try {
    const v = JSON.parse(reply.text) as {
      verdict: 'pass' | 'fail' | 'unsure';
      reason: string;
      quotes: { turn: number; text: string }[];
    };
    for (const q of v.quotes)
      if (!input.conversation.some((l) => l.turn === q.turn && l.text.includes(q.text)))
        return { kind: 'error', message: `the judge quoted words not in turn ${q.turn}: "${q.text}"` };
    return { kind: 'judged', verdict: v.verdict, reason: v.reason, quotes: v.quotes };
  } catch {
    return { kind: 'error', message: 'unreadable judge answer' };
  }
}
