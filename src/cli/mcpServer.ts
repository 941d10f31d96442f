import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport as McpTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ASSISTANT_TOOLS, findTool, invokeTool } from '../assistantTools/catalog';
import type { ToolContext } from '../assistantTools/context';
import type { AssistantTool } from '../assistantTools/tool';
import { mcpSchemaValidator } from './mcpSchemaValidator';

export interface McpServerOptions {
  readonly allowWrites: boolean;
  /** How to start this server with writes allowed, for the refusal's words. */
  readonly allowWritesHint: string;
  readonly version: string;
  /** Which platform the tools reach, in words ("the local platform the editor runs at …"): the instructions say it. */
  readonly connectionName?: string;
}

/** What a change tool answers when the server was started without --allow-writes. */
export function writesRefused(tool: AssistantTool, hint: string): string {
  return `${tool.name} changes the platform or the agent folders, and this MCP server was started without --allow-writes, so nothing was done. To allow the change tools, restart the server with --allow-writes (${hint}); the MCP client still asks before each call it has not been told to allow.`;
}

/**
 * The assistant tools as an MCP server (the SDK's low-level Server with the tools' own JSON Schemas): every tool is
 * listed, with whether it reads, acts or changes; a change tool runs only with --allow-writes.
 */
export function assistantToolsServer(context: ToolContext, options: McpServerOptions): Server {
  const server = new Server(
    { name: 'agent-workbench', title: 'Agent Workbench', version: options.version },
    {
      capabilities: { tools: {} },
      jsonSchemaValidator: mcpSchemaValidator,
      instructions:
        'Tools of Agent Workbench: read the agent folders, agents, deployments, conversations, transcripts, concurrency and alerts of a conversational agent platform; talk to the agent, run its conversation tests and checks; pull, push, publish, promote and branch (with --allow-writes).' +
        (options.connectionName ? ` They reach ${options.connectionName}.` : ''),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: ASSISTANT_TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description:
        tool.kind === 'change' && !options.allowWrites
          ? `${tool.description} (Refused by this server: it was started without --allow-writes.)`
          : tool.description,
      inputSchema: { ...tool.inputSchema, properties: { ...tool.inputSchema.properties } },
      annotations: {
        title: tool.title,
        readOnlyHint: tool.kind === 'read',
        destructiveHint: tool.kind === 'change',
        idempotentHint: tool.kind === 'read',
        openWorldHint: true,
      },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = findTool(request.params.name);
    const answer = (text: string, isError: boolean) => ({ content: [{ type: 'text' as const, text }], isError });
    if (!tool)
      return answer(
        `There is no tool "${request.params.name}". The tools: ${ASSISTANT_TOOLS.map((t) => t.name).join(', ')}.`,
        true,
      );
    if (tool.kind === 'change' && !options.allowWrites)
      return answer(writesRefused(tool, options.allowWritesHint), true);
    const result = await invokeTool(tool, request.params.arguments ?? {}, context, extra.signal);
    return answer(result.text, result.isError);
  });
  return server;
}

/** Connects the server and resolves when the transport closes (the client went away or stdin ended). */
export async function serveUntilClosed(server: Server, transport: McpTransport): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}
