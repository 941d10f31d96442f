// The model of the judged runner tests: answers chosen by rules over what was asked, as ModelCalls gives them to
// the judge and the simulated caller; faults as the model layer throws them.
import {
  CassetteMissError,
  type ModelCallReply,
  type ModelCalls,
  ModelCallError,
  ModelCapError,
  type ModelMessage,
  type ModelPurpose,
  type ModelSpend,
} from '../../../src/agentTests/model/types';

export type Fault = 'rate-limited' | 'unreachable' | 'miss';
/** `text`: everything asked, as one text; `lines`: the highest turn number in it (the conversation so far). */
export type Rule = (text: string, purpose: ModelPurpose, lines: number) => string | { fault: Fault } | undefined;

export function judged(verdict: 'pass' | 'fail' | 'unsure', reason: string, quotes: { turn: number; text: string }[]) {
  return JSON.stringify({ verdict, reason, quotes });
}
export const callerSays = (text: string) => JSON.stringify({ kind: 'say', text });
export const callerDone = (why: 'goal-met' | 'caller-gave-up', reason: string) =>
  JSON.stringify({ kind: 'done', why, reason });

export function answers(rules: Rule[], limits: { cap?: number } = {}) {
  const requests: { purpose: ModelPurpose; conversationLength: number }[] = [];
  let calls = 0;
  const door: ModelCalls = {
    modelId: 'test:rules',
    mode: 'live',
    call(purpose: ModelPurpose, file: string, messages: readonly ModelMessage[]): Promise<ModelCallReply> {
      const text = messages.map((m) => m.content).join('\n');
      const turns = [...text.matchAll(/"turn":\s*(\d+)|\bturn (\d+)\b/gi)].map((m) => Number(m[1] ?? m[2]));
      const lines = turns.length ? Math.max(...turns) : 0;
      if (limits.cap !== undefined && calls >= limits.cap)
        return Promise.reject(new ModelCapError(`the cap of ${limits.cap} model calls was reached`));
      calls++;
      requests.push({ purpose, conversationLength: lines });
      for (const rule of rules) {
        const answer = rule(text, purpose, lines);
        if (answer === undefined) continue;
        if (typeof answer === 'string')
          return Promise.resolve({ text: answer, usage: { inputTokens: 10, outputTokens: 5 }, replayed: false });
        if (answer.fault === 'miss') return Promise.reject(new CassetteMissError(file));
        return Promise.reject(
          answer.fault === 'rate-limited'
            ? new ModelCallError('the endpoint answered 429 Too Many Requests', 'rate-limited')
            : new ModelCallError('nothing answers at http://127.0.0.1:9/v1', 'unreachable'),
        );
      }
      return Promise.reject(new Error(`no rule answers: ${text.slice(0, 200)}`));
    },
    spent(): ModelSpend {
      return { calls, replayed: 0, inputTokens: calls * 10, outputTokens: calls * 5 };
    },
    flush: () => Promise.resolve(),
  };
  return { calls: door, requests };
}
