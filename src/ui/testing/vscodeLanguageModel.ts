import * as vscode from 'vscode';
import { type LanguageModel, ModelCallError, type ModelMessage, type ModelReply } from '../../agentTests/model/types';
import type { LanguageModelChoice } from './modelSettings';

/** How the editor's models are found: `vscode.lm.selectChatModels`, unless the extension's tests put another. */
export type SelectChatModels = (selector?: vscode.LanguageModelChatSelector) => Thenable<vscode.LanguageModelChat[]>;

let select: SelectChatModels = (selector) => vscode.lm.selectChatModels(selector);

/** The editor's language models, as the quick pick and a run find them. */
export function selectChatModels(selector?: vscode.LanguageModelChatSelector): Thenable<vscode.LanguageModelChat[]> {
  return select(selector);
}

/**
 * Puts another source of models in place of `vscode.lm` (for the extension's tests: VS Code 1.100 lets no test
 * register a model, that API is proposed); disposing gives `vscode.lm` back.
 */
export function replaceChatModels(replacement: SelectChatModels): vscode.Disposable {
  const previous = select;
  select = replacement;
  return new vscode.Disposable(() => {
    select = previous;
  });
}

/** Said to the person in the editor's consent dialog: what the model is asked to do. */
const JUSTIFICATION = vscode.l10n.t(
  'Agent Workbench uses the model to judge the criteria of your conversation tests and to play their simulated callers.',
);

/** The cassette and price name of an editor model: `vscode-lm:<vendor>/<family>/<version>`. */
export function languageModelId(m: LanguageModelChoice): string {
  return `vscode-lm:${m.vendor}/${m.family}/${m.version ?? m.id}`;
}

/**
 * A model of VS Code's Language Model API as the runner's `LanguageModel`: found by the id kept in the settings
 * when first called (a run answered from its cassette never asks for it), its answer read from the stream, its
 * tokens counted with the model's own `countTokens`. The editor asks the person's consent on the first call.
 */
export class VscodeLanguageModel implements LanguageModel {
  readonly id: string;
  private found: Promise<vscode.LanguageModelChat> | undefined;

  constructor(private readonly choice: LanguageModelChoice) {
    this.id = languageModelId(choice);
  }

  private chat(): Promise<vscode.LanguageModelChat> {
    this.found ??= Promise.resolve(
      selectChatModels({ vendor: this.choice.vendor, family: this.choice.family, id: this.choice.id }),
    ).then((models) => {
      const model = models.find((m) => m.id === this.choice.id) ?? models[0];
      if (!model) {
        this.found = undefined;
        throw new ModelCallError(
          vscode.l10n.t(
            'The model {0} chosen for judged tests is not available in this editor (its extension is not installed, signed in or enabled): choose another with "Agent Workbench: Choose the Model for Judged Tests".',
            this.choice.name ?? `${this.choice.vendor}/${this.choice.family}`,
          ),
          'unreachable',
        );
      }
      return model;
    });
    return this.found;
  }

  async complete(messages: readonly ModelMessage[], signal?: AbortSignal): Promise<ModelReply> {
    if (signal?.aborted) throw new ModelCallError(vscode.l10n.t('The model call was cancelled.'), 'cancelled');
    const source = new vscode.CancellationTokenSource();
    const abort = () => source.cancel();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      const model = await this.chat();
      const chatMessages = toChatMessages(messages);
      const response = await model.sendRequest(chatMessages, { justification: JUSTIFICATION }, source.token);
      let text = '';
      for await (const part of response.text) text += part;
      if (signal?.aborted) throw new ModelCallError(vscode.l10n.t('The model call was cancelled.'), 'cancelled');
      const usage = await countUsage(model, chatMessages, text, source.token);
      return { text, ...(usage ? { usage } : {}) };
    } catch (err) {
      throw callError(err, this.choice, signal);
    } finally {
      signal?.removeEventListener('abort', abort);
      source.dispose();
    }
  }
}

/**
 * The messages as `vscode.lm` takes them: its stable API has user and assistant messages only, so the system
 * message is sent as the first user message, as VS Code's guide for extensions advises.
 */
export function toChatMessages(messages: readonly ModelMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((m) =>
    m.role === 'assistant'
      ? vscode.LanguageModelChatMessage.Assistant(m.content)
      : vscode.LanguageModelChatMessage.User(m.content),
  );
}

/** Tokens in and out by the model's own counter; undefined when it cannot count. */
async function countUsage(
  model: vscode.LanguageModelChat,
  sent: readonly vscode.LanguageModelChatMessage[],
  text: string,
  token: vscode.CancellationToken,
): Promise<{ inputTokens: number; outputTokens: number } | undefined> {
  try {
    const input = await Promise.all(sent.map((m) => model.countTokens(m, token)));
    const outputTokens = await model.countTokens(text, token);
    return { inputTokens: input.reduce((a, b) => a + b, 0), outputTokens };
  } catch {
    return undefined;
  }
}

/** A failure of the editor's model in words a person can act on. */
function callError(err: unknown, choice: LanguageModelChoice, signal: AbortSignal | undefined): ModelCallError {
  if (err instanceof ModelCallError) return err;
  const name = choice.name ?? `${choice.vendor}/${choice.family}`;
  if (signal?.aborted || err instanceof vscode.CancellationError)
    return new ModelCallError(vscode.l10n.t('The model call was cancelled.'), 'cancelled');
  if (err instanceof vscode.LanguageModelError) {
    if (err.code === vscode.LanguageModelError.NoPermissions.name)
      return new ModelCallError(
        vscode.l10n.t(
          'Agent Workbench may not use {0}: allow it when the editor asks (run the tests again), or choose another model with "Agent Workbench: Choose the Model for Judged Tests".',
          name,
        ),
        'refused',
      );
    if (err.code === vscode.LanguageModelError.Blocked.name)
      return new ModelCallError(
        vscode.l10n.t(
          '{0} refused the request: its quota is used up or it is blocked for now ({1}). Try again later.',
          name,
          err.message,
        ),
        'rate-limited',
      );
    if (err.code === vscode.LanguageModelError.NotFound.name)
      return new ModelCallError(
        vscode.l10n.t(
          'The model {0} is no longer available: choose another with "Agent Workbench: Choose the Model for Judged Tests".',
          name,
        ),
        'unreachable',
      );
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ModelCallError(vscode.l10n.t('{0} failed: {1}', name, message), 'other');
}
