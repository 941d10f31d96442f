import type { Environment } from '../agents/model';
import type { ConversationReply, GeneratedConversationsReply, TurnsReply } from '../adminApi';
import { buildError, type Router } from '../http';
import type { Platform } from '../platform';
import { LOCAL_ACCOUNT, LOCAL_AGENT_ID, LOCAL_PROJECT } from '../seed/credentials';
import type { StoredConversation, StoredTurn } from '../state';
import { generateConversations } from './demo';

const ENVIRONMENTS: readonly Environment[] = ['live', 'sandbox', 'pre-release'];
const MAX_TURNS = 20_000;
const MAX_GENERATED = 500_000;

type Body = Record<string, unknown>;

const str = (v: unknown, fallback: string | null): string | null => (typeof v === 'string' ? v : fallback);
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);
const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** A turn from what a test sends; times follow the previous turn unless given. */
function turnOf(raw: unknown, atMs: number): StoredTurn {
  const t = (raw ?? {}) as Body;
  const latency = num(t.latency, 250);
  return {
    user_input: str(t.user_input, ''),
    user_input_dtmf: str(t.user_input_dtmf, null),
    user_input_datetime: str(t.user_input_datetime, new Date(atMs).toISOString()),
    barge_in: bool(t.barge_in, false),
    agent_response: str(t.agent_response, ''),
    agent_response_datetime: str(t.agent_response_datetime, new Date(atMs + latency).toISOString()),
    latency,
    translated_user_input: str(t.translated_user_input, null),
    english_agent_response: str(t.english_agent_response, null),
    intents: Array.isArray(t.intents) ? t.intents.filter((i): i is string => typeof i === 'string') : [],
    entities:
      t.entities && typeof t.entities === 'object' && !Array.isArray(t.entities)
        ? Object.fromEntries(Object.entries(t.entities as Body).map(([k, v]) => [k, String(v)]))
        : {},
    is_ood: bool(t.is_ood, false),
    is_silence: bool(t.is_silence, false),
  };
}

function turnsOf(raw: unknown, startMs: number): StoredTurn[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_TURNS)
    throw buildError(400, 'turns must be a list of turn objects', [
      { field: 'turns', message: `a list of at most ${MAX_TURNS} turns` },
    ]);
  return raw.map((t, i) => turnOf(t, startMs + i * 4_000));
}

/**
 * `/_local/conversations`: records a conversation as given (any text, any number of turns), and adds
 * turns to one, so tests and demos can show content the agent engine would never say.
 */
export function registerConversationAdminRoutes(admin: Router, platform: Platform): void {
  admin.post('/conversations', (ctx) => {
    const b = (ctx.json() ?? {}) as Body;
    const environment = (b.environment ?? 'live') as Environment;
    if (!ENVIRONMENTS.includes(environment))
      throw buildError(400, 'Unknown environment', [{ field: 'environment', message: ENVIRONMENTS.join(', ') }]);
    const startedAt = str(b.started_at, platform.now())!;
    const startMs = Date.parse(startedAt);
    if (!Number.isFinite(startMs))
      throw buildError(400, 'started_at is not a date', [{ field: 'started_at', message: 'an ISO 8601 instant' }]);
    const id = str(b.id, null) ?? platform.nextId('conv');
    if (platform.state.conversations.some((c) => c.id === id))
      throw buildError(409, `Conversation ${id} exists already`, [{ field: 'id', message: 'a new id' }]);
    const turns = turnsOf(b.turns, startMs + 1_000);
    const inProgress = bool(b.in_progress, false);
    const conv: StoredConversation = {
      id,
      account_id: LOCAL_ACCOUNT.id,
      project_id: LOCAL_PROJECT.id,
      agent_id: LOCAL_AGENT_ID,
      variant_id: str(b.variant_id, 'var_default'),
      variant_name: str(b.variant_name, 'Default'),
      environment,
      started_at: new Date(startMs).toISOString(),
      ended_at: inProgress ? null : new Date(startMs + turns.length * 4_000 + 2_000).toISOString(),
      channel: str(b.channel, 'WEBCHAT')!,
      from_number: str(b.from_number, null),
      to_number: str(b.to_number, null),
      in_progress: inProgress,
      total_duration: num(b.total_duration, turns.length * 4 + 2),
      polyai_duration: num(b.polyai_duration, turns.length * 4 + 2),
      handoff: bool(b.handoff, false),
      handoff_reason: str(b.handoff_reason, null),
      handoff_destination: str(b.handoff_destination, null),
      language: 'en-US',
      metrics: (b.metrics && typeof b.metrics === 'object' ? b.metrics : {}) as StoredConversation['metrics'],
      state: (b.state && typeof b.state === 'object' ? b.state : {}) as Body,
      turns,
      api_errors: 0,
      function_errors: 0,
      crashed: false,
      source: 'admin',
      integration_attributes: null,
    };
    platform.state.conversations.push(conv);
    platform.conversationChanged(conv);
    return { status: 201, body: { id, turns: turns.length } satisfies ConversationReply };
  });
  // Many finished conversations like the demo week's at once, for load figures.
  admin.post('/conversations/generate', (ctx) => {
    const b = (ctx.json() ?? {}) as Body;
    const count = b.count;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_GENERATED)
      throw buildError(400, 'count must be a whole number', [{ field: 'count', message: `1 to ${MAX_GENERATED}` }]);
    const startMs = Date.parse(str(b.start_time, '') ?? '');
    const endMs = Date.parse(str(b.end_time, '') ?? '');
    if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs <= startMs)
      throw buildError(400, 'start_time and end_time must be ISO 8601 instants, the end after the start', [
        { field: 'start_time', message: 'an ISO 8601 instant before end_time' },
      ]);
    const environment = (b.environment ?? 'live') as Environment;
    if (!ENVIRONMENTS.includes(environment))
      throw buildError(400, 'Unknown environment', [{ field: 'environment', message: ENVIRONMENTS.join(', ') }]);
    const seed = num(b.seed, 1);
    generateConversations(platform, { count, startMs, endMs, environment, seed });
    return {
      status: 201,
      body: { created: count, total: platform.state.conversations.length } satisfies GeneratedConversationsReply,
    };
  });
  admin.post('/conversations/:id/turns', (ctx) => {
    const conv = platform.state.conversations.find((c) => c.id === ctx.params.id);
    if (!conv) throw buildError(404, `Conversation not found: ${ctx.params.id ?? ''}`);
    const b = (ctx.json() ?? {}) as Body;
    const last = conv.turns.at(-1)?.agent_response_datetime;
    const turns = turnsOf(b.turns, (last ? Date.parse(last) : Date.parse(conv.started_at)) + 2_000);
    conv.turns.push(...turns);
    if (b.in_progress === false) {
      conv.in_progress = false;
      conv.ended_at = platform.now();
    }
    platform.conversationChanged(conv);
    return { body: { id: conv.id, turns: conv.turns.length, in_progress: conv.in_progress } satisfies TurnsReply };
  });
}
