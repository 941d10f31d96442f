import type { ChatConversations } from '../../agentTests/runner';
import type { ToolContext } from '../context';
import { failureText } from '../failure';
import { defineTool } from '../tool';
import { AGENT_ID_PROPERTY, lines } from './common';

export const TARGET_PROPERTY = {
  type: 'string',
  minLength: 1,
  description:
    'Where the agent is reached: "local" for the local platform, or an environment (sandbox, pre-release, live) whose Chat API key the connection has. Default: the first the connection offers (the answer names them).',
} as const;

/** The target named, or the connection's first; an unknown one is refused with the ones there are. */
export function targetOf(context: ToolContext, named: string | undefined): string {
  const targets = context.chatTargets();
  const [first] = targets;
  if (first === undefined)
    throw new Error(
      `${context.connectionName} has no Chat API key and connector token, so no conversation can be held: set them on the connection (Agent Workbench: Set Credential), or use the local platform.`,
    );
  if (named === undefined) return first;
  if (!targets.includes(named))
    throw new Error(`"${named}" is not a target of ${context.connectionName}; its targets: ${targets.join(', ')}.`);
  return named;
}

/** The agent of the workspace's only agent folder, when no agent is named and there is one. */
async function defaultAgent(context: ToolContext, signal?: AbortSignal): Promise<string | undefined> {
  const ids = [...new Set((await context.agentFolders(signal)).map((f) => f.manifest.agentId))];
  return ids.length === 1 ? ids[0] : undefined;
}

interface SendInput {
  messages?: string[];
  target?: string;
  agentId?: string;
  conversationId?: string;
  end?: boolean;
  variantId?: string;
  integrationAttributes?: Record<string, unknown>;
}

export const sendMessagesTool = defineTool<SendInput>({
  name: 'agentWorkbench_sendMessages',
  title: 'Talk to the agent',
  description:
    "Holds a conversation with the agent through the Chat API, as a caller would, on the local platform or an environment the connection has a Chat key for: starts one (the agent's greeting first) or continues one by its conversationId, sends each message in turn and returns every answer with its latency, any handoff (destination and reason) and whether the agent ended the conversation. The conversation stays open for the next call unless end is true or the agent ended it. Use it to try a change of behavior or knowledge.",
  kind: 'act',
  inputSchema: {
    type: 'object',
    properties: {
      messages: {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: 4000 },
        maxItems: 10,
        description: "The caller's messages, sent one after the other (none: only the greeting, or only end).",
      },
      target: TARGET_PROPERTY,
      agentId: {
        ...AGENT_ID_PROPERTY,
        description: 'The agent to talk to, when the target reaches more than one (default: the agent folder’s).',
      },
      conversationId: {
        type: 'string',
        minLength: 1,
        description: 'Continue this conversation instead of starting one.',
      },
      end: { type: 'boolean', description: 'Close the conversation after the messages.' },
      variantId: {
        type: 'string',
        minLength: 1,
        description: 'A variant to start the conversation with (new ones only).',
      },
      integrationAttributes: {
        type: 'object',
        description: 'Key/values the agent reads at conv.integration_attributes (new conversations only).',
      },
    },
    additionalProperties: false,
  },
  async invoke(input, context, signal) {
    if (input.conversationId !== undefined && (input.variantId !== undefined || input.integrationAttributes))
      throw new Error(
        'variantId and integrationAttributes are taken only when a conversation starts: leave out conversationId to start one.',
      );
    const target = targetOf(context, input.target);
    const agentId = input.agentId ?? (await defaultAgent(context, signal));
    const reach = await context.chat({ target, ...(agentId !== undefined ? { agentId } : {}) });
    if ('skip' in reach) throw new Error(`No conversation on ${target}: ${reach.skip}.`);
    return converse(reach.chat, input, target, reach.note, signal);
  },
});

async function converse(
  chat: ChatConversations,
  input: SendInput,
  target: string,
  note: string | undefined,
  signal?: AbortSignal,
): Promise<string> {
  const said: string[] = [];
  let id = input.conversationId;
  let ended = false;
  const timed = async <T>(call: () => Promise<T>): Promise<[T, number]> => {
    const t0 = performance.now();
    const value = await call();
    return [value, Math.round(performance.now() - t0)];
  };
  const messages = input.messages ?? [];
  let sent = 0;
  try {
    if (id === undefined) {
      const [created, ms] = await timed(() =>
        chat.create(
          {
            ...(input.variantId !== undefined ? { variant_id: input.variantId } : {}),
            ...(input.integrationAttributes ? { integration_attributes: input.integrationAttributes } : {}),
          },
          signal,
        ),
      );
      id = created.conversation_id;
      said.push(`agent (greeting, ${ms} ms): ${created.response}`);
    }
    const conversationId = id;
    for (const message of messages) {
      if (ended) break;
      const [reply, ms] = await timed(() => chat.respond({ conversation_id: conversationId, message }, signal));
      sent++;
      said.push(`user: ${message}`, `agent (${ms} ms): ${reply.response}`);
      if (reply.handoff)
        said.push(
          `  handoff to ${reply.handoff.destination ?? '(no destination)'}: ${reply.handoff.reason ?? '(no reason)'}`,
        );
      if (reply.end_conversation) {
        said.push('  the agent ended the conversation');
        ended = true;
      }
    }
    if (input.end && !ended) {
      await chat.close(id, signal);
      said.push('  closed');
      ended = true;
    }
  } catch (err) {
    throw new Error(
      lines(
        id !== undefined ? `Conversation ${id} on ${target}:` : `No conversation was started on ${target}.`,
        said,
        failureText(err, 'act'),
        sent < messages.length && `${messages.length - sent} message(s) not sent.`,
      ),
    );
  }
  return lines(
    `Conversation ${id} on ${target}${note ? ` (${note})` : ''}:`,
    said,
    sent < messages.length &&
      `${messages.length - sent} message(s) not sent: the agent ended the conversation before them.`,
    ended
      ? 'The conversation is over.'
      : `The conversation stays open: pass conversationId "${id}" to continue it, or end: true to close it.`,
  );
}
