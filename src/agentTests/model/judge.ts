/**
 * The judge: asks the model whether a criterion holds, in a fixed JSON answer (verdict, reason, quotes), and
 * checks its evidence: every quote must be in the turn it names (whitespace and case aside), or the verdict is a
 * judge error, neither a pass nor a fail. Failures of the call become outcomes that say what to do.
 */
import { z } from 'zod';
import { conversationText, excerpt, readAnswer } from './answerJson';
import { CassetteFileError } from './cassette';
import {
  CassetteMissError,
  type ConversationLine,
  type CriterionOutcome,
  type JudgeInput,
  ModelCallError,
  type ModelCalls,
  ModelCapError,
  type ModelMessage,
  type Quote,
  type Verdict,
} from './types';

export const JUDGE_SYSTEM = [
  'You judge one criterion of a conversation between a caller and an agent.',
  'Answer with one JSON object and nothing else:',
  '{"verdict": "pass" | "fail" | "unsure", "reason": "<one or two sentences>", "quotes": [{"turn": <turn number>, "text": "<exact words>"}]}',
  '- "pass": the conversation meets the criterion; "fail": it does not; "unsure": the conversation does not let you tell.',
  '- Quote the exact words of the turns your verdict relies on, copied character for character, each with its turn number.',
  '- Quote only words that are in the conversation. For a "fail" because something is missing, quote what was said instead, or give no quotes.',
].join('\n');

const answerSchema = z.object({
  verdict: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.enum(['pass', 'fail', 'unsure']),
  ),
  reason: z.string(),
  quotes: z
    .array(z.object({ turn: z.coerce.number().int(), text: z.string() }))
    .nullish()
    .transform((q) => q ?? []),
});

export interface JudgeAnswer {
  readonly verdict: Verdict;
  readonly reason: string;
  readonly quotes: readonly Quote[];
}

/** The messages that ask for a verdict. */
export function judgeMessages(input: JudgeInput): ModelMessage[] {
  const lastAgent = [...input.conversation].reverse().find((l) => l.role === 'agent');
  const what =
    input.scope === 'turn'
      ? `Judge the agent's answer in turn ${lastAgent?.turn ?? '?'}, with the earlier turns as context.`
      : input.scope === 'success'
        ? "Judge whether the caller's goal was met by the whole conversation."
        : 'Judge the whole conversation.';
  return [
    { role: 'system', content: JUDGE_SYSTEM },
    {
      role: 'user',
      content: `${what}\n\nCriterion: ${input.criterion.text}\n\nConversation:\n${conversationText(input.conversation)}`,
    },
  ];
}

/** The judge's answer, or why it cannot be used. */
export function parseJudgeAnswer(text: string): { ok: true; answer: JudgeAnswer } | { ok: false; why: string } {
  const parsed = readAnswer(text, answerSchema);
  if (!parsed.ok) return parsed;
  return { ok: true, answer: parsed.value };
}

/** Whitespace and case aside: how a quote is compared with a turn. */
export function normaliseQuote(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The first quote that is not in the turn it names, said in words; undefined when all are there. */
export function quoteNotFound(quotes: readonly Quote[], conversation: readonly ConversationLine[]): string | undefined {
  for (const q of quotes) {
    const line = conversation.find((l) => l.turn === q.turn);
    const words = normaliseQuote(q.text);
    if (!line) return `the judge quoted turn ${q.turn}, which the conversation does not have: "${excerpt(q.text)}"`;
    if (words === '') return `the judge gave an empty quote of turn ${q.turn}`;
    if (!normaliseQuote(line.text).includes(words)) {
      return `the judge quoted "${excerpt(q.text)}" from turn ${q.turn}, but turn ${q.turn} does not say that`;
    }
  }
  return undefined;
}

/** Judges one criterion: a verdict with checked quotes, or an error or skip saying why and what to do. */
export async function judgeCriterion(
  calls: ModelCalls,
  input: JudgeInput,
  signal?: AbortSignal,
): Promise<CriterionOutcome> {
  let text: string;
  try {
    text = (await calls.call('judge', input.file, judgeMessages(input), signal)).text;
  } catch (err) {
    return outcomeOfFailure(err, signal);
  }
  const parsed = parseJudgeAnswer(text);
  if (!parsed.ok) {
    return {
      kind: 'error',
      message: `judge error: the judge's answer could not be read (${parsed.why}); run again, or choose a model that follows instructions better`,
    };
  }
  const missing = quoteNotFound(parsed.answer.quotes, input.conversation);
  if (missing) {
    return { kind: 'error', message: `judge error: ${missing}; the verdict (${parsed.answer.verdict}) is not used` };
  }
  return { kind: 'judged', ...parsed.answer };
}

/** A failed judge or caller call as an outcome: skipped for the cap and cancellation, an error otherwise. */
export function outcomeOfFailure(err: unknown, signal?: AbortSignal): CriterionOutcome {
  if (err instanceof ModelCapError) return { kind: 'skipped', reason: err.message };
  if (signal?.aborted || (err instanceof ModelCallError && err.kind === 'cancelled')) {
    return { kind: 'skipped', reason: 'cancelled' };
  }
  if (err instanceof CassetteMissError) {
    return {
      kind: 'error',
      message: `${err.message} (run again with --cassette record, or record in the editor)`,
      cassetteMiss: true,
    };
  }
  if (err instanceof ModelCallError || err instanceof CassetteFileError) {
    return { kind: 'error', message: `judge error: ${err.message}` };
  }
  return { kind: 'error', message: `judge error: ${err instanceof Error ? err.message : String(err)}` };
}
