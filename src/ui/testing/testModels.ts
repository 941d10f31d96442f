import * as vscode from 'vscode';
import type { TestCase } from '../../agentTests/format';
import type { LanguageModel, ModelCalls } from '../../agentTests/model/types';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { prompts } from '../common/prompts';
import type { ModelKeys } from './modelKey';
import { choiceLabel, type ModelChoice, type ModelSettings, modelSettings, noModelReason } from './modelSettings';
import type { RunModel } from './testRun';
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
  const runtime = modelRuntime();
  const model = await languageModelOf(choice, keys);
  // A case's file is named relative to the workspace in its results; its cassette sits beside the file on disk.
  const paths = new Map(judged.map((c) => [c.testCase.file, c.uri.fsPath]));
  const cases = judged.map((c) => c.testCase);
  const calls = runtime.createModelCalls({
    model,
    mode: settings.cassette,
    cassettePathOf: (file: string) => runtime.cassettePathFor(paths.get(file) ?? file),
    prices: settings.prices,
    ...(settings.maxCalls !== undefined ? { maxCalls: settings.maxCalls } : {}),
    ...(settings.maxCost !== undefined ? { maxCost: settings.maxCost } : {}),
  });
  if (settings.cassette === 'replay') {
    output(
      vscode.l10n.t(
        'Judged criteria are answered from the cassettes beside the test files (replay): no model is called.',
      ) + '\n',
    );
    return { calls };
  }
  const estimate = runtime.estimateRun(cases, { modelId: model.id, prices: settings.prices });
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
  return modelRuntime().openAiModel({
    baseUrl: choice.baseUrl,
    model: choice.model,
    ...(apiKey ? { apiKey } : {}),
  });
}

interface Estimate {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cost?: number;
}

/**
 * What the editor uses of the model code of the conversation tests' bundle (src/agentTests/model/: the endpoint's
 * model, the run's one door of model calls, the estimate). Written down here until those modules are merged.
 */
interface ModelRuntime {
  openAiModel(options: { baseUrl: string; model: string; apiKey?: string }): LanguageModel;
  createModelCalls(options: {
    model: LanguageModel;
    mode: ModelSettings['cassette'];
    cassettePathOf: (file: string) => string;
    prices: ModelSettings['prices'];
    maxCalls?: number;
    maxCost?: number;
  }): ModelCalls;
  cassettePathFor(testFile: string): string;
  estimateRun(cases: readonly TestCase[], options: { modelId: string; prices: ModelSettings['prices'] }): Estimate;
}

function modelRuntime(): ModelRuntime {
  return agentTestsRuntime() as unknown as ModelRuntime;
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
