/**
 * What a run through a model will take, before it starts: calls per case from its shape (a judge call per
 * criterion, a caller call per simulated turn and the success criteria) times its repeats, tokens from the sizes
 * of the prompts as they will be sent (agent answers taken at an assumed length), and the price. Upper bounds: a
 * simulated caller may finish before its turn budget.
 */
import type { ConversationLine } from './types';
import type { TestCase } from '../format';
import { callerMessages } from './caller';
import { judgeMessages } from './judge';
import { approximateTokens, costOf, type PriceTable, priceOf } from './modelCalls';

export interface EstimateOptions {
  readonly modelId: string;
  readonly prices?: PriceTable;
  /** Characters assumed for an agent answer not yet known. Default 300. */
  readonly agentAnswerChars?: number;
  /** Output tokens assumed per judge call (default 80) and per caller call (default 40). */
  readonly judgeOutputTokens?: number;
  readonly callerOutputTokens?: number;
}

export interface CaseEstimate {
  readonly name: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface RunEstimate {
  readonly cases: readonly CaseEstimate[];
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Undefined when the model has no price. */
  readonly cost?: number;
}

const tokensOf = (messages: readonly { content: string }[]): number =>
  approximateTokens(messages.map((m) => m.content).join('\n'));

/** Calls, tokens and cost of running `cases` (each as many times as it repeats). */
export function estimateRun(cases: readonly TestCase[], options: EstimateOptions): RunEstimate {
  const answer = 'x'.repeat(options.agentAnswerChars ?? 300);
  const judgeOut = options.judgeOutputTokens ?? 80;
  const callerOut = options.callerOutputTokens ?? 40;
  const perCase = cases.map((c): CaseEstimate => {
    let calls = 0;
    let input = 0;
    let output = 0;
    const judge = (conversation: ConversationLine[], text: string, scope: 'turn' | 'case' | 'success'): void => {
      calls++;
      input += tokensOf(judgeMessages({ file: '', criterion: { text }, scope, conversation }));
      output += judgeOut;
    };
    const conversation: ConversationLine[] = [];
    const say = (role: 'agent' | 'user', text: string): void => {
      conversation.push({ turn: conversation.length + 1, role, text });
    };
    if (c.scenario) {
      const s = c.scenario;
      for (let turn = 0; turn < s.maxTurns; turn++) {
        if (!(turn === 0 && s.firstLine)) {
          calls++;
          input += tokensOf(callerMessages({ file: '', scenario: s, conversation }));
          output += callerOut;
        }
        say('user', turn === 0 && s.firstLine ? s.firstLine : answer.slice(0, 120));
        say('agent', answer);
      }
      for (const k of s.success) judge(conversation, k.text, 'success');
    } else {
      for (const t of c.turns) {
        if (t.user !== undefined) say('user', t.user);
        say('agent', answer);
        for (const k of t.expect ?? []) judge(conversation, k.text, 'turn');
      }
    }
    for (const k of c.criteria ?? []) judge(conversation, k.text, 'case');
    const repeat = Math.max(1, c.repeat);
    return { name: c.name, calls: calls * repeat, inputTokens: input * repeat, outputTokens: output * repeat };
  });
  const sum = (f: (e: CaseEstimate) => number): number => perCase.reduce((n, e) => n + f(e), 0);
  const inputTokens = sum((e) => e.inputTokens);
  const outputTokens = sum((e) => e.outputTokens);
  const price = priceOf(options.prices, options.modelId);
  return {
    cases: perCase,
    calls: sum((e) => e.calls),
    inputTokens,
    outputTokens,
    ...(price ? { cost: costOf(price, { inputTokens, outputTokens }) } : {}),
  };
}
