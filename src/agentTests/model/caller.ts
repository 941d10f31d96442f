/**
 * The simulated caller: the model plays the caller of a scenario (goal, persona, facts) and answers each agent
 * turn in a fixed JSON shape, {done, why, message}: its next message, or that it is done because the goal was met
 * or it gives up. The first line is the scenario's own when written. Failures are thrown as they come
 * (`ModelCallError`, `CassetteMissError`, `ModelCapError`); an answer that cannot be read is a `ModelCallError`.
 */
import { z } from 'zod';
import { conversationText, readAnswer } from './answerJson';
import type { Scenario } from '../format';
import { type CallerStep, type ConversationLine, ModelCallError, type ModelCalls, type ModelMessage } from './types';

export interface CallerInput {
  readonly file: string;
  readonly scenario: Scenario;
  readonly conversation: readonly ConversationLine[];
}

const answerSchema = z.object({
  done: z.boolean(),
  why: z.string().nullish(),
  message: z.string().nullish(),
});

/** The messages that ask for the caller's next turn. */
export function callerMessages(input: CallerInput): ModelMessage[] {
  const { scenario } = input;
  const facts = Object.entries(scenario.facts ?? {});
  const system = [
    'You play a caller talking to an agent of a company, to test that agent. Stay in character; never say you are a model or a test.',
    `Your goal: ${scenario.goal}`,
    ...(scenario.persona ? [`Who you are and how you talk: ${scenario.persona}`] : []),
    ...(facts.length
      ? [
          'What you know, to give when asked (give nothing else you would have to make up):',
          ...facts.map(([k, v]) => `- ${k}: ${v}`),
        ]
      : []),
    'Answer with one JSON object and nothing else:',
    '{"done": false, "message": "<what you say next>"} to go on, or',
    '{"done": true, "why": "goal-met" | "gave-up", "message": "<why, in a sentence>"} when your goal is met or you would hang up.',
    'Say one short, natural thing a caller would say per turn.',
  ].join('\n');
  const user =
    input.conversation.length === 0
      ? 'The conversation has not started. Write your first message.'
      : `The conversation so far:\n${conversationText(input.conversation)}\n\nWhat do you say next?`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** The caller's answer as a step, or why it cannot be used. */
export function parseCallerAnswer(text: string): { ok: true; step: CallerStep } | { ok: false; why: string } {
  const parsed = readAnswer(text, answerSchema);
  if (!parsed.ok) return parsed;
  const { done, why, message } = parsed.value;
  const said = (message ?? '').trim();
  if (done) {
    const gaveUp = /gave|give|quit|hang/i.test(why ?? '');
    return {
      ok: true,
      step: { kind: 'done', why: gaveUp ? 'caller-gave-up' : 'goal-met', reason: said || (why ?? '') },
    };
  }
  if (said === '') return { ok: false, why: 'the caller is not done but said nothing' };
  return { ok: true, step: { kind: 'say', text: said } };
}

/** The caller's next step: the scenario's first line when nothing was said yet, else the model's answer. */
export async function nextCallerTurn(calls: ModelCalls, input: CallerInput, signal?: AbortSignal): Promise<CallerStep> {
  const firstLine = input.scenario.firstLine?.trim();
  if (firstLine && !input.conversation.some((l) => l.role === 'user')) return { kind: 'say', text: firstLine };
  const reply = await calls.call('caller', input.file, callerMessages(input), signal);
  const parsed = parseCallerAnswer(reply.text);
  if (!parsed.ok) {
    throw new ModelCallError(
      `the simulated caller's answer could not be read (${parsed.why}): run again, or choose a model that follows instructions better`,
      'unreadable',
    );
  }
  return parsed.step;
}
