/**
 * A simulated caller: the model plays the caller of a `scenario:` through the Chat API, a message at a time, until
 * it says the goal is met or gives up, the agent ends or hands off, the turn budget is spent, or a call fails.
 */
import type { Answer } from './checks';
import type { Scenario } from './format';
import { type CaseModelCalls, modelOutcome } from './judging';
import { nextCallerTurn } from './model/caller';
import type { CallerStep, ConversationLine, CriterionOutcome, ScenarioStop } from './model/types';

export interface CallerEnd {
  readonly stop: ScenarioStop;
  /** Why, in words: the caller's own reason, the budget, the model's failure. */
  readonly reason?: string;
  /** What the caller's failed model call makes of the criteria judged after it (none judged then). */
  readonly failure?: CriterionOutcome;
}

/**
 * Plays the caller until the conversation stops. `send` sends one caller message and resolves to the agent's answer
 * once it is in `conversation`; a platform error it throws is the caller's too (the run records it).
 */
export async function playCaller(
  file: string,
  scenario: Scenario,
  calls: CaseModelCalls,
  conversation: readonly ConversationLine[],
  send: (message: string) => Promise<Answer>,
  signal: AbortSignal | undefined,
): Promise<CallerEnd> {
  for (let sent = 0; ; sent++) {
    if (signal?.aborted) return { stop: 'cancelled' };
    if (sent >= scenario.maxTurns)
      return { stop: 'turn-budget', reason: `the caller sent ${sent} messages, its budget (max_turns)` };
    let text: string;
    if (sent === 0 && scenario.firstLine !== undefined) text = scenario.firstLine;
    else {
      let step: CallerStep;
      try {
        step = await nextCallerTurn(calls, { file, scenario, conversation }, signal);
      } catch (err) {
        const failure = modelOutcome(err, signal);
        if (failure.kind === 'skipped')
          return { stop: signal?.aborted ? 'cancelled' : 'cap-reached', reason: failure.reason, failure };
        return { stop: 'error', reason: `the simulated caller could not be played: ${failure.message}`, failure };
      }
      if (step.kind === 'done') return { stop: step.why, reason: step.reason };
      text = step.text;
    }
    const answer = await send(text);
    if (answer.endConversation) return { stop: 'agent-ended' };
    if (answer.handoff)
      return { stop: 'handoff', reason: `handed off to ${answer.handoff.destination ?? 'a destination not named'}` };
  }
}

/** The stop in the words of the transcript and the report. */
export function stopWords(stop: ScenarioStop): string {
  switch (stop) {
    case 'goal-met':
      return 'the caller says its goal is met';
    case 'agent-ended':
      return 'the agent ended the conversation';
    case 'handoff':
      return 'the agent handed off';
    case 'turn-budget':
      return 'the turn budget was spent';
    case 'caller-gave-up':
      return 'the caller gave up';
    case 'error':
      return 'a call failed';
    case 'cancelled':
      return 'the run was cancelled';
    case 'cap-reached':
      return 'the model call cap was reached';
  }
}
