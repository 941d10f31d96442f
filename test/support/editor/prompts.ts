import * as vscode from 'vscode';
import type { AskOptions, Prompts, StepAnswer } from '../../../src/ui/common/prompts';
import type { WorkbenchExports } from './extension';

/** A question or message the extension put to the person, as the tests' prompts saw it. */
export interface Shown {
  kind: 'error' | 'warning' | 'info' | 'pick' | 'input' | 'openFile' | 'saveFile';
  message: string;
  modal: boolean;
  detail: string;
  /** The buttons of a message, or the labels of a quick pick. */
  items: string[];
  /** For an input box: what its validation said about the answer given (the box then stays open). */
  refused?: string;
  /** For an input box: what its validation showed under the answer without refusing it (information or a warning). */
  note?: string;
  /** For a step of a multi-step input: its place, such as "3/7". */
  step?: string;
  /** For an input box: the value it opened with. */
  value?: string;
  /** For a modal question: the label of its closing button when it is not the editor's Cancel. */
  close?: string;
}

/** The answer that presses the Back button of a step of a multi-step input. */
export const BACK = '$(arrow-left) Back';

/** The answer that types `text` into a text step, then presses Back. */
export const typedThenBack = (text: string): string => `${BACK}${text}`;

/**
 * A label of a button or quick pick item, the text typed in an input box, labels for a multiple pick, or for a
 * file dialog the file chosen (a path relative to the first workspace folder, or absolute).
 */
type Answer = (shown: Shown) => string | readonly string[] | undefined;

export interface ScriptedPrompts {
  /** Everything asked and shown since the last clear, oldest first. */
  readonly shown: Shown[];
  /** How the person answers from now on; by default they dismiss everything. */
  setAnswer(answer: Answer): void;
  /** The last error message shown. */
  lastError(): string;
  dispose(): void;
}

/**
 * Answers the extension's questions in place of a person, through the prompts the extension offers its
 * own tests. An input box refuses what its validation refuses, as the editor would; the person then
 * presses Escape.
 */
export function scriptedPrompts(api: WorkbenchExports): ScriptedPrompts {
  if (!api.testing) throw new Error('the extension offers its prompts to tests only when VS Code runs it in test mode');
  let answer: Answer = () => undefined;
  const shown: Shown[] = [];
  const record = (s: Shown): ReturnType<Answer> => {
    shown.push(s);
    return answer(s);
  };
  const one = (a: ReturnType<Answer>): string | undefined => (typeof a === 'string' ? a : undefined);
  const message =
    (kind: Shown['kind']) =>
    <A extends string>(text: string, ...actions: A[]): Promise<A | undefined> => {
      const a = one(record({ kind, message: text, modal: false, detail: '', items: actions }));
      return Promise.resolve(actions.find((x) => x === a));
    };
  const pickFrom = async <T extends vscode.QuickPickItem>(
    items: readonly T[] | Thenable<readonly T[]>,
    options: vscode.QuickPickOptions | undefined,
  ) => {
    const all = await items;
    const a = record({
      kind: 'pick',
      message: options?.placeHolder ?? options?.title ?? '',
      modal: false,
      detail: '',
      items: all.map((i) => i.label),
    });
    const labels = a === undefined ? undefined : typeof a === 'string' ? [a] : a;
    return labels && all.filter((i) => labels.includes(i.label));
  };
  const chosenFile = (kind: 'openFile' | 'saveFile', title = '', defaultUri?: vscode.Uri): vscode.Uri | undefined => {
    const a = one(
      record({
        kind,
        message: title,
        modal: true,
        detail: defaultUri ? vscode.workspace.asRelativePath(defaultUri) : '',
        items: [],
      }),
    );
    if (a === undefined) return undefined;
    if (a.startsWith('/')) return vscode.Uri.file(a);
    return vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, a);
  };
  const prompts: Prompts = {
    pick: async (items, options) => (await pickFrom(items, options))?.[0],
    pickMany: (items, options) => pickFrom(items, options),
    input: async (options) => {
      const entry: Shown = {
        kind: 'input',
        message: options.prompt ?? options.title ?? '',
        modal: false,
        detail: options.title ?? '',
        items: [],
        ...(options.value !== undefined ? { value: options.value } : {}),
      };
      const typed = one(record(entry));
      if (typed === undefined) return undefined;
      const problem = await options.validateInput?.(typed);
      // As the editor does, only an error keeps the box open; information and warnings are shown as typed.
      const refused = typeof problem === 'string' ? problem : problem?.severity === 3 ? problem.message : undefined;
      if (typeof problem === 'object' && problem && !refused) entry.note = problem.message;
      if (refused) {
        entry.refused = refused;
        return undefined;
      }
      return typed;
    },
    ask: <A extends string>(question: string, options: AskOptions, ...actions: A[]): Promise<A | undefined> => {
      const a = one(
        record({
          kind: options.severity ?? 'warning',
          message: question,
          modal: true,
          detail: options.detail ?? '',
          items: actions,
          ...(options.closeLabel !== undefined ? { close: options.closeLabel } : {}),
        }),
      );
      return Promise.resolve(actions.find((x) => x === a));
    },
    stepText: async (options): Promise<StepAnswer<string>> => {
      const entry: Shown = {
        kind: 'input',
        message: options.prompt,
        modal: false,
        detail: options.title,
        items: [],
        step: `${options.step}/${options.totalSteps}`,
        value: options.value ?? '',
      };
      const typed = one(record(entry));
      if (typed === undefined) return undefined;
      if (typed.startsWith(BACK)) return { back: true, typed: typed.slice(BACK.length) };
      const problem = await options.validate?.(typed);
      if (typeof problem === 'string') {
        entry.refused = problem;
        return undefined;
      }
      if (problem) entry.note = problem.message;
      return { value: typed };
    },
    stepPick: async (options) => {
      const a = one(
        record({
          kind: 'pick',
          message: options.placeholder,
          modal: false,
          detail: options.title,
          items: options.items.map((i) => i.label),
          step: `${options.step}/${options.totalSteps}`,
          value: options.active?.label ?? '',
        }),
      );
      if (a === undefined) return undefined;
      if (a === BACK) return { back: true };
      const item = options.items.find((i) => i.label === a);
      return item ? { value: item } : undefined;
    },
    info: message('info'),
    warn: message('warning'),
    error: message('error'),
    openFile: (options) => Promise.resolve(chosenFile('openFile', options.title, options.defaultUri)),
    saveFile: (options) => Promise.resolve(chosenFile('saveFile', options.title, options.defaultUri)),
  };
  const registration = api.testing.replacePrompts(prompts);
  return {
    shown,
    setAnswer(a) {
      answer = a;
    },
    lastError: () => [...shown].reverse().find((s) => s.kind === 'error')?.message ?? '',
    dispose: () => registration.dispose(),
  };
}
