import * as vscode from 'vscode';
import type { ToolContext } from '../../assistantTools/context';
import type { AssistantTool, ChangeDescription } from '../../assistantTools/tool';
import { prompts } from '../common/prompts';
import { askTypedAgentName } from '../common/askTypedName';
import { typedNameProblem } from '../common/typedName';
import { assistantRuntime } from './assistantRuntime';
import type { EditorToolParts } from './editorToolContext';

type Input = Record<string, unknown>;

/**
 * One assistant tool as a language model tool. Its definition (src/assistantTools) is loaded from its own bundle on
 * first use; what it changes is confirmed through `prepareInvocation` (always for a change, and for whatever may
 * reach live), and a change to live is asked again in the editor when it runs, so that no setting that lets tools
 * run without asking can make it unasked.
 */
export class EditorLanguageModelTool implements vscode.LanguageModelTool<Input> {
  constructor(
    readonly name: string,
    private readonly contextOf: () => ToolContext,
  ) {}

  private get context(): ToolContext {
    return this.contextOf();
  }

  private definition(): AssistantTool {
    const tool = assistantRuntime().findTool(this.name);
    if (!tool) throw new Error(vscode.l10n.t('Agent Workbench has no tool {0}.', this.name));
    return tool;
  }

  async prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<Input>,
    token: vscode.CancellationToken,
  ): Promise<vscode.PreparedToolInvocation> {
    const tool = this.definition();
    const invocationMessage = vscode.l10n.t('{0}: {1}…', vscode.l10n.t('Agent Workbench'), tool.title);
    const change = await withSignal(token, (signal) => this.describe(tool, options.input, signal));
    if (!change || 'problem' in change) return { invocationMessage };
    return { invocationMessage, confirmationMessages: confirmationOf(change) };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<Input>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const tool = this.definition();
    const text = await withSignal(token, async (signal) => {
      const change = await this.describe(tool, options.input, signal);
      // A change whose confirmation could not say what it changes was not asked, so it is not made.
      if (change && 'problem' in change) return change.problem;
      if (change?.live && !(await askLive(change)))
        return vscode.l10n.t('Nothing was done: the person did not confirm "{0}", which reaches live.', change.title);
      const answer = await assistantRuntime().invokeTool(tool, options.input, this.context, signal);
      return answer.text;
    });
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  }

  /**
   * What a tool would change, when it is to be confirmed (checked and masked as an answer is): for a change tool its
   * description, or the problem of its input (bad input, a folder or agent not found) with nothing to confirm; for
   * another tool only what may reach live.
   */
  private async describe(
    tool: AssistantTool,
    input: Input,
    signal: AbortSignal,
  ): Promise<ChangeDescription | { problem: string } | undefined> {
    const runtime = assistantRuntime();
    if (tool.describe) {
      const change = await runtime.describeChange(tool, input, this.context, vscode.l10n, signal);
      return 'problem' in change || tool.kind === 'change' || change.live ? change : undefined;
    }
    if (runtime.inputProblem(tool, input, this.context) !== undefined) return undefined;
    return this.liveConversations(tool, input ?? {});
  }

  /**
   * A tool that holds conversations (a `target` in its input) on live: real calls to what live callers reach, recorded
   * and counted like theirs. Its target is the one named, or the connection's first.
   */
  private liveConversations(tool: AssistantTool, input: Input): ChangeDescription | undefined {
    if (!('target' in tool.inputSchema.properties)) return undefined;
    const target = typeof input.target === 'string' ? input.target : this.context.chatTargets()[0];
    if (target !== 'live' || !this.context.chatTargets().includes('live')) return undefined;
    return {
      title: vscode.l10n.t('{0} on LIVE', tool.title),
      message: vscode.l10n.t(
        'Hold real conversations with the agent on live, with the Chat key of the connection profile "{0}". They are recorded like any other live conversation and count in its metrics.',
        this.context.connectionName,
      ),
      live: true,
    };
  }
}

/** The confirmation VS Code shows: the title and exactly what changes, the text escaped (names come from the platform). */
export function confirmationOf(change: ChangeDescription): vscode.LanguageModelToolConfirmationMessages {
  const message = new vscode.MarkdownString();
  message.appendText(change.message);
  if (change.live) {
    message.appendMarkdown('\n\n**');
    message.appendText(vscode.l10n.t('This changes what live callers reach.'));
    message.appendMarkdown('**');
  }
  return { title: change.title, message };
}

/**
 * What may reach live, asked in the editor as well (Agent Workbench never acts on live unasked); a promotion asks for
 * the agent's name typed, as the Promote command does.
 */
async function askLive(change: ChangeDescription): Promise<boolean> {
  const go = vscode.l10n.t('Continue on Live');
  const answer = await prompts.ask(
    change.title,
    {
      detail: `${change.message}\n\n${vscode.l10n.t('An assistant asked for this. Agent Workbench asks you before anything reaches live.')}`,
      severity: 'warning',
    },
    go,
  );
  if (answer !== go) return false;
  const agentName = change.typeName;
  if (agentName === undefined) return true;
  const typed = await askTypedAgentName(agentName);
  return typed !== undefined && typedNameProblem(vscode.l10n, typed, agentName) === undefined;
}

/** Runs with an AbortSignal that follows the cancellation token. */
async function withSignal<T>(token: vscode.CancellationToken, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  if (token.isCancellationRequested) controller.abort();
  try {
    return await fn(controller.signal);
  } finally {
    sub.dispose();
  }
}

/**
 * Registers every contributed tool, with one ToolContext for all, made from the editor's objects on first use; answers
 * the tools by name too (the extension's tests reach them so).
 */
export function registerLanguageModelTools(
  names: readonly string[],
  parts: EditorToolParts,
): { disposable: vscode.Disposable; tools: ReadonlyMap<string, EditorLanguageModelTool> } {
  let context: ToolContext | undefined;
  const contextOf = (): ToolContext => (context ??= new (assistantRuntime().EditorToolContext)(parts));
  const tools = new Map(names.map((name) => [name, new EditorLanguageModelTool(name, contextOf)]));
  const disposable = vscode.Disposable.from(...[...tools].map(([name, tool]) => vscode.lm.registerTool(name, tool)));
  return { disposable, tools };
}
