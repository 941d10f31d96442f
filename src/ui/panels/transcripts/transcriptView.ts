import type {
  ConversationRecord,
  ConversationsQueryInput,
  ConversationTurn,
  isIsoInstant,
  isoToMs,
  normalizeIso,
} from '../../../contract/conversations';
import type {
  ConversationDetail,
  ConversationFilters,
  ConversationRow,
  FindResult,
  NameValue,
  TurnView,
} from '../../../protocol/transcripts';
import { metricName, metricText } from '../../../protocol/metricWords';
import { type ClockOptions, clockWords, durationWords } from '../../../protocol/timeWords';
import { snippetOf } from './searchSnippet';
import { markdownCell, markdownText } from '../../../core/shownText';

// What the transcript viewer shows of a conversation record, and the query its filters make. No
// 'vscode' here, so every rule is unit-tested.

/** Conversations per page: the first page fills a screen many times over. */
export const PAGE_SIZE = 500;
const HOUR_MS = 3_600_000;
const PRESET_MS = {
  lastHour: HOUR_MS,
  last24Hours: 24 * HOUR_MS,
  last7Days: 7 * 24 * HOUR_MS,
  last30Days: 30 * 24 * HOUR_MS,
};
/** Where "Any time" starts when the platform needs a start (a search or a sample). */
const ANY_TIME_START = '2000-01-01T00:00:00Z';

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The contract's date rules (loaded with the client bundle, so the extension's own bundle stays small). */
export interface IsoDates {
  isIsoInstant: typeof isIsoInstant;
  isoToMs: typeof isoToMs;
  normalizeIso: typeof normalizeIso;
}

/** The query of the filters at `nowMs`, or what to fix. */
export function queryOf(
  f: ConversationFilters,
  nowMs: number,
  { isIsoInstant, isoToMs, normalizeIso }: IsoDates,
): { ok: true; query: ConversationsQueryInput } | { ok: false; problem: string } {
  const search = f.search?.trim() ?? '';
  if (search && f.sample) return { ok: false, problem: 'Search or take a random sample, not both: clear one of them.' };
  let start: string | undefined;
  let end: string | undefined;
  if (f.range === 'custom') {
    const from = f.start?.trim() ?? '';
    const to = f.end?.trim() ?? '';
    if (from && !isIsoInstant(from))
      return { ok: false, problem: `The start "${from}" is not a date: write it as 2026-01-05 or 2026-01-05T09:00Z.` };
    if (to && !isIsoInstant(to))
      return { ok: false, problem: `The end "${to}" is not a date: write it as 2026-01-05 or 2026-01-05T17:00Z.` };
    if (from && to && isoToMs(to) < isoToMs(from)) return { ok: false, problem: 'The end is before the start.' };
    start = from ? normalizeIso(from) : undefined;
    end = to ? normalizeIso(to) : undefined;
  } else if (f.range !== 'anyTime') {
    start = iso(nowMs - PRESET_MS[f.range]);
    end = iso(nowMs);
  }
  if (search || f.sample) {
    // A search or a sample needs both ends of the range.
    start ??= ANY_TIME_START;
    end ??= iso(nowMs);
  }
  const variant = f.variant?.trim();
  const query: ConversationsQueryInput = {
    client_env: f.environment,
    limit: PAGE_SIZE,
    include_latency: true,
    ...(start ? { start_time: start } : {}),
    ...(end ? { end_time: end } : {}),
    ...(f.channels.length ? { channel: f.channels } : {}),
    ...(variant ? (f.variantBy === 'id' ? { variant_id: variant } : { variant_name: variant }) : {}),
    ...(f.progress !== 'any' ? { in_progress: f.progress === 'inProgress' } : {}),
    ...(search ? { query_type: f.searchType, query: search } : {}),
    ...(search && f.searchType === 'transcript' && f.turnType !== 'both' ? { turn_type: f.turnType } : {}),
    ...(f.sample ? { sample: 'random' as const } : {}),
  };
  return { ok: true, query };
}

/** A phone number with all but its last two digits hidden; "" stays "". */
export function maskNumber(value: string): string {
  const digits = value.replace(/\D/g, '').length;
  let seen = 0;
  return value.replace(/\d/g, (d) => (++seen > digits - 2 ? d : '•'));
}

/** Phone numbers as the platform writes them (E.164), wherever they stand in a text (`sip:+4420...`, a handoff). */
const E164_IN_TEXT = /\+\d{7,15}(?!\d)/g;

/** A text with every phone number in it masked (but its last two digits), unless the person revealed numbers. */
export function maskNumbersIn(text: string, revealed: boolean): string {
  return revealed ? text : text.replace(E164_IN_TEXT, maskNumber);
}

/**
 * A conversation as a row of the list; with the list's search, the turn text that matched (a transcript search
 * looks on the side its filter names).
 */
