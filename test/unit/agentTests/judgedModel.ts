// The model of the judged runner tests: the scripted OpenAI-compatible server (a stand-in for a third party's
// model service), reached through the product's own OpenAI adapter and the run's one door of model calls, with
// answers chosen by rules over what was asked. Faults are the server's: a 429, a reset connection; a cassette miss
// is a replay with nothing recorded.
import { after } from 'node:test';
import { createModelCalls, type RunModelCalls } from '../../../src/agentTests/model/modelCalls';
import { createOpenAiModel } from '../../../src/agentTests/model/openaiModel';
import { JUDGE_SYSTEM } from '../../../src/agentTests/model/judge';
import type { ModelPurpose } from '../../../src/agentTests/model/types';
import type { TextFiles } from '../../../src/agentTests/model/textFiles';
import { type ScriptedModel, systemOf, startScriptedModel } from '../../support/scriptedModel';

export type Fault = 'rate-limited' | 'unreachable';
/** `text`: everything asked, as one text; `lines`: the highest turn number in it (the conversation so far). */
export type Rule = (text: string, purpose: ModelPurpose, lines: number) => string | { fault: Fault } | undefined;

export function judged(verdict: 'pass' | 'fail' | 'unsure', reason: string, quotes: { turn: number; text: string }[]) {
  return JSON.stringify({ verdict, reason, quotes });
}
export const callerSays = (text: string) => JSON.stringify({ done: false, message: text });
export const callerDone = (why: 'goal-met' | 'caller-gave-up', reason: string) =>
  JSON.stringify({ done: true, why: why === 'caller-gave-up' ? 'gave-up' : why, message: reason });

const servers: ScriptedModel[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Cassettes kept in memory: a replay over them finds nothing recorded. */
const noCassettes: TextFiles = { read: () => Promise.resolve(undefined), write: () => Promise.resolve() };

/**
 * A run's model calls answered by `rules`: each request's purpose (the judge or the caller), the conversation's
 * length and what was asked go to the rules in order, the first answer wins. `replay`: the run is a replay with no
 * cassette, so every call misses and no model is called.
 */
export async function answers(
  rules: Rule[],
  limits: { cap?: number; replay?: boolean } = {},
): Promise<{ calls: RunModelCalls; requests: { purpose: ModelPurpose; conversationLength: number }[] }> {
  const requests: { purpose: ModelPurpose; conversationLength: number }[] = [];
  const server = await startScriptedModel({
    answer: (req) => {
      const purpose: ModelPurpose = systemOf(req) === JUDGE_SYSTEM ? 'judge' : 'caller';
      const text = req.messages.map((m) => m.content).join('\n');
      const turns = [...text.matchAll(/"turn":\s*(\d+)|\bturn (\d+)\b/gi)].map((m) => Number(m[1] ?? m[2]));
      const lines = turns.length ? Math.max(...turns) : 0;
      requests.push({ purpose, conversationLength: lines });
      for (const rule of rules) {
        const answer = rule(text, purpose, lines);
        if (answer === undefined) continue;
        if (typeof answer === 'string') return { text: answer, usage: { input: 10, output: 5 } };
        if (answer.fault === 'rate-limited') return { fault: 'rate-limited' };
        if (answer.fault === 'unreachable') return { fault: 'reset' };
        throw new Error('a miss is a replay with nothing recorded: give answers() { replay: true }');
      }
      return undefined;
    },
  });
  servers.push(server);
  const model = createOpenAiModel({ baseUrl: server.baseUrl, model: 'rules', rateLimitRetries: 0 });
  const calls = createModelCalls({
    model,
    mode: limits.replay === true ? 'replay' : 'live',
    ...(limits.cap !== undefined ? { caps: { maxCalls: limits.cap } } : {}),
    files: noCassettes,
  });
  return { calls, requests };
}
