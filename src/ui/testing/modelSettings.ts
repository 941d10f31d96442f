import * as vscode from 'vscode';
import type { CassetteMode } from '../../agentTests/model/types';
import { TESTS_SECTION } from '../testSettings';

/** The settings of the model that judges criteria and plays simulated callers (`agentWorkbench.tests.model.*`). */
export const MODEL_SECTION = `${TESTS_SECTION}.model`;

/** A model of VS Code's Language Model API, as the quick pick keeps it. */
export interface LanguageModelChoice {
  readonly vendor: string;
  readonly family: string;
  readonly id: string;
  readonly version?: string;
  /** Its name as the editor shows it. */
  readonly name?: string;
}

/** The model chosen for judged tests: none, one of `vscode.lm`, or an OpenAI-compatible endpoint. */
export type ModelChoice =
  | { readonly kind: 'none' }
  | ({ readonly kind: 'vscode-lm' } & LanguageModelChoice)
  | { readonly kind: 'openai-compatible'; readonly baseUrl: string; readonly model: string };

/** Price of a model, in the table's currency per million tokens. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
}

export interface ModelSettings {
  readonly choice: ModelChoice;
  readonly cassette: CassetteMode;
  /** The most model calls one run makes; undefined: no cap. */
  readonly maxCalls?: number;
  /** The most one run spends on models, in the price table's currency; undefined: no cap. */
  readonly maxCost?: number;
  /** Prices by model id (`openai:<host>/<model>`, `vscode-lm:<vendor>/<family>/<version>`) or model name. */
  readonly prices: Readonly<Record<string, ModelPrice>>;
  /** Below this agreement with the labels (0 to 1), a criterion is advisory. */
  readonly agreementThreshold: number;
}

const MODES: readonly CassetteMode[] = ['replay', 'record', 'live'];

/** The model settings as they are now; anything malformed reads as its default, never as a model to call. */
export function modelSettings(): ModelSettings {
  const c = vscode.workspace.getConfiguration(MODEL_SECTION);
  const provider = c.get<string>('provider', 'none');
  let choice: ModelChoice = { kind: 'none' };
  if (provider === 'vscode-lm') {
    const lm = c.get<Partial<LanguageModelChoice>>('languageModel') ?? {};
    if (typeof lm.vendor === 'string' && typeof lm.family === 'string' && typeof lm.id === 'string')
      choice = {
        kind: 'vscode-lm',
        vendor: lm.vendor,
        family: lm.family,
        id: lm.id,
        ...(typeof lm.version === 'string' ? { version: lm.version } : {}),
        ...(typeof lm.name === 'string' ? { name: lm.name } : {}),
      };
  } else if (provider === 'openai-compatible') {
    const baseUrl = c.get<string>('baseUrl', '').trim();
    const model = c.get<string>('name', '').trim();
    if (baseUrl && model) choice = { kind: 'openai-compatible', baseUrl, model };
  }
  const mode = c.get<string>('cassette', 'record');
  const positive = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
  const maxCalls = positive(c.get('maxCalls'));
  const maxCost = positive(c.get('maxCost'));
  const threshold = c.get<number>('agreementThreshold', 0.8);
  return {
    choice,
    cassette: MODES.includes(mode as CassetteMode) ? (mode as CassetteMode) : 'record',
    ...(maxCalls !== undefined ? { maxCalls: Math.floor(maxCalls) } : {}),
    ...(maxCost !== undefined ? { maxCost } : {}),
    prices: pricesOf(c.get('prices')),
    agreementThreshold: typeof threshold === 'number' && threshold >= 0 && threshold <= 1 ? threshold : 0.8,
  };
}

function pricesOf(value: unknown): Record<string, ModelPrice> {
  const prices: Record<string, ModelPrice> = {};
  if (typeof value !== 'object' || value === null) return prices;
  for (const [model, price] of Object.entries(value)) {
    const { input, output } = (price ?? {}) as { input?: unknown; output?: unknown };
    if (typeof input === 'number' && typeof output === 'number' && input >= 0 && output >= 0)
      prices[model] = { input, output };
  }
  return prices;
}

/** The model as the person reads its name: in messages, the estimate and the quick pick. */
export function choiceLabel(choice: ModelChoice): string {
  switch (choice.kind) {
    case 'none':
      return vscode.l10n.t('no model');
    case 'vscode-lm':
      return choice.name ?? `${choice.vendor}/${choice.family}`;
    case 'openai-compatible':
      return vscode.l10n.t('{0} at {1}', choice.model, choice.baseUrl);
  }
}

/** Why judged criteria and simulated callers are not run, and how to set a model: shown wherever they are skipped. */
export function noModelReason(): string {
  return vscode.l10n.t(
    'no model is set for judged criteria and simulated callers: run "Agent Workbench: Choose the Model for Judged Tests" (setting agentWorkbench.tests.model.provider)',
  );
}

/** Writes the choice into the settings (the user's, unless the workspace sets them already). */
export async function saveChoice(choice: ModelChoice): Promise<void> {
  const c = vscode.workspace.getConfiguration(MODEL_SECTION);
  const target = (key: string) =>
    c.inspect(key)?.workspaceValue !== undefined
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
  await c.update('provider', choice.kind, target('provider'));
  if (choice.kind === 'vscode-lm') {
    const { kind: _kind, ...lm } = choice;
    await c.update('languageModel', lm, target('languageModel'));
  } else if (choice.kind === 'openai-compatible') {
    await c.update('baseUrl', choice.baseUrl, target('baseUrl'));
    await c.update('name', choice.model, target('name'));
  }
}
