import * as vscode from 'vscode';
import { DisposableStore, type IDisposable, toDisposable } from '../../core/disposable';
import { notificationText } from '../../core/shownText';

/** How a modal question looks: a warning for what cannot be undone, information otherwise. */
export interface AskOptions {
  detail?: string;
  severity?: 'info' | 'warning';
  /**
   * The label of the button that closes the question without an action, in place of the editor's
   * "Cancel" (for a question asked after something happened, where "Cancel" would read like undoing it).
   * Choosing it, or pressing Escape, resolves undefined like any dismissal.
   */
  closeLabel?: string;
}

/** What a step's check says about a value: nothing, a refusal (text), or a note that lets the value through. */
export type StepCheck = string | StepNote | undefined;

/** Shown under the value without refusing it. */
export interface StepNote {
  message: string;
  severity: 'warning' | 'info';
}

interface StepPosition {
  /** 1-based place of this step in its flow, and how many steps the flow has. */
  step: number;
  totalSteps: number;
}

/** A text step of a multi-step input (Back from the second step on, checked as typed). */
export interface StepText extends StepPosition {
  title: string;
  prompt: string;
  value?: string;
  placeholder?: string;
  password?: boolean;
  /** Checked as the user types; a string refuses the value, a note is shown without refusing it. */
  validate?: (value: string) => StepCheck | Promise<StepCheck>;
}

/** A pick step of a multi-step input. */
export interface StepPick<T extends vscode.QuickPickItem> extends StepPosition {
  title: string;
  placeholder: string;
  items: readonly T[];
  active?: T;
}

/**
 * The answer to a step: the value, Back (with what a text step held then, so going forward again shows
 * it), or undefined when cancelled.
 */
export type StepAnswer<T> = { value: T } | { back: true; typed?: string } | undefined;

/**
 * Everything the extension asks or tells a person goes through here: quick picks, input boxes,
 * modal questions, notifications, the open and save file dialogs and the steps of multi-step inputs (with Back and
 * validation as typed). The integration tests answer through a replacement (see
 * `replacePrompts`), so no command needs an argument that skips a question: a confirmation is
 * always answered by whoever sits at the editor.
 */
export interface Prompts {
  pick<T extends vscode.QuickPickItem>(
    items: readonly T[] | Thenable<readonly T[]>,
    options?: vscode.QuickPickOptions,
  ): Thenable<T | undefined>;
  pickMany<T extends vscode.QuickPickItem>(
    items: readonly T[] | Thenable<readonly T[]>,
    options?: vscode.QuickPickOptions,
  ): Thenable<readonly T[] | undefined>;
  input(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  /** A modal question; resolves with the action chosen, undefined when dismissed. */
  ask<A extends string>(question: string, options: AskOptions, ...actions: A[]): Thenable<A | undefined>;
  /** Notifications; with actions, each resolves with the one clicked. */
  info<A extends string>(message: string, ...actions: A[]): Thenable<A | undefined>;
  warn<A extends string>(message: string, ...actions: A[]): Thenable<A | undefined>;
  error<A extends string>(message: string, ...actions: A[]): Thenable<A | undefined>;
  /** The file the person chose to open, undefined when the dialog was dismissed. */
  openFile(options: OpenFileOptions): Thenable<vscode.Uri | undefined>;
  /** Where the person chose to save, undefined when the dialog was dismissed. */
  saveFile(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
  /** One text step of a multi-step input (see MultiStepInput). */
  stepText(options: StepText): Thenable<StepAnswer<string>>;
  /** One pick step of a multi-step input. */
  stepPick<T extends vscode.QuickPickItem>(options: StepPick<T>): Thenable<StepAnswer<T>>;
}

function validationMessage(check: StepCheck): vscode.InputBoxValidationMessage | undefined {
  if (check === undefined) return undefined;
  if (typeof check === 'string') return { message: check, severity: vscode.InputBoxValidationSeverity.Error };
  return {
    message: check.message,
    severity:
      check.severity === 'warning' ? vscode.InputBoxValidationSeverity.Warning : vscode.InputBoxValidationSeverity.Info,
  };
}

function windowStepText(opts: StepText): Promise<StepAnswer<string>> {
  const box = vscode.window.createInputBox();
  box.title = opts.title;
  box.step = opts.step;
  box.totalSteps = opts.totalSteps;
  box.prompt = opts.prompt;
  box.value = opts.value ?? '';
  box.placeholder = opts.placeholder;
  box.password = opts.password ?? false;
  box.ignoreFocusOut = true;
  box.buttons = opts.step > 1 ? [vscode.QuickInputButtons.Back] : [];
  return new Promise((resolve) => {
    const subs = new DisposableStore();
    subs.add(box);
    let settled = false;
    const finish = (answer: StepAnswer<string>): void => {
      settled = true;
      subs.dispose();
      resolve(answer);
    };
    const check = async (value: string): Promise<boolean> => {
      const result = await opts.validate?.(value);
      box.validationMessage = validationMessage(result);
      return typeof result !== 'string';
    };
    [
      box.onDidChangeValue((v) => void check(v)),
      box.onDidAccept(async () => {
        box.busy = true;
        box.enabled = false;
        const ok = await check(box.value);
        box.busy = false;
        box.enabled = true;
        if (ok) finish({ value: box.value });
      }),
      box.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) finish({ back: true, typed: box.value });
      }),
      box.onDidHide(() => {
        if (!settled) finish(undefined);
      }),
    ].forEach((d) => subs.add(d));
    // A value given beforehand is checked at once; an empty box shows no complaint before anything is typed.
    if (opts.value) void check(opts.value);
    box.show();
  });
}

