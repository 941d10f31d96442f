// PLACEHOLDER of the runner branch until wt-model's caller.ts is merged (the merge takes theirs): the signature of types.ts.
import type { CallerStep, ConversationLine, ModelCalls } from './types';
import type { Scenario } from '../format';
export async function nextCallerTurn(
  calls: ModelCalls,
  input: { file: string; scenario: Scenario; conversation: readonly ConversationLine[] },
  signal?: AbortSignal,
): Promise<CallerStep> {
  const reply = await calls.call(
    'caller',
    input.file,
    [
      { role: 'system', content: 'caller' },
      { role: 'user', content: JSON.stringify({ goal: input.scenario.goal, conversation: input.conversation }) },
    ],
    signal,
  );
  const v = JSON.parse(reply.text) as CallerStep;
  return v;
}