export function rowOf(
  r: ConversationRecord,
  revealed: boolean,
  filters?: Pick<ConversationFilters, 'search' | 'searchType' | 'turnType'>,
  /** Whether a test run of this editor made a conversation. */
  testRun?: (conversationId: string) => boolean,
): ConversationRow {
  const show = (n: string) => (revealed ? n : maskNumber(n));
  const search = filters?.search?.trim();
  const snippet = search
    ? snippetOf(r.turns, search, filters!.searchType === 'transcript' ? filters!.turnType : 'both', (t) =>
        maskNumbersIn(t, revealed),
      )
    : undefined;
  return {
    id: r.id,
    startedAt: r.started_at,
    ...(r.total_duration !== null && !r.in_progress ? { durationS: r.total_duration } : {}),
    turns: r.num_turns,
    channel: r.channel,
    handoff: r.handoff,
    handoffTo: maskNumbersIn(r.handoff_destination, revealed),
    from: show(r.from_number),
    to: show(r.to_number),
    variant: r.variant_name || r.variant_id,
    inProgress: r.in_progress,
    ...(testRun?.(r.id) ? { testRun: true } : {}),
    ...(snippet ? { snippet } : {}),
  };
}

function valueText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(', ');
  return JSON.stringify(v) ?? String(v);
}

function entitiesOf(e: ConversationTurn['entities']): NameValue[] {
  if (Array.isArray(e))
    return e.map((item, i) => {
      const o = item as Record<string, unknown>;
      const name = typeof o.name === 'string' ? o.name : typeof o.entity === 'string' ? o.entity : `entity ${i + 1}`;
      return { name, value: valueText(o.value ?? o) };
    });
  return Object.entries(e).map(([name, value]) => ({ name, value: valueText(value) }));
}

function turnOf(t: ConversationTurn, i: number): TurnView {
  return {
    n: i + 1,
    user: t.user_input,
    dtmf: t.user_input_dtmf,
    userTime: t.user_input_datetime,
    agent: t.agent_response,
    agentTime: t.agent_response_datetime,
    ...(t.latency !== undefined ? { latencyMs: t.latency } : {}),
    bargeIn: t.barge_in,
    silence: t.is_silence,
    ood: t.is_ood,
    intents: t.intents,
    entities: entitiesOf(t.entities),
    translatedUser: t.translated_user_input ?? '',
    englishAgent: t.english_agent_response ?? '',
  };
}

/** The detail of a record: turns, metrics, state and handoff, with the empty ones said in words. */
export function detailOf(
  r: ConversationRecord,
  opts: { revealed: boolean; agentId?: string; readAt: string },
): ConversationDetail {
  const turns = r.turns.map(turnOf);
  const numbers = new Set([r.from_number, r.to_number].filter(Boolean));
  const state = Object.entries(r.state).map(([name, v]) => {
    const value = valueText(v);
    return {
      name,
      value: !opts.revealed && numbers.has(value) ? maskNumber(value) : maskNumbersIn(value, opts.revealed),
    };
  });
  const counted = `${r.num_turns} turn${r.num_turns === 1 ? '' : 's'}`;
  // Turns may still be arriving while a conversation is in progress: only a finished one says visibility is off.
  const turnsNote =
    turns.length > 0
      ? ''
      : r.in_progress
        ? r.num_turns > 0
          ? `${counted} so far, not here yet: turns can arrive while a conversation is in progress (if they never do, transcript visibility is off for this project).`
          : 'No turns yet: the conversation has just started.'
        : r.num_turns > 0
          ? `This conversation has ${counted}, but their transcript is not shown: transcript visibility is off for this project.`
          : 'This conversation has no turns.';
  const metrics = Object.entries(r.metrics).map(([name, v]) => ({
    name,
    value: maskNumbersIn(valueText(v), opts.revealed),
  }));
  return {
    row: rowOf(r, opts.revealed),
    environment: r.environment,
    turns,
    turnsNote,
    metrics,
    metricsNote: metrics.length ? '' : 'No metrics: no response metrics are enabled for this project.',
    state,
    ...(r.handoff
      ? { handoff: { destination: maskNumbersIn(r.handoff_destination, opts.revealed), reason: r.handoff_reason } }
      : {}),
    maxLatencyMs: turns.reduce((m, t) => Math.max(m, t.latencyMs ?? 0), 0),
    ...(opts.agentId ? { agentId: opts.agentId } : {}),
    readAt: opts.readAt,
  };
}

/**
 * The turns that contain every word of `text` (case-insensitive, in any text field of the turn), and the
 * turns shown for them: each match with `context` turns before and after, so it reads in its place.
 */
