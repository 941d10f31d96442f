import {
  type Guard,
  hasFields,
  isArrayOf,
  isBoolean,
  isNumber,
  isOneOf,
  isOptional,
  isRecord,
  isString,
  isTagged,
  type RequestOf,
  type ResultGuards,
} from './envelope';
import { isCopyResult, isSaveResult } from './chat';

/**
 * The transcript viewer's messages and view models: a list of conversations with its filters, and one
 * conversation's detail. The host turns platform records into these; the webview renders every string
 * as text and never sees a key. Numbers are masked by the host until the person reveals them.
 */

export const RANGE_PRESETS = ['lastHour', 'last24Hours', 'last7Days', 'last30Days', 'anyTime', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const FILTER_ENVIRONMENTS = ['live', 'sandbox', 'pre-release'] as const;
export const PROGRESS = ['any', 'inProgress', 'finished'] as const;
export const SEARCH_TYPES = ['transcript', 'semantic'] as const;
export const TURN_SIDES = ['both', 'user', 'agent'] as const;
export const SORT_ORDERS = ['newest', 'oldest'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The list's filters as the person set them; the host turns them into a query. */
export interface ConversationFilters {
  range: RangePreset;
  /** With `custom`: ISO 8601 instants (a date alone is midnight UTC). */
  start?: string;
  end?: string;
  environment: (typeof FILTER_ENVIRONMENTS)[number];
  channels: string[];
  /** A variant id or name, as `variantBy` says. */
  variant?: string;
  variantBy: 'id' | 'name';
  progress: (typeof PROGRESS)[number];
  /** Search text; empty for no search. */
  search?: string;
  searchType: (typeof SEARCH_TYPES)[number];
  /** Transcript search: which side of the turns to search. */
  turnType: (typeof TURN_SIDES)[number];
  /** A random sample instead of every conversation. */
  sample: boolean;
  /** The order of the rows; absent is the platform's own (oldest first). Open Conversations starts newest first. */
  sort?: SortOrder;
}

export const DEFAULT_FILTERS: ConversationFilters = {
  range: 'anyTime',
  environment: 'live',
  channels: [],
  variantBy: 'name',
  progress: 'any',
  searchType: 'transcript',
  turnType: 'both',
  sample: false,
};

/** A piece of a search snippet: text, marked where it matched. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

/** Where a search matched in a conversation: a short piece of the turn around the match. */
export interface SearchSnippet {
  /** The turn's number, from 1. */
  turn: number;
  who: 'user' | 'agent';
  parts: SnippetPart[];
}

/** One row of the list. `from` and `to` are masked unless the person revealed numbers. */
export interface ConversationRow {
  id: string;
  startedAt: string;
  /** Seconds; absent while not known (in progress). */
  durationS?: number;
  turns: number;
  channel: string;
  handoff: boolean;
  handoffTo: string;
  from: string;
  to: string;
  variant: string;
  inProgress: boolean;
  /** A conversation test run of this editor made it (the platform's record does not say; the editor remembers). */
  testRun?: boolean;
  /** With a search: the text that matched, when the words are found in a turn. */
  snippet?: SearchSnippet;
}

export interface ListStatus {
  loading: boolean;
  /** More pages follow: scrolling near the end loads the next. */
  more: boolean;
  /** What the person is told: how many are shown, what is loading. */
  text: string;
  /** A failure or a filter to fix, in words. */
  error?: string;
  revealed: boolean;
}

/** Whose conversations: the agent or environment the list was opened from. */
export interface TranscriptTarget {
  label: string;
  agentId?: string;
}

export interface ListSnapshot {
  target: TranscriptTarget;
  filters: ConversationFilters;
  rows: ConversationRow[];
  status: ListStatus;
}

export interface NameValue {
  name: string;
  value: string;
}

/** One turn of the timeline. Text fields are "" when empty. */
export interface TurnView {
  n: number;
  user: string;
  dtmf: string;
  userTime: string;
  agent: string;
  agentTime: string;
  latencyMs?: number;
  bargeIn: boolean;
  silence: boolean;
  ood: boolean;
  intents: string[];
  entities: NameValue[];
  translatedUser: string;
  englishAgent: string;
}

export interface ConversationDetail {
  row: ConversationRow;
  environment: string;
  turns: TurnView[];
  /** Why there are no turns (transcript visibility off, or none yet), or "". */
  turnsNote: string;
  metrics: NameValue[];
  /** Why there are no metrics (none enabled), or "". */
  metricsNote: string;
  state: NameValue[];
  handoff?: { destination: string; reason: string };
  /** The longest latency of the turns, which the bars are drawn against. */
  maxLatencyMs: number;
  agentId?: string;
  /** When the record was read (ISO); a conversation in progress is read again every few seconds. */
  readAt: string;
}

export interface DetailStatus {
  text: string;
  error?: string;
  loading: boolean;
  revealed: boolean;
}

/** The turns Find matched, and the turns shown: each match with the turns around it. */
export interface FindResult {
  query: string;
  matches: number[];
  shown: number[];
}

/** One conversation: in a panel of its own, or beside the list in the list's panel. */
export interface DetailSnapshot {
  kind: 'detail';
  conversationId: string;
  detail?: ConversationDetail;
  status: DetailStatus;
  find?: FindResult;
  /** The turn (from 1) to show first, when the conversation was opened at one. */
  turn?: number;
}

export type TranscriptsSnapshot =
  /** The list, with the conversation opened from it when one is (shown beside the rows, in the same page). */
  { kind: 'list'; list: ListSnapshot; detail?: DetailSnapshot } | DetailSnapshot;

// ---- host -> webview ----

export type TranscriptsNotification =
  | { type: 'snapshot'; snapshot: TranscriptsSnapshot; ackPaint?: boolean; seq: number }
  /** More rows at the end of the list (the next page). */
  | { type: 'rows'; rows: ConversationRow[]; seq: number }
  | { type: 'listStatus'; status: ListStatus }
  | { type: 'detail'; detail: ConversationDetail; seq: number }
  | { type: 'detailStatus'; status: DetailStatus }
  | { type: 'found'; find: FindResult | undefined }
  /** The conversation beside the list was closed. */
  | { type: 'detailClosed' };

// ---- webview -> host ----

export type TranscriptsCommand =
  | { type: 'filters'; filters: ConversationFilters }
  | { type: 'more' }
  | { type: 'reveal'; revealed: boolean }
  /** A row opened: beside the list in its page, or with `toSide` in a panel of its own. */
  | { type: 'open'; conversationId: string; toSide?: boolean }
  /**
   * The conversation beside the list: closed, or opened in a panel of its own as well. These and the commands of a
   * conversation below name the one the page shows: beside the list, a command sent as another row replaced it is
   * not carried out on the new one.
   */
  | { type: 'closeDetail'; conversationId?: string }
  | { type: 'openToSide'; conversationId?: string }
  | { type: 'find'; text: string; conversationId?: string }
  | { type: 'openAgent'; conversationId?: string }
  | { type: 'replay'; conversationId?: string }
  /** Makes a conversation test of the conversation (Save as Test). */
  | { type: 'createTest'; conversationId?: string }
  /** The list read again from its first page. */
  | { type: 'refresh' }
  /** The conversation read again. */
  | { type: 'refreshDetail'; conversationId?: string }
  /** Each change `seq` (0 for a snapshot) was in the page at `at` (epoch ms); the page holds `elements` rows or turns. */
  | { type: 'painted'; paints: Array<{ seq: number; at: number }>; elements: number }
  | { type: 'problem'; message: string };

export const EXPORT_FORMATS = ['json', 'markdown'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type TranscriptsRequests = {
  export: { args: { format: ExportFormat; conversationId?: string }; result: { file?: string } };
  copyId: { args: { conversationId?: string }; result: { conversationId?: string } };
};
export type TranscriptsRequest = RequestOf<TranscriptsRequests>;

// ---- guards ----

const TEXT_MAX = 4_096;
const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= TEXT_MAX;

export const isConversationFilters: Guard<ConversationFilters> = (v): v is ConversationFilters =>
  hasFields<ConversationFilters>(v, {
    range: isOneOf(RANGE_PRESETS),
    start: isOptional(isText),
    end: isOptional(isText),
    environment: isOneOf(FILTER_ENVIRONMENTS),
    channels: (c): c is string[] => isArrayOf(isText)(c) && c.length <= 20,
    variant: isOptional(isText),
    variantBy: isOneOf(['id', 'name'] as const),
    progress: isOneOf(PROGRESS),
    search: isOptional(isText),
    searchType: isOneOf(SEARCH_TYPES),
    turnType: isOneOf(TURN_SIDES),
    sample: isBoolean,
    sort: isOptional(isOneOf(SORT_ORDERS)),
  });

const isSnippetPart: Guard<SnippetPart> = (v): v is SnippetPart =>
  hasFields<SnippetPart>(v, { text: isString, match: isBoolean });

const isSearchSnippet: Guard<SearchSnippet> = (v): v is SearchSnippet =>
  hasFields<SearchSnippet>(v, {
    turn: isNumber,
    who: isOneOf(['user', 'agent'] as const),
    parts: isArrayOf(isSnippetPart),
  });

export const isConversationRow: Guard<ConversationRow> = (v): v is ConversationRow =>
  hasFields<ConversationRow>(v, {
    id: isString,
    startedAt: isString,
    durationS: isOptional(isNumber),
    turns: isNumber,
    channel: isString,
    handoff: isBoolean,
    handoffTo: isString,
    from: isString,
    to: isString,
    variant: isString,
    inProgress: isBoolean,
    testRun: isOptional(isBoolean),
    snippet: isOptional(isSearchSnippet),
  });

const isListStatus: Guard<ListStatus> = (v): v is ListStatus =>
  hasFields<ListStatus>(v, {
    loading: isBoolean,
    more: isBoolean,
    text: isString,
    error: isOptional(isString),
    revealed: isBoolean,
  });

const isNameValue: Guard<NameValue> = (v): v is NameValue =>
  hasFields<NameValue>(v, { name: isString, value: isString });

const isTurnView: Guard<TurnView> = (v): v is TurnView =>
  hasFields<TurnView>(v, {
    n: isNumber,
    user: isString,
    dtmf: isString,
    userTime: isString,
    agent: isString,
    agentTime: isString,
    latencyMs: isOptional(isNumber),
    bargeIn: isBoolean,
    silence: isBoolean,
    ood: isBoolean,
    intents: isArrayOf(isString),
    entities: isArrayOf(isNameValue),
    translatedUser: isString,
    englishAgent: isString,
  });

export const isConversationDetail: Guard<ConversationDetail> = (v): v is ConversationDetail =>
  hasFields<ConversationDetail>(v, {
    row: isConversationRow,
    environment: isString,
    turns: isArrayOf(isTurnView),
    turnsNote: isString,
    metrics: isArrayOf(isNameValue),
    metricsNote: isString,
    state: isArrayOf(isNameValue),
    handoff: isOptional((h): h is { destination: string; reason: string } =>
      hasFields<{ destination: string; reason: string }>(h, { destination: isString, reason: isString }),
    ),
    maxLatencyMs: isNumber,
    agentId: isOptional(isString),
    readAt: isString,
  });

const isDetailStatus: Guard<DetailStatus> = (v): v is DetailStatus =>
  hasFields<DetailStatus>(v, { text: isString, error: isOptional(isString), loading: isBoolean, revealed: isBoolean });

const isFindResult: Guard<FindResult> = (v): v is FindResult =>
  hasFields<FindResult>(v, { query: isString, matches: isArrayOf(isNumber), shown: isArrayOf(isNumber) });

const isTarget: Guard<TranscriptTarget> = (v): v is TranscriptTarget =>
  hasFields<TranscriptTarget>(v, { label: isString, agentId: isOptional(isString) });

const isDetailSnapshot: Guard<DetailSnapshot> = (v): v is DetailSnapshot =>
  isRecord(v) &&
  v.kind === 'detail' &&
  isString(v.conversationId) &&
  isOptional(isConversationDetail)(v.detail) &&
  isDetailStatus(v.status) &&
  isOptional(isFindResult)(v.find) &&
  isOptional(isNumber)(v.turn);

export const isTranscriptsSnapshot: Guard<TranscriptsSnapshot> = (v): v is TranscriptsSnapshot => {
  if (!isRecord(v)) return false;
  if (v.kind === 'list')
    return (
      isRecord(v.list) &&
      isTarget(v.list.target) &&
      isConversationFilters(v.list.filters) &&
      isArrayOf(isConversationRow)(v.list.rows) &&
      isListStatus(v.list.status) &&
      isOptional(isDetailSnapshot)(v.detail)
    );
  return isDetailSnapshot(v);
};

type N<K extends TranscriptsNotification['type']> = Extract<TranscriptsNotification, { type: K }>;
export const isTranscriptsNotification: Guard<TranscriptsNotification> = isTagged<TranscriptsNotification>({
  snapshot: (v): v is N<'snapshot'> =>
    isRecord(v) && isTranscriptsSnapshot(v.snapshot) && isOptional(isBoolean)(v.ackPaint) && isNumber(v.seq),
  rows: (v): v is N<'rows'> => isRecord(v) && isArrayOf(isConversationRow)(v.rows) && isNumber(v.seq),
  listStatus: (v): v is N<'listStatus'> => isRecord(v) && isListStatus(v.status),
  detail: (v): v is N<'detail'> => isRecord(v) && isConversationDetail(v.detail) && isNumber(v.seq),
  detailStatus: (v): v is N<'detailStatus'> => isRecord(v) && isDetailStatus(v.status),
  found: (v): v is N<'found'> => isRecord(v) && isOptional(isFindResult)(v.find),
  detailClosed: (v): v is N<'detailClosed'> => isRecord(v),
});

const isPaint = (v: unknown): v is { seq: number; at: number } => isRecord(v) && isNumber(v.seq) && isNumber(v.at);

type C<K extends TranscriptsCommand['type']> = Extract<TranscriptsCommand, { type: K }>;
/** A command or request of a conversation names it, or not (older pages). */
const names = (v: Record<string, unknown>): boolean => isOptional(isText)(v.conversationId);
export const isTranscriptsCommand: Guard<TranscriptsCommand> = isTagged<TranscriptsCommand>({
  filters: (v): v is C<'filters'> => isRecord(v) && isConversationFilters(v.filters),
  more: (v): v is C<'more'> => isRecord(v),
  reveal: (v): v is C<'reveal'> => isRecord(v) && isBoolean(v.revealed),
  open: (v): v is C<'open'> => isRecord(v) && isText(v.conversationId) && isOptional(isBoolean)(v.toSide),
  closeDetail: (v): v is C<'closeDetail'> => isRecord(v) && names(v),
  openToSide: (v): v is C<'openToSide'> => isRecord(v) && names(v),
  find: (v): v is C<'find'> => isRecord(v) && isText(v.text) && names(v),
  openAgent: (v): v is C<'openAgent'> => isRecord(v) && names(v),
  replay: (v): v is C<'replay'> => isRecord(v) && names(v),
  createTest: (v): v is C<'createTest'> => isRecord(v) && names(v),
  refresh: (v): v is C<'refresh'> => isRecord(v),
  refreshDetail: (v): v is C<'refreshDetail'> => isRecord(v) && names(v),
  painted: (v): v is C<'painted'> => isRecord(v) && isArrayOf(isPaint)(v.paints) && isNumber(v.elements),
  problem: (v): v is C<'problem'> => isRecord(v) && isText(v.message),
});

export const isTranscriptsRequest: Guard<TranscriptsRequest> = isTagged<TranscriptsRequest>({
  export: (v): v is Extract<TranscriptsRequest, { type: 'export' }> =>
    isRecord(v) && isOneOf(EXPORT_FORMATS)(v.format) && names(v),
  copyId: (v): v is Extract<TranscriptsRequest, { type: 'copyId' }> => isRecord(v) && names(v),
});

/** The answers to export and copy: a file saved (relative to the workspace) and an id copied. */
export const TRANSCRIPTS_RESULTS: ResultGuards<TranscriptsRequests> = { export: isSaveResult, copyId: isCopyResult };
