import * as vscode from 'vscode';
import { type IDisposable, toDisposable } from '../../core/disposable';

/** How a modal question looks: a warning for what cannot be undone, information otherwise. */
export interface AskOptions {
  detail?: string;
  severity?: 'info' | 'warning';
}

/**
 * Everything the extension asks or tells a person goes through here: quick picks, input boxes,
 * modal questions and notifications (the multi-step Add Profile flow, with Back and validation as
 * typed, is its own quick input). The integration tests answer through a replacement (see
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
  /** Where to save a file; undefined when dismissed. */
  saveFile(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
}

/** The editor's own dialogs. */
export const windowPrompts: Prompts = {
  pick: (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: false }),
  pickMany: (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: true }),
  input: (options) => vscode.window.showInputBox(options),
  ask: (question, options, ...actions) => {
    const modal: vscode.MessageOptions = {
      modal: true,
      ...(options.detail !== undefined ? { detail: options.detail } : {}),
    };
    return options.severity === 'info'
      ? vscode.window.showInformationMessage(question, modal, ...actions)
      : vscode.window.showWarningMessage(question, modal, ...actions);
  },
  info: (message, ...actions) => vscode.window.showInformationMessage(message, ...actions),
  warn: (message, ...actions) => vscode.window.showWarningMessage(message, ...actions),
  error: (message, ...actions) => vscode.window.showErrorMessage(message, ...actions),
  saveFile: (options) => vscode.window.showSaveDialog(options),
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
  saveFile: (options) => current.saveFile(options),
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