function windowStepPick<T extends vscode.QuickPickItem>(opts: StepPick<T>): Promise<StepAnswer<T>> {
  const qp = vscode.window.createQuickPick<T>();
  qp.title = opts.title;
  qp.step = opts.step;
  qp.totalSteps = opts.totalSteps;
  qp.placeholder = opts.placeholder;
  qp.items = opts.items;
  qp.ignoreFocusOut = true;
  if (opts.active) qp.activeItems = [opts.active];
  qp.buttons = opts.step > 1 ? [vscode.QuickInputButtons.Back] : [];
  return new Promise((resolve) => {
    const subs = new DisposableStore();
    subs.add(qp);
    let settled = false;
    const finish = (answer: StepAnswer<T>): void => {
      settled = true;
      subs.dispose();
      resolve(answer);
    };
    [
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        if (item) finish({ value: item });
      }),
      qp.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) finish({ back: true });
      }),
      qp.onDidHide(() => {
        if (!settled) finish(undefined);
      }),
    ].forEach((d) => subs.add(d));
    qp.show();
  });
}

/** One file to open: the editor's open dialog without choosing several or folders. */
export type OpenFileOptions = Omit<vscode.OpenDialogOptions, 'canSelectMany' | 'canSelectFolders' | 'canSelectFiles'>;

/** The editor's own dialogs. */
export const windowPrompts: Prompts = {
  pick: (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: false }),
  pickMany: (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: true }),
  input: (options) => vscode.window.showInputBox(options),
  ask: async (question, options, ...actions) => {
    const modal: vscode.MessageOptions = {
      modal: true,
      ...(options.detail !== undefined ? { detail: options.detail } : {}),
    };
    const items: vscode.MessageItem[] = actions.map((title) => ({ title }));
    if (options.closeLabel !== undefined) items.push({ title: options.closeLabel, isCloseAffordance: true });
    const chosen =
      options.severity === 'info'
        ? await vscode.window.showInformationMessage(question, modal, ...items)
        : await vscode.window.showWarningMessage(question, modal, ...items);
    return actions.find((a) => a === chosen?.title && !chosen.isCloseAffordance);
  },
  // A notification makes links of Markdown link syntax, and its messages hold the platform's names: never a link.
  info: (message, ...actions) => vscode.window.showInformationMessage(notificationText(message), ...actions),
  warn: (message, ...actions) => vscode.window.showWarningMessage(notificationText(message), ...actions),
  error: (message, ...actions) => vscode.window.showErrorMessage(notificationText(message), ...actions),
  openFile: async (options) =>
    (await vscode.window.showOpenDialog({ ...options, canSelectMany: false, canSelectFiles: true }))?.[0],
  saveFile: (options) => vscode.window.showSaveDialog(options),
  stepText: windowStepText,
  stepPick: windowStepPick,
};

let current: Prompts = windowPrompts;

/** The prompts in use: the editor's, unless the extension's tests put theirs in place. */
export const prompts: Prompts = {
  pick: (items, options) => current.pick(items, options),
  pickMany: (items, options) => current.pickMany(items, options),
  input: (options) => current.input(options),
  ask: (question, options, ...actions) => current.ask(question, options, ...actions),
  info: (message, ...actions) => current.info(message, ...actions),
  warn: (message, ...actions) => current.warn(message, ...actions),
  error: (message, ...actions) => current.error(message, ...actions),
  openFile: (options) => current.openFile(options),
  saveFile: (options) => current.saveFile(options),
  stepText: (options) => current.stepText(options),
  stepPick: (options) => current.stepPick(options),
};

/**
 * Puts other prompts in place until the returned disposable is disposed. Offered to the
 * extension's own tests only (activate() exposes it when VS Code runs the extension in test mode).
 */
export function replacePrompts(replacement: Prompts): IDisposable {
  const previous = current;
  current = replacement;
  return toDisposable(() => {
    current = previous;
  });
}
