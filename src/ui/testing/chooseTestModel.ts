import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposable';
import { runCommand } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { Command } from '../ids';
import type { ModelKeys } from './modelKey';
import { choiceLabel, type ModelChoice, modelSettings, saveChoice } from './modelSettings';
import { selectChatModels } from './vscodeLanguageModel';

type ChoiceItem = vscode.QuickPickItem & { readonly choice?: ModelChoice | 'endpoint' };

/**
 * Choose the Model for Judged Tests: a quick pick of the editor's language models (`vscode.lm`, no key), "OpenAI-
 * compatible endpoint…" (a base URL and a model name, then its key), and "No model" (judged criteria are then
 * skipped). The choice is kept in the settings `agentWorkbench.tests.model.*`. Resolves the choice, undefined when
 * the person stopped.
 */
export async function chooseTestModel(keys: ModelKeys): Promise<ModelChoice | undefined> {
  const current = modelSettings().choice;
  const models = await Promise.resolve(selectChatModels()).then(undefined, () => [] as vscode.LanguageModelChat[]);
  const items: ChoiceItem[] = [
    ...(models.length > 0
      ? [{ label: vscode.l10n.t("The editor's language models"), kind: vscode.QuickPickItemKind.Separator }]
      : []),
    ...models.map((m): ChoiceItem => ({
      label: m.name,
      description: `${m.vendor} · ${m.family}`,
      detail: vscode.l10n.t('Through the editor (vscode.lm): no key; the editor asks your consent on first use.'),
      choice: { kind: 'vscode-lm', vendor: m.vendor, family: m.family, id: m.id, version: m.version, name: m.name },
    })),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    {
      label: vscode.l10n.t('OpenAI-compatible endpoint…'),
      detail: vscode.l10n.t(
        'A hosted service or a local server (Ollama, llama.cpp, vLLM, LM Studio): base URL, model and key.',
      ),
      choice: 'endpoint',
    },
    {
      label: vscode.l10n.t('No model'),
      detail: vscode.l10n.t('Judged criteria and simulated callers are skipped, never passed.'),
      choice: { kind: 'none' },
    },
  ];
  const picked = await prompts.pick(items, {
    title: vscode.l10n.t('The model for judged tests (now: {0})', choiceLabel(current)),
    placeHolder:
      models.length > 0
        ? vscode.l10n.t('Choose a model of the editor, or an OpenAI-compatible endpoint')
        : vscode.l10n.t(
            'The editor offers no language model (install or sign in to a chat extension to use one); choose an OpenAI-compatible endpoint',
          ),
    matchOnDescription: true,
  });
  if (!picked?.choice) return undefined;
  const choice = picked.choice === 'endpoint' ? await askEndpoint(current, keys) : picked.choice;
  if (!choice) return undefined;
  await saveChoice(choice);
  void prompts.info(vscode.l10n.t('Judged tests use {0}.', choiceLabel(choice)));
  return choice;
}

/** The base URL and model name of an endpoint, then its key when none is kept for it. */
async function askEndpoint(current: ModelChoice, keys: ModelKeys): Promise<ModelChoice | undefined> {
  const baseUrl = await prompts.input({
    title: vscode.l10n.t('OpenAI-compatible endpoint: base URL'),
    prompt: vscode.l10n.t('Such as https://api.openai.com/v1, or http://127.0.0.1:11434/v1 for a local Ollama'),
    value: current.kind === 'openai-compatible' ? current.baseUrl : 'https://api.openai.com/v1',
    ignoreFocusOut: true,
    validateInput: (v) => (isHttpUrl(v.trim()) ? undefined : vscode.l10n.t('Type an http:// or https:// address.')),
  });
  if (!baseUrl?.trim()) return undefined;
  const model = await prompts.input({
    title: vscode.l10n.t('OpenAI-compatible endpoint: model'),
    prompt: vscode.l10n.t('The model name the endpoint serves, such as gpt-4o-mini or llama3.1'),
    value: current.kind === 'openai-compatible' ? current.model : '',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type the name of a model.')),
  });
  if (!model?.trim()) return undefined;
  const url = baseUrl.trim().replace(/\/+$/, '');
  if (!(await keys.get(url))) {
    const set = vscode.l10n.t('Set Key');
    const none = vscode.l10n.t('No Key Needed');
    const answer = await prompts.ask(
      vscode.l10n.t('{0} has no key kept in this editor. Set it now?', url),
      { detail: vscode.l10n.t('The key is kept in the editor’s secret storage only, for this endpoint only.') },
      set,
      none,
    );
    if (answer === set) await setTestModelKey(keys, url);
  }
  return { kind: 'openai-compatible', baseUrl: url, model: model.trim() };
}

/** Set the Key of the Model Endpoint: kept in SecretStorage for the endpoint of the settings (or the one given). */
export async function setTestModelKey(keys: ModelKeys, baseUrl?: string): Promise<boolean> {
  const choice = modelSettings().choice;
  const url = baseUrl ?? (choice.kind === 'openai-compatible' ? choice.baseUrl : undefined);
  if (!url) {
    void prompts.warn(
      vscode.l10n.t(
        'No OpenAI-compatible endpoint is chosen for judged tests: run "Agent Workbench: Choose the Model for Judged Tests" first.',
      ),
    );
    return false;
  }
  const key = await prompts.input({
    title: vscode.l10n.t('The key of {0}', url),
    prompt: vscode.l10n.t('Kept in the editor’s secret storage, sent to this endpoint only. Leave empty to remove it.'),
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return false;
  if (key.trim()) await keys.set(url, key.trim());
  else await keys.delete(url);
  void prompts.info(
    key.trim() ? vscode.l10n.t('The key of {0} is kept.', url) : vscode.l10n.t('The key of {0} is removed.', url),
  );
  return true;
}

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export function registerTestModelCommands(keys: ModelKeys): DisposableStore {
  const store = new DisposableStore();
  store.add(vscode.commands.registerCommand(Command.chooseTestModel, () => runCommand(() => chooseTestModel(keys))));
  store.add(vscode.commands.registerCommand(Command.setTestModelKey, () => runCommand(() => setTestModelKey(keys))));
  return store;
}
