import type { ToolContext } from './context';
import { failureText } from './failure';
import { bounded } from './output';
import type { AssistantTool, ChangeDescription, ToolAnswer, Words } from './tool';
import { agentDetailsTool } from './tools/agent';
import { createBranchTool, promoteTool, publishTool } from './tools/deploy';
import { sendMessagesTool } from './tools/chat';
import { conversationsTool, transcriptTool } from './tools/conversations';
import { agentFoldersTool, checkAgentFolderTool } from './tools/folders';
import { concurrencyTool, currentAlertsTool } from './tools/monitoring';
import { pullTool, pushTool } from './tools/sync';
import { runTestsTool } from './tools/tests';
import { inputProblem } from './validate';

/** Every assistant tool, reads first, then what acts, then what changes: the order the lists show them in. */
export const ASSISTANT_TOOLS: readonly AssistantTool[] = [
  agentFoldersTool,
  agentDetailsTool,
  conversationsTool,
  transcriptTool,
  concurrencyTool,
  currentAlertsTool,
  sendMessagesTool,
  runTestsTool,
  checkAgentFolderTool,
  pullTool,
  pushTool,
  publishTool,
  promoteTool,
  createBranchTool,
];

export function findTool(name: string): AssistantTool | undefined {
  return ASSISTANT_TOOLS.find((t) => t.name === name);
}

/**
 * Runs a tool as both the editor and the command line do: the input checked first (nothing runs on bad input, the
 * answer says what to fix), the answer masked of every secret the connection knows and cut to size, and a failure
 * answered in the sentence the person would see. Asking the person before a change is the caller's part.
 */
export async function invokeTool(
  tool: AssistantTool,
  input: unknown,
  context: ToolContext,
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  const problem = inputProblem(tool, input, context);
  if (problem !== undefined) return { text: context.redact(problem), isError: true };
  try {
    const text = await tool.invoke((input ?? {}) as Record<string, unknown>, context, signal);
    return { text: bounded(context.redact(text)), isError: false };
  } catch (err) {
    return { text: bounded(context.redact(failureText(err, tool.kind))), isError: true };
  }
}

/**
 * What a change tool will do with this input, for the person's confirmation (the editor's prepareInvocation):
 * checked and masked as an answer is. Bad input, or a folder or agent that cannot be found, is `{ problem }`: then
 * nothing is asked, and invoking the tool answers the same problem.
 */
export async function describeChange(
  tool: AssistantTool,
  input: unknown,
  context: ToolContext,
  words: Words,
  signal?: AbortSignal,
): Promise<ChangeDescription | { problem: string }> {
  if (!tool.describe) return { problem: `${tool.name} changes nothing: it needs no confirmation.` };
  const problem = inputProblem(tool, input, context);
  if (problem !== undefined) return { problem: context.redact(problem) };
  try {
    const d = await tool.describe((input ?? {}) as Record<string, unknown>, context, words, signal);
    return {
      title: context.redact(d.title),
      message: context.redact(d.message),
      live: d.live,
      ...(d.typeName !== undefined ? { typeName: d.typeName } : {}),
    };
  } catch (err) {
    return { problem: context.redact(failureText(err, 'read')) };
  }
}
