import type { ConversationRecord, ConversationsQueryInput } from '../../contract/conversations';
import { ENVIRONMENTS } from '../../contract/environments';
import type { ToolContext } from '../context';
import { pageOf } from '../output';
import { defineTool } from '../tool';
import { clip } from '../output';
import { ENVIRONMENT_PROPERTY, lines, limitProperty, maskNumber, OFFSET_PROPERTY, seconds } from './common';

/** A search or a sample needs a start and an end: without one, from the start of 2000, as the transcript viewer does. */
const ANY_TIME_START = '2000-01-01T00:00:00Z';

const TIME = (what: string) =>
  ({ type: 'string', minLength: 1, description: `${what} (ISO 8601, e.g. 2026-05-01T00:00:00Z).` }) as const;

interface ConversationsInput {
  environment?: string;
  from?: string;
  to?: string;
  lastHours?: number;
  channel?: string[];
  variantId?: string;
  variantName?: string;
  inProgress?: boolean;
  search?: string;
  searchMode?: 'transcript' | 'semantic';
  turnType?: 'user' | 'agent';
  sample?: boolean;
  limit?: number;
  cursor?: string;
}

/** One line of a record: what a list shows of it. */
export function conversationLine(c: ConversationRecord): string {
  const parts = [
    c.id,
    c.started_at,
    c.environment,
    c.channel,
    `${c.num_turns} turn(s)`,
    seconds(c.total_duration),
    c.in_progress ? 'in progress' : '',
    c.variant_name ? `variant ${c.variant_name}` : '',
    c.handoff
      ? `handoff${c.handoff_destination ? ` to ${c.handoff_destination}` : ''}${c.handoff_reason ? ` (${c.handoff_reason})` : ''}`
      : '',
  ].filter(Boolean);
  const first = c.turns.find((t) => t.user_input)?.user_input;
  return `${parts.join(' · ')}${first ? `\n    first words: "${clip(first, 100)}"` : ''}`;
}

function queryOf(input: ConversationsInput, now: number): ConversationsQueryInput {
  const searching = input.search !== undefined || input.sample === true;
  const from =
    input.from ??
    (input.lastHours !== undefined
      ? new Date(now - input.lastHours * 3_600_000).toISOString()
      : searching
        ? ANY_TIME_START
        : undefined);
  const to = input.to ?? (searching || input.lastHours !== undefined ? new Date(now).toISOString() : undefined);
  return {
    client_env: (input.environment ?? 'live') as (typeof ENVIRONMENTS)[number],
    limit: input.limit ?? 20,
    ...(from !== undefined ? { start_time: from } : {}),
    ...(to !== undefined ? { end_time: to } : {}),
    ...(input.channel?.length ? { channel: input.channel } : {}),
    ...(input.variantId !== undefined ? { variant_id: input.variantId } : {}),
    ...(input.variantName !== undefined ? { variant_name: input.variantName } : {}),
    ...(input.inProgress !== undefined ? { in_progress: input.inProgress } : {}),
    ...(input.search !== undefined
      ? {
          query_type: input.searchMode ?? 'transcript',
          query: input.search,
          ...(input.turnType !== undefined ? { turn_type: input.turnType } : {}),
        }
      : input.sample === true
        ? { sample: 'random' as const }
        : {}),
    ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
  };
}