export function findTurns(turns: readonly TurnView[], text: string, context = 1): FindResult | undefined {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  const matches: number[] = [];
  turns.forEach((t, i) => {
    const hay = [t.user, t.dtmf, t.agent, t.translatedUser, t.englishAgent, ...t.intents]
      .concat(t.entities.map((e) => `${e.name} ${e.value}`))
      .join('\n')
      .toLowerCase();
    if (words.every((w) => hay.includes(w))) matches.push(i);
  });
  const shown = new Set<number>();
  for (const m of matches)
    for (let i = Math.max(0, m - context); i <= Math.min(turns.length - 1, m + context); i++) shown.add(i);
  return { query: text, matches, shown: [...shown].sort((a, b) => a - b) };
}

// ---- export ----

export const TRANSCRIPT_FORMAT = 'agent-workbench.transcript';

/** The record as the platform gave it, in a file that says what it is. */
export function transcriptJson(r: ConversationRecord, exportedAt: string): string {
  return `${JSON.stringify({ format: TRANSCRIPT_FORMAT, version: 1, exportedAt, conversation: r }, null, 2)}\n`;
}

/** Text for a Markdown file, shown as written: nothing becomes markup, bidi and control characters show as their code. */
export { markdownText };

/**
 * A Markdown transcript: the conversation's facts, then each turn with its times, latency and flags. Phone
 * numbers are masked where the viewer masks them (facts, metrics, state), unless the person revealed them.
 */
export function transcriptMarkdown(r: ConversationRecord, revealed = false, clock: ClockOptions = {}): string {
  const m = markdownText;
  // A file is read away from the editor, perhaps elsewhere in the world: times of day name their zone.
  const timeZone = clock.timeZone ?? new Intl.DateTimeFormat(clock.locale).resolvedOptions().timeZone;
  /** An instant as a time of day, the platform's text when it is not one. */
  const when = (iso: string, withDate = false): string => {
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? iso : clockWords(ms, { ...clock, timeZone, withDate });
  };
  /** A turn's time after a space, or "" when the turn has none. */
  const at = (iso: string): string => (iso ? ` ${m(when(iso))}` : '');
  const n = (text: string) => markdownText(maskNumbersIn(text, revealed));
  /** A fact's value in its table cell: on one line. */
  const cellOf = (text: string) => markdownCell(maskNumbersIn(text, revealed));
  const out = [`# Conversation ${m(r.id)}`, ''];
  const facts: Array<[string, string]> = [
    ['Started', r.started_at && when(r.started_at, true)],
    ['Duration', r.in_progress ? 'in progress' : r.total_duration === null ? '' : durationWords(r.total_duration)],
    ['Turns', String(r.num_turns)],
    ['Channel', r.channel],
    ['Environment', r.environment],
    ['Variant', r.variant_name || r.variant_id],
    ['Handoff', r.handoff ? `${r.handoff_destination} (${r.handoff_reason})` : 'no'],
  ];
  out.push('| | |', '|---|---|', ...facts.map(([k, v]) => `| ${k} | ${cellOf(v)} |`), '');
  out.push(`_Times of day in ${m(timeZone)}._`, '');
  if (r.turns.length === 0)
    out.push(r.num_turns > 0 ? '_Transcript visibility is off for this project._' : '_No turns._', '');
  r.turns.forEach((t, i) => {
    const flags = [
      t.barge_in ? 'barge-in' : '',
      t.is_silence ? 'silence' : '',
      t.is_ood ? 'out of domain' : '',
      t.latency !== undefined ? `latency ${t.latency} ms` : '',
    ].filter(Boolean);
    out.push(`## Turn ${i + 1}${flags.length ? ` (${flags.join(', ')})` : ''}`, '');
    if (t.user_input || t.user_input_dtmf)
      out.push(`**User**${at(t.user_input_datetime)}: ${m(t.user_input || `keypad ${t.user_input_dtmf}`)}`, '');
    if (t.translated_user_input) out.push(`_User, translated:_ ${m(t.translated_user_input)}`, '');
    if (t.agent_response) out.push(`**Agent**${at(t.agent_response_datetime)}: ${m(t.agent_response)}`, '');
    if (t.english_agent_response) out.push(`_Agent, in English:_ ${m(t.english_agent_response)}`, '');
    if (t.intents.length) out.push(`Intents: ${m(t.intents.join(', '))}`, '');
    const entities = entitiesOf(t.entities);
    if (entities.length) out.push(`Entities: ${m(entities.map((e) => `${e.name}=${e.value}`).join(', '))}`, '');
  });
  const metrics = Object.entries(r.metrics);
  out.push(
    '## Metrics',
    '',
    ...(metrics.length
      ? [
          ...metrics.map(
            ([k, v]) =>
              `- ${m(metricName(k))}: ${m(metricText(k, maskNumbersIn(valueText(v), revealed), { ...clock, timeZone }))}`,
          ),
        ]
      : ['_No response metrics are enabled._']),
    '',
  );
  const state = Object.entries(r.state);
  if (state.length) out.push('## State', '', ...state.map(([k, v]) => `- ${m(k)}: ${n(valueText(v))}`), '');
  return out.join('\n');
}
