import { checkJsonSchema } from '../core/jsonSchema';
import type { ToolContext } from './context';
import type { AssistantTool } from './tool';

/**
 * What is wrong with a tool's input, as a message that says what to fix; undefined when it fits the tool's schema.
 * Input holding a secret the connection knows is refused too: credentials come from the connection, never from the
 * model, and an input is often echoed back.
 */
export function inputProblem(tool: AssistantTool, input: unknown, context: ToolContext): string | undefined {
  const value = input === undefined || input === null ? {} : input;
  const violations = checkJsonSchema(tool.inputSchema, value);
  if (violations.length > 0) {
    const known = Object.keys(tool.inputSchema.properties);
    const lines = violations.slice(0, 8).map((v) => `- ${v.path || 'the input'} ${v.message}`);
    return [
      `The input of ${tool.name} was not used: fix these and call it again.`,
      ...lines,
      ...(violations.length > 8 ? [`- and ${violations.length - 8} more`] : []),
      known.length > 0
        ? `Its properties: ${known.map((k) => `${k}${tool.inputSchema.required?.includes(k) ? ' (required)' : ''}`).join(', ')}.`
        : `It takes no properties.`,
    ].join('\n');
  }
  const text = JSON.stringify(value);
  if (context.redact(text) !== text)
    return `The input of ${tool.name} holds a secret (a key, token or access token), so it was not used. Credentials come from the connection (${context.connectionName}), never from tool input: remove it and call again.`;
  return undefined;
}