export const conversationsTool = defineTool<ConversationsInput>({
  name: 'agentWorkbench_conversations',
  title: 'Find conversations',
  description:
    "Lists the project's conversations (calls and chats with the agent) from the Conversations API, oldest first: by environment, time range, channel, variant, in progress or finished, and by a search of the transcripts (the callers' and the agent's words) or a random sample. Each line has the conversation id, start, channel, turns, duration and handoff. Read one with agentWorkbench_transcript.",
  kind: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      environment: { ...ENVIRONMENT_PROPERTY, description: 'The environment (default live).' },
      from: TIME('Conversations started at or after this instant'),
      to: TIME('Conversations started before this instant'),
      lastHours: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 8760,
        description: 'Instead of from: the conversations of the last N hours.',
      },
      channel: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'Channels, such as VOICE-SIP, WEBCHAT, CHAT.',
      },
      variantId: { type: 'string', minLength: 1, description: 'Only this variant (not with variantName).' },
      variantName: { type: 'string', minLength: 1, description: 'Only this variant (not with variantId).' },
      inProgress: { type: 'boolean', description: 'true: only conversations in progress; false: only finished.' },
      search: { type: 'string', minLength: 1, description: 'Words to search the transcripts for.' },
      searchMode: {
        type: 'string',
        enum: ['transcript', 'semantic'],
        description: 'transcript (default): the words as written; semantic: by meaning.',
      },
      turnType: { type: 'string', enum: ['user', 'agent'], description: 'Search only what callers or the agent said.' },
      sample: { type: 'boolean', description: 'A random sample of the range instead of all (not with search).' },
      limit: limitProperty(50, 20),
      cursor: {
        type: 'string',
        minLength: 1,
        description: 'The cursor an earlier answer gave, for its next page (send the same filters again).',
      },
    },
    additionalProperties: false,
  },
  async invoke(input, context, signal) {
    if (input.search !== undefined && input.sample === true)
      throw new Error('Give either search or sample, not both: the Conversations API takes one retrieval mode.');
    if (input.lastHours !== undefined && input.from !== undefined)
      throw new Error('Give either lastHours or from, not both.');
    const query = queryOf(input, Date.now());
    const page = await context.conversations(query, signal);
    const env = query.client_env ?? 'live';
    const range = `${query.start_time ?? 'the start'} to ${query.end_time ?? 'now'}`;
    if (page.conversations.length === 0)
      return `No conversations in ${env} from ${range}${input.search ? ` matching "${input.search}"` : ''}.`;
    return lines(
      `${page.conversations.length} conversation(s) in ${env} from ${range}${input.search ? ` matching "${input.search}"` : ''} (oldest first):`,
      page.conversations.map((c) => `  ${conversationLine(c)}`),
      page.cursor
        ? `More conversations match: call again with the same filters and cursor "${page.cursor}".`
        : 'That is all that match.',
    );
  },
});

/** Pages of 1,000 records read while looking for one conversation, at most, per environment. */
const LOOKUP_PAGES = 10;

interface TranscriptInput {
  conversationId: string;
  environment?: string;
  from?: string;
  to?: string;
  offset?: number;
  limit?: number;
}

/**
 * One conversation by its id. The Conversations API lists and searches but has no read by id (the spec shows none),
 * so the pages of the environment named (else each in turn) are walked, narrowed to the times given.
 */
async function findConversation(
  context: ToolContext,
  input: TranscriptInput,
  signal?: AbortSignal,
): Promise<{ record?: ConversationRecord; looked: string }> {
  const envs = input.environment ? [input.environment] : [...ENVIRONMENTS];
  for (const env of envs) {
    let cursor: string | undefined;
    for (let page = 0; page < LOOKUP_PAGES; page++) {
      const reply = await context.conversations(
        {
          client_env: env as (typeof ENVIRONMENTS)[number],
          limit: 1_000,
          include_latency: true,
          ...(input.from ? { start_time: input.from } : {}),
          ...(input.to ? { end_time: input.to } : {}),
          ...(cursor ? { cursor } : {}),
        },
        signal,
      );
      const record = reply.conversations.find(
        (c) => c.id === input.conversationId || c.state['call_sid'] === input.conversationId,
      );
      if (record) return { record, looked: env };
      if (!reply.cursor) break;
      cursor = reply.cursor;
    }
  }
  return { looked: envs.join(', ') };
}

