import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestCase } from '../../agentTests/format';
import type { LanguageModel } from '../../agentTests/model/types';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { prompts } from '../common/prompts';
import type { ModelKeys } from './modelKey';
import { choiceLabel, type ModelChoice, type ModelSettings, modelSettings, noModelReason } from './modelSettings';
import type { RunModel } from './testRun';
import type { ToolTestModel } from '../../assistantTools/context';
import { VscodeLanguageModel } from './vscodeLanguageModel';

/**
 * The model of a Testing view run, from the settings: the editor's (`vscode.lm`) or an OpenAI-compatible endpoint
 * with its key from SecretStorage, behind the run's one door of model calls (its cassettes beside the test files,
 * its counts, prices and caps). Before a run that may call the model (record, live) the person sees the estimate
 * and confirms it; a replay run costs nothing and asks nothing.
 */
export async function modelForRun(
  judged: readonly { readonly testCase: TestCase; readonly uri: vscode.Uri }[],
  keys: ModelKeys,
  output: (text: string) => void,
): Promise<RunModel | 'declined'> {
  const settings = modelSettings();
  const { choice } = settings;
  if (choice.kind === 'none') return { none: noModelReason() };
  const runtime = agentTestsRuntime();
  const model = await languageModelOf(choice, keys);
  const cases = judged.map((c) => c.testCase);
  // A case's file is named relative to the workspace in its results; its cassette sits beside the file on disk.
  const calls = runtime.createModelCalls({
    model,
    mode: settings.cassette,
    prices: settings.prices,
    caps: {
      ...(settings.maxCalls !== undefined ? { maxCalls: settings.maxCalls } : {}),
      ...(settings.maxCost !== undefined ? { maxCost: settings.maxCost } : {}),
    },
    files: workspaceTextFiles,
  });
  if (settings.cassette === 'replay') {
    output(
      vscode.l10n.t(
        'Judged criteria are answered from the cassettes beside the test files (replay): no model is called.',
      ) + '\n',
    );
    return { calls };
  }
  const estimate = estimateOf(cases, model.id, settings);
  const text = estimateText(choiceLabel(choice), settings, cases.length, estimate);
  output(`${text}\n`);
  const go = vscode.l10n.t('Run');
  const answer = await prompts.ask(text, { detail: capText(settings) }, go);
  return answer === go ? { calls } : 'declined';
}

/** The model a choice names: the editor's, or the endpoint's with its key from SecretStorage. */
export async function languageModelOf(
  choice: Exclude<ModelChoice, { kind: 'none' }>,
  keys: ModelKeys,
): Promise<LanguageModel> {
  if (choice.kind === 'vscode-lm') return new VscodeLanguageModel(choice);
  const apiKey = await keys.get(choice.baseUrl);
  return agentTestsRuntime().createOpenAiModel({
    baseUrl: choice.baseUrl,
    model: choice.model,
    ...(apiKey ? { key: apiKey } : {}),
  });
}

interface Estimate {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cost?: number;
}

/** The estimate before a run, as the confirmation says it. */
export function estimateText(model: string, settings: ModelSettings, cases: number, e: Estimate): string {
  const cost =
    e.cost !== undefined
      ? vscode.l10n.t('about {0} in the price table’s currency', e.cost.toFixed(4))
      : vscode.l10n.t('no price is set for this model (setting agentWorkbench.tests.model.prices)');
  return vscode.l10n.t(
    'This run calls {0} for {1} judged cases: about {2} model calls, {3} tokens in and {4} out, {5}.{6}',
    model,
    cases,
    e.calls,
    e.inputTokens,
    e.outputTokens,
    cost,
    settings.cassette === 'record'
      ? ' ' + vscode.l10n.t('The answers are kept in cassettes beside the test files.')
      : '',
  );
}

function capText(settings: ModelSettings): string {
  const caps = [
    ...(settings.maxCalls !== undefined ? [vscode.l10n.t('{0} model calls', settings.maxCalls)] : []),
    ...(settings.maxCost !== undefined ? [vscode.l10n.t('a cost of {0}', settings.maxCost)] : []),
  ];
  return caps.length > 0
    ? vscode.l10n.t('The run stops at {0}, keeping every result so far.', caps.join(vscode.l10n.t(' or ')))
    : vscode.l10n.t('No cap is set (settings agentWorkbench.tests.model.maxCalls and maxCost).');
}

/**
 * Cassettes and labels in the workspace: a case's file is named relative to the workspace (as its results show it),
 * so a relative path is read in the workspace folder it names.
 */
const workspaceTextFiles = {
  read: async (file: string): Promise<string | undefined> => {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri(file)));
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
      throw err;
    }
  },
  write: async (file: string, text: string): Promise<void> => {
    await vscode.workspace.fs.writeFile(workspaceUri(file), new TextEncoder().encode(text));
  },
};

export function workspaceUri(file: string): vscode.Uri {
  if (path.isAbsolute(file)) return vscode.Uri.file(file);
  const folders = vscode.workspace.workspaceFolders ?? [];
  const named = folders.find((f) => folders.length > 1 && file.startsWith(`${f.name}/`));
  if (named) return vscode.Uri.joinPath(named.uri, file.slice(named.name.length + 1));
  const first = folders[0];
  return first ? vscode.Uri.joinPath(first.uri, file) : vscode.Uri.file(path.resolve(file));
}

/**
 * The estimate before a run, from the model layer (estimate.ts): each case's calls from its shape times its repeats,
 * the tokens from the prompts as they will be sent, the price from the table.
 */
function estimateOf(cases: readonly TestCase[], modelId: string, settings: ModelSettings): Estimate {
  const e = agentTestsRuntime().estimateRun(cases, { modelId, prices: settings.prices });
  return {
    calls: e.calls,
    inputTokens: e.inputTokens,
    outputTokens: e.outputTokens,
    ...(e.cost !== undefined ? { cost: e.cost } : {}),
  };
}

/**
 * The model of an assistant's test run (the test tool): the Testing view's, with its estimate confirmed in the editor
 * as a Testing view run confirms it (a replay asks nothing), so an assistant's run never spends unseen.
 */
export async function modelForTool(judged: readonly TestCase[], keys: ModelKeys): Promise<ToolTestModel> {
  const said: string[] = [];
  const chosen = await modelForRun(
    judged.map((testCase) => ({ testCase, uri: workspaceUri(testCase.file) })),
    keys,
    (text) => said.push(text.trim()),
  );
  if (chosen === 'declined')
    return { run: { none: vscode.l10n.t('the person did not confirm the model calls of this run') } };
  const text = said.join(' ');
  return {
    run: chosen,
    ...(text ? { said: text } : {}),
    ...('calls' in chosen
      ? {
          finish: () =>
            chosen.calls.flush().then(
              () => undefined,
              (err: unknown) =>
                vscode.l10n.t(
                  'The cassettes could not be written: {0}',
                  err instanceof Error ? err.message : String(err),
                ),
            ),
        }
      : {}),
  };
}
