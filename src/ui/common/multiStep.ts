import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposable';

/** Thrown when the user presses Back; the flow goes to the previous step. */
class BackSignal extends Error {}

export interface TextStep {
  title: string;
  prompt: string;
  value?: string;
  placeholder?: string;
  password?: boolean;
  /** Checked as the user types; return the message to show, or undefined when the value is fine. */
  validate?: (value: string) => string | undefined | Promise<string | undefined>;
}

export interface PickStep<T extends vscode.QuickPickItem> {
  title: string;
  placeholder: string;
  items: readonly T[];
  active?: T;
}

/**
 * A multi-step input in one quick-input widget: step counter, Back button, validation as typed.
 * `run` resolves undefined when the user cancels (Escape), never half-done.
 */
export class MultiStepInput {
  private step = 0;

  private totalSteps = 1;

  /** Runs the steps; each step returns the index of the next step or 'done'. */
  static async run<S>(
    /** How many steps there are; a function when an answer skips steps (asked again before each step). */
    totalSteps: number | (() => number),
    state: S,
    steps: Array<(input: MultiStepInput, state: S) => Promise<number | 'done'>>,
  ): Promise<S | undefined> {
    const input = new MultiStepInput();
    const total = typeof totalSteps === 'number' ? () => totalSteps : totalSteps;
    const history: number[] = [];
    let index = 0;
    for (;;) {
      input.totalSteps = total();
      input.step = Math.min(history.length + 1, input.totalSteps);
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

  text(opts: TextStep): Promise<string> {
    const box = vscode.window.createInputBox();
    box.title = opts.title;
    box.step = this.step;
    box.totalSteps = this.totalSteps;
    box.prompt = opts.prompt;
    box.value = opts.value ?? '';
    box.placeholder = opts.placeholder;
    box.password = opts.password ?? false;
    box.ignoreFocusOut = true;
    box.buttons = this.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    return new Promise<string>((resolve, reject) => {
      const subs = new DisposableStore();
      subs.add(box);
      let settled = false;
      const finish = (fn: () => void): void => {
        settled = true;
        subs.dispose();
        fn();
      };
      const check = async (value: string): Promise<string | undefined> => {
        const msg = await opts.validate?.(value);
        box.validationMessage = msg ? { message: msg, severity: vscode.InputBoxValidationSeverity.Error } : undefined;
        return msg;
      };
      [
        box.onDidChangeValue((v) => void check(v)),
        box.onDidAccept(async () => {
          box.busy = true;
          box.enabled = false;
          const msg = await check(box.value);
          box.busy = false;
          box.enabled = true;
          if (!msg) finish(() => resolve(box.value.trim()));
        }),
        box.onDidTriggerButton((b) => {
          if (b === vscode.QuickInputButtons.Back) finish(() => reject(new BackSignal()));
        }),
        box.onDidHide(() => {
          if (!settled) finish(() => reject(new CancelSignal()));
        }),
      ].forEach((d) => subs.add(d));
      if (opts.value) void check(opts.value);
      box.show();
    });
  }

  pick<T extends vscode.QuickPickItem>(opts: PickStep<T>): Promise<T> {
    const qp = vscode.window.createQuickPick<T>();
    qp.title = opts.title;
    qp.step = this.step;
    qp.totalSteps = this.totalSteps;
    qp.placeholder = opts.placeholder;
    qp.items = opts.items;
    qp.ignoreFocusOut = true;
    if (opts.active) qp.activeItems = [opts.active];
    qp.buttons = this.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    return new Promise<T>((resolve, reject) => {
      const subs = new DisposableStore();
      subs.add(qp);
      let settled = false;
      const finish = (fn: () => void): void => {
        settled = true;
        subs.dispose();
        fn();
      };
      [
        qp.onDidAccept(() => {
          const item = qp.selectedItems[0] ?? qp.activeItems[0];
          if (item) finish(() => resolve(item));
        }),
        qp.onDidTriggerButton((b) => {
          if (b === vscode.QuickInputButtons.Back) finish(() => reject(new BackSignal()));
        }),
        qp.onDidHide(() => {
          if (!settled) finish(() => reject(new CancelSignal()));
        }),
      ].forEach((d) => subs.add(d));
      qp.show();
    });
  }
}

class CancelSignal extends Error {}