function turnLines(record: ConversationRecord, offset: number, limit: number): { text: string[]; note?: string } {
  const { shown, note } = pageOf(record.turns, offset, limit, 'turns');
  const text = shown.flatMap((t, i) => {
    const n = offset + i + 1;
    const flags = [
      t.is_silence ? 'silence' : '',
      t.is_ood ? 'out of domain' : '',
      t.barge_in ? 'barge-in' : '',
      t.intents.length ? `intents ${t.intents.join(', ')}` : '',
      typeof t.latency === 'number' ? `latency ${Math.round(t.latency)} ms` : '',
    ].filter(Boolean);
    return [
      `${n}. user (${t.user_input_datetime}): ${t.user_input || t.user_input_dtmf || '(nothing)'}`,
      `   agent (${t.agent_response_datetime}): ${t.agent_response}`,
      ...(flags.length ? [`   ${flags.join(' · ')}`] : []),
    ];
  });
  return { text, ...(note ? { note } : {}) };
}

export const transcriptTool = defineTool<TranscriptInput>({
  name: 'agentWorkbench_transcript',
  title: 'Read a conversation',
  description:
    "Reads one conversation by its id (from agentWorkbench_conversations or a test run): its turns in order (what the caller said, what the agent answered, each answer's latency, intents, silences and out-of-domain turns), the handoff (destination and reason), durations and the conversation's metrics. The Conversations API has no read by id, so give its environment and a time range around its start when known: the search is faster and surer.",
  kind: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      conversationId: {
        type: 'string',
        minLength: 1,
        description: 'The conversation id (or a placed call’s call id).',
      },
      environment: { ...ENVIRONMENT_PROPERTY, description: 'Where it happened, when known (else each is searched).' },
      from: TIME('It started at or after this instant, when known'),
      to: TIME('It started before this instant, when known'),
      offset: OFFSET_PROPERTY,
      limit: limitProperty(200, 60),
    },
    required: ['conversationId'],
    additionalProperties: false,
  },
  async invoke(input, context, signal) {
    const { record, looked } = await findConversation(context, input, signal);
    if (!record)
      return `No conversation ${input.conversationId} was found in ${looked}${input.from || input.to ? ` from ${input.from ?? 'the start'} to ${input.to ?? 'now'}` : ''}. The Conversations API has no read by id, so the tool walked the list (at most ${LOOKUP_PAGES * 1000} records per environment): give the environment and a time range around its start.`;
    const metrics = Object.entries(record.metrics);
    const turns = turnLines(record, input.offset ?? 0, input.limit ?? 60);
    return lines(
      `Conversation ${record.id}`,
      `  started ${record.started_at} in ${record.environment}, channel ${record.channel}${record.variant_name ? `, variant ${record.variant_name}` : ''}`,
      `  ${record.in_progress ? 'in progress (turns may still be arriving)' : 'finished'}, ${record.num_turns} turn(s), ${record.num_silences} silence(s), ${record.num_ood} out of domain`,
      `  duration ${seconds(record.total_duration) ?? 'unknown'} (on the platform ${seconds(record.polyai_duration) ?? 'unknown'})`,
      (record.from_number || record.to_number) &&
        `  from ${maskNumber(record.from_number) || '?'} to ${record.to_number || '?'} (the caller's number hidden but its last two digits)`,
      record.handoff
        ? `  handoff to ${record.handoff_destination || '(no destination given)'}: ${record.handoff_reason || '(no reason given)'}`
        : '  no handoff',
      metrics.length > 0
        ? `  metrics: ${metrics.map(([k, v]) => `${k}=${Array.isArray(v) ? `[${v.length} timestamps]` : clip(v, 80)}`).join(', ')}`
        : '  metrics: none (none are enabled for the project, or the key may not read them)',
      record.turns.length === 0 && record.num_turns > 0
        ? `The platform reports ${record.num_turns} turn(s) but sends none: the project's transcript visibility is off, or the key lacks Conversations data permission.`
        : undefined,
      turns.text,
      turns.note,
    );
  },
});
