import type * as vscode from 'vscode';
import { prompts, type StepAnswer, type StepPick, type StepText } from './prompts';

/** Thrown when the user presses Back; the flow goes to the previous step. */
class BackSignal extends Error {}

class CancelSignal extends Error {}

export type { StepCheck, StepNote } from './prompts';

/** A text step as a flow asks it (the position in the flow is added here). */
export type TextStep = Omit<StepText, 'step' | 'totalSteps'>;

/** A pick step as a flow asks it (the position in the flow is added here). */
export type PickStep<T extends vscode.QuickPickItem> = Omit<StepPick<T>, 'step' | 'totalSteps'>;

/**
 * A multi-step input in one quick-input widget: step counter, Back button, validation as typed.
 * `run` resolves undefined when the user cancels (Escape), never half-done. Each step is asked
 * through the prompts, so the tests answer a flow as a person would, Back included.
 */
export class MultiStepInput {
  private step = 0;
  private index = 0;
  /** What a text step held when the person pressed Back, shown again when the flow comes back to it. */
  private readonly typed = new Map<number, string>();

  private constructor(private totalSteps: number) {}

  /**
   * Runs the steps; each step returns the index of the next step or 'done'. `totalSteps` may depend
   * on the answers so far (a flow with an optional step counts it only when it is taken). `position`
   * numbers the step of an index for the counter, where the order taken is not the count (a flow that
   * skips a step, or goes back to one from a review); by default it is the count of steps taken.
   */
  static async run<S>(
    totalSteps: number | ((state: S) => number),
    state: S,
    steps: Array<(input: MultiStepInput, state: S) => Promise<number | 'done'>>,
    position?: (index: number, state: S) => number,
  ): Promise<S | undefined> {
    const total = (): number => (typeof totalSteps === 'number' ? totalSteps : totalSteps(state));
    const input = new MultiStepInput(total());
    const history: number[] = [];
    let index = 0;
    for (;;) {
      input.step = position ? position(index, state) : history.length + 1;
      // The total never shrinks once shown: a counter going from 5/6 back to 4/5 reads as a mistake.
      input.totalSteps = Math.max(total(), input.step, input.totalSteps);
      input.index = index;
      try {
        const next = await steps[index]!(input, state);
        if (next === 'done') return state;
        history.push(index);
        index = next;
      } catch (err) {
        if (err instanceof BackSignal) {
          index = history.pop() ?? 0;
          continue;
        }
        if (err instanceof CancelSignal) return undefined;
        throw err;
      }
    }
  }

  /** Throws Back or Cancel as signals for `run`. */
  private settle<T>(answer: StepAnswer<T>): T {
    if (answer === undefined) throw new CancelSignal();
    if ('back' in answer) {
      if (answer.typed !== undefined) this.typed.set(this.index, answer.typed);
      throw new BackSignal();
    }
    return answer.value;
  }

  async text(opts: TextStep): Promise<string> {
    const index = this.index;
    const value = this.typed.get(index) ?? opts.value;
    const answer = this.settle(
      await prompts.stepText({
        ...opts,
        ...(value !== undefined ? { value } : {}),
        step: this.step,
        totalSteps: this.totalSteps,
      }),
    );
    this.typed.delete(index);
    return answer.trim();
  }

  async pick<T extends vscode.QuickPickItem>(opts: PickStep<T>): Promise<T> {
    return this.settle(await prompts.stepPick({ ...opts, step: this.step, totalSteps: this.totalSteps }));
  }
}
