// The extension's language model tools as another extension (or Copilot's agent mode) uses them: vscode.lm.tools and
// vscode.lm.invokeTool, with no chat request (toolInvocationToken undefined), and their confirmations as VS Code reads
// them (the registered tool's prepareInvocation). Every answer and confirmation is kept for the secrets scan.
import * as vscode from 'vscode';
import type { WorkbenchExports } from './extension';

export const TOOL_PREFIX = 'agentWorkbench_';

/** The text of a tool's result (its text parts, one after another). */
export function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** Markdown made by MarkdownString.appendText, read back as the text it was made from. */
export function markdownAsText(markdown: string): string {
  return markdown
    .replace(/&nbsp;/g, ' ')
    .replace(/\n\n/g, '\n')
    .replace(/\\([\\`*_{}[\]()#+\-.!~|<>])/g, '$1');
}

/** The confirmation a tool's prepareInvocation gives, as text (what VS Code shows before it runs the tool). */
export interface Confirmation {
  title: string;
  message: string;
}

export class ToolSession {
  /** Every answer a tool gave in this session, in order. */
  readonly answers: Array<{ name: string; text: string }> = [];
  /** The names of the tools invoked through vscode.lm.invokeTool. */
  readonly invoked = new Set<string>();

  constructor(private readonly api: WorkbenchExports) {}

  /** The extension's tools as vscode.lm.tools lists them. */
  listed(): vscode.LanguageModelToolInformation[] {
    return vscode.lm.tools.filter((t) => t.name.startsWith(TOOL_PREFIX));
  }

  /**
   * Invokes a tool. A tool that asks first is confirmed by VS Code itself here: its dialog service does not show
   * dialogs while it runs an extension's tests, and answers yes (the confirmation's text is read with `prepare`).
   */
  async invoke(name: string, input: object): Promise<string> {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
    return this.keep(name, resultText(result));
  }

  /** The registered tool's prepareInvocation, as VS Code calls it before invoke: its confirmation, if any. */
  async prepare(name: string, input: object): Promise<Confirmation | undefined> {
    const tool = this.api.testing!.languageModelTools().get(name);
    if (!tool) throw new Error(`${name} is not registered`);
    const prepared = await tool.prepareInvocation(
      { input: input as Record<string, unknown> },
      new vscode.CancellationTokenSource().token,
    );
    const c = prepared.confirmationMessages;
    if (!c) return undefined;
    const message = typeof c.message === 'string' ? c.message : markdownAsText(c.message.value);
    this.answers.push({ name, text: `${c.title}\n${message}` });
    return { title: c.title, message };
  }

  private keep(name: string, text: string): string {
    this.invoked.add(name);
    this.answers.push({ name, text });
    return text;
  }
}
