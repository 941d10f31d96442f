import type { ToolContext } from './context';

/**
 * What a tool does: `read` only reads; `act` runs something that leaves the agent as it is (a conversation, a test
 * run, the checks); `change` changes the platform or the files, and is asked first (the editor's confirmation, the
 * command line's --allow-writes).
 */
export type ToolKind = 'read' | 'act' | 'change';

/** The part of vscode.l10n the confirmations are worded with (the editor passes vscode.l10n; tests a plain one). */
export interface Words {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

/** What a change tool will do, for the person to confirm before it runs. */
export interface ChangeDescription {
  readonly title: string;
  /** Exactly what will change: which agent, branch, deployment, environment or files. */
  readonly message: string;
  /** True when the change reaches live (or may): it is never made without the person's yes. */
  readonly live: boolean;
  /**
   * The agent's name, when the person must type it to confirm (a promotion that may reach live), as the Promote
   * command asks; a client without a way to ask for typing asks yes or no.
   */
  readonly typeName?: string;
}

/** A tool's answer: text sized for a model, with every secret masked. */
export interface ToolAnswer {
  readonly text: string;
  /** The tool did not do what was asked (bad input, a platform error): `text` says why and what to fix. */
  readonly isError: boolean;
}

/** A JSON Schema of a tool's input: an object whose properties are described for the model. */
export interface InputSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required?: readonly string[];
  readonly additionalProperties: false;
}

/**
 * One tool, the same in the editor (language model tools) and over MCP. `invoke` gets input already checked
 * against `inputSchema` (by `invokeTool`), and returns its answer's text; what it throws is answered as an error.
 */
export interface AssistantTool<I = Record<string, unknown>> {
  /** `agentWorkbench_…`: the name of the language model tool and of the MCP tool. */
  readonly name: string;
  /** A short title for people (the editor's tool picker, an MCP client's list). */
  readonly title: string;
  /** What the tool does and when to use it, for the model. */
  readonly description: string;
  readonly kind: ToolKind;
  readonly inputSchema: InputSchema;
  /** Change tools: what this input will change, read from the platform and the files where that says more. */
  describe?(input: I, context: ToolContext, words: Words, signal?: AbortSignal): Promise<ChangeDescription>;
  invoke(input: I, context: ToolContext, signal?: AbortSignal): Promise<string>;
}

/** Declares a tool with its input type; the catalog holds them as `AssistantTool` of plain input. */
export function defineTool<I>(tool: AssistantTool<I>): AssistantTool {
  return tool as unknown as AssistantTool;
}
