import {
  type Guard,
  hasFields,
  isArrayOf,
  isBoolean,
  isJsonObject,
  isNumber,
  isOneOf,
  isOptional,
  isRecord,
  isString,
  isTagged,
  type RequestOf,
  type ResultGuards,
} from './envelope';

/**
 * The chat panel's messages and view models. The host turns platform events into these; the
 * webview renders them as text and never sees a platform shape, a key or a token.
 */

export const CHAT_MODES = ['messaging', 'chatApi'] as const;
export type ChatMode = (typeof CHAT_MODES)[number];

/** What the conversation is with, as the person picked it (agent, branch or environment of the tree, or none). */
export interface ChatTarget {
  label: string;
  agentId?: string;
  branchId?: string;
  environment?: string;
}

/** What the chat talks to, shown above it: the agent, its project, the environment and the version served there. */
export interface ChatHeader {
  agent: string;
  project: string;
  environment: string;
  /** The deployment's version served there, when known. */
  version?: string;
  /** Said under it: a newer push not yet published, or why the agent cannot be told. */
  note?: string;
}

/** Everything a session is started with; Restart starts a new one with the same. */
export interface ChatSettings {
  mode: ChatMode;
  /** Messaging: answers arrive in chunks. */
  streaming: boolean;
  /** Chat API: the variant, fixed at create. */
  variantId?: string;
  /** Chat API: integration attributes sent at create. */
  integrationAttributes?: Record<string, unknown>;
  /** Chat API: language codes sent with each message. */
  asrLanguage?: string;
  ttsLanguage?: string;
  target: ChatTarget;
}

export const LINE_ROLES = ['user', 'agent', 'liveAgent', 'system', 'notice'] as const;
export type LineRole = (typeof LINE_ROLES)[number];

/** What a one-click fix does (the spec's client action of a system error, or an expired session). */
export const FIX_KINDS = [
  'resend',
  'edit',
  'join',
  'newSession',
  'restart',
  'handoff',
  'settings',
  /** Read the event this answer came as as the agent's answers from now on (a setting). */
  'useAnswerName',
  /** Start the local platform again (it stopped under the chat); the chat then starts a new session by itself. */
  'startLocalPlatform',
] as const;
export type FixKind = (typeof FIX_KINDS)[number];
export interface Fix {
  kind: FixKind;
  /** The button's words. */
  label: string;
}

/** One line of the conversation. `streaming` while chunks arrive; agent text is always shown as text. */
export interface ChatLine {
  id: string;
  role: LineRole;
  text: string;
  /** ISO time it arrived or was sent. */
  time: string;
  streaming?: boolean;
  interrupted?: boolean;
  error?: boolean;
  /** The custom metadata sent with a user message, or echoed back with an agent event. */
  custom?: Record<string, unknown>;
  /** Who spoke, for live agents. */
  speaker?: string;
  /** A word beside who spoke: where a sent message stands ("not confirmed"), or the event an answer came as. */
  note?: string;
  fix?: Fix;
}

/** One event as the inspector shows it: its JSON, its time, and for an answer the turn's latency. */
export interface InspectorEntry {
  seq: number;
  time: string;
  direction: 'in' | 'out' | 'note';
  label: string;
  json: string;
  latencyMs?: number;
  /** An event the client does not recognize: shown, never dropped. */
  unrecognized?: boolean;
}

export const CHAT_STATES = [
  'idle',
  'connecting',
  'open',
  'reconnecting',
  'ended',
  'expired',
  'closed',
  'failed',
] as const;
export type ChatState = (typeof CHAT_STATES)[number];

export interface ChatStatus {
  state: ChatState;
  /** What the person is told about the connection, e.g. "Reconnected from position 12". */
  text: string;
  conversationId?: string;
  agentTyping: boolean;
  /** Handed off to a person: where to. */
  handoff?: string;
  canSend: boolean;
}

/** The whole panel at once: sent after `ready`, and kept as the webview's state for restore. */
export interface ChatSnapshot {
  settings: ChatSettings;
  lines: ChatLine[];
  inspector: InspectorEntry[];
  status: ChatStatus;
}

// ---- host -> webview notifications ----

export type ChatNotification =
  | { type: 'snapshot'; snapshot: ChatSnapshot; ackPaint?: boolean }
  /** A new line, or a new version of one (streamed text grows): replaces the line with the same id. */
  | { type: 'line'; line: ChatLine; rev: number }
  | { type: 'inspector'; entry: InspectorEntry }
  | { type: 'status'; status: ChatStatus }
  /** Puts text back into the message box (the fix of a malformed message). */
  | { type: 'draft'; text: string }
  /** What was made in one turn of the host's event loop, in order, in one message (a line only in its newest version). */
  | { type: 'batch'; notifications: ChatNotification[] }
  /** Scrolls the conversation to its first or last line; with ackPaint, told back as a paint of version 0 once laid out. */
  | { type: 'scroll'; to: 'top' | 'bottom' }
  /** What the chat talks to (agent, project, environment, version), again whenever it changes. */
  | { type: 'header'; header: ChatHeader };

// ---- webview -> host commands ----

export type ChatCommand =
  | { type: 'send'; text: string; custom?: Record<string, unknown> }
  | { type: 'typing'; typing: boolean }
  | { type: 'handoff'; reason?: string }
  | { type: 'endSession' }
  | { type: 'restart'; settings?: ChatSettings }
  | { type: 'fix'; lineId: string }
  /** Send an External Event into this conversation (a simulated payment or booking result). */
  | { type: 'sendExternalEvent' }
  /** Opens the conversation in the transcript viewer. */
  | { type: 'openTranscript' }
  /** Makes a conversation test of the conversation (Save as Test). */
  | { type: 'saveAsTest' }
  /**
   * The webview had each line version `rev` (0 for a snapshot) in its page at `at` (ms since the epoch,
   * sub-millisecond, read with epochClock so the extension host can compare it with its own), and now holds `elements` line elements; only when the snapshot asked with ackPaint.
   * Told in batches, so that telling does not slow what it measures.
   */
  | { type: 'painted'; paints: Array<{ rev: number; at: number; inPage?: number }>; elements: number }
  /** Something failed in the webview: written to the extension's log. */
  | { type: 'problem'; message: string };

// ---- webview -> host requests, each with its answer ----

export type ChatRequests = {
  save: { args: object; result: { file?: string } };
  copyConversationId: { args: object; result: { conversationId?: string } };
};
export type ChatRequestName = keyof ChatRequests;
export type ChatRequest = RequestOf<ChatRequests>;

// ---- guards ----

const isTarget: Guard<ChatTarget> = (v): v is ChatTarget =>
  hasFields<ChatTarget>(v, {
    label: isString,
    agentId: isOptional(isString),
    branchId: isOptional(isString),
    environment: isOptional(isString),
  });

const isChatHeader: Guard<ChatHeader> = (v): v is ChatHeader =>
  hasFields<ChatHeader>(v, {
    agent: isString,
    project: isString,
    environment: isString,
    version: isOptional(isString),
    note: isOptional(isString),
  });

export const isChatSettings: Guard<ChatSettings> = (v): v is ChatSettings =>
  hasFields<ChatSettings>(v, {
    mode: isOneOf(CHAT_MODES),
    streaming: isBoolean,
    variantId: isOptional(isString),
    integrationAttributes: isOptional(isJsonObject),
    asrLanguage: isOptional(isString),
    ttsLanguage: isOptional(isString),
    target: isTarget,
  });

const isFix: Guard<Fix> = (v): v is Fix => hasFields<Fix>(v, { kind: isOneOf(FIX_KINDS), label: isString });

export const isChatLine: Guard<ChatLine> = (v): v is ChatLine =>
  hasFields<ChatLine>(v, {
    id: isString,
    role: isOneOf(LINE_ROLES),
    text: isString,
    time: isString,
    streaming: isOptional(isBoolean),
    interrupted: isOptional(isBoolean),
    error: isOptional(isBoolean),
    custom: isOptional(isJsonObject),
    speaker: isOptional(isString),
    note: isOptional(isString),
    fix: isOptional(isFix),
  });

export const isInspectorEntry: Guard<InspectorEntry> = (v): v is InspectorEntry =>
  hasFields<InspectorEntry>(v, {
    seq: isNumber,
    time: isString,
    direction: isOneOf(['in', 'out', 'note'] as const),
    label: isString,
    json: isString,
    latencyMs: isOptional(isNumber),
    unrecognized: isOptional(isBoolean),
  });

export const isChatStatus: Guard<ChatStatus> = (v): v is ChatStatus =>
  hasFields<ChatStatus>(v, {
    state: isOneOf(CHAT_STATES),
    text: isString,
    conversationId: isOptional(isString),
    agentTyping: isBoolean,
    handoff: isOptional(isString),
    canSend: isBoolean,
  });

export const isChatSnapshot: Guard<ChatSnapshot> = (v): v is ChatSnapshot =>
  hasFields<ChatSnapshot>(v, {
    settings: isChatSettings,
    lines: isArrayOf(isChatLine),
    inspector: isArrayOf(isInspectorEntry),
    status: isChatStatus,
  });

export const isChatNotification: Guard<ChatNotification> = isTagged<ChatNotification>({
  snapshot: (v): v is Extract<ChatNotification, { type: 'snapshot' }> =>
    isRecord(v) && isChatSnapshot(v.snapshot) && isOptional(isBoolean)(v.ackPaint),
  line: (v): v is Extract<ChatNotification, { type: 'line' }> => isRecord(v) && isChatLine(v.line) && isNumber(v.rev),
  inspector: (v): v is Extract<ChatNotification, { type: 'inspector' }> => isRecord(v) && isInspectorEntry(v.entry),
  status: (v): v is Extract<ChatNotification, { type: 'status' }> => isRecord(v) && isChatStatus(v.status),
  draft: (v): v is Extract<ChatNotification, { type: 'draft' }> => isRecord(v) && isString(v.text),
  batch: (v): v is Extract<ChatNotification, { type: 'batch' }> =>
    isRecord(v) && isArrayOf(isChatNotification)(v.notifications),
  scroll: (v): v is Extract<ChatNotification, { type: 'scroll' }> =>
    isRecord(v) && isOneOf(['top', 'bottom'] as const)(v.to),
  header: (v): v is Extract<ChatNotification, { type: 'header' }> => isRecord(v) && isChatHeader(v.header),
});

/** Longest text accepted from the webview; the clients check the platform's own limits after this. */
const TEXT_MAX = 16_384;
const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= TEXT_MAX;

const isPaint = (v: unknown): v is { rev: number; at: number; inPage?: number } =>
  isRecord(v) && isNumber(v.rev) && isNumber(v.at) && isOptional(isNumber)(v.inPage);

export const isChatCommand: Guard<ChatCommand> = isTagged<ChatCommand>({
  send: (v): v is Extract<ChatCommand, { type: 'send' }> =>
    isRecord(v) && isText(v.text) && isOptional(isJsonObject)(v.custom),
  typing: (v): v is Extract<ChatCommand, { type: 'typing' }> => isRecord(v) && isBoolean(v.typing),
  handoff: (v): v is Extract<ChatCommand, { type: 'handoff' }> => isRecord(v) && isOptional(isText)(v.reason),
  endSession: (v): v is Extract<ChatCommand, { type: 'endSession' }> => isRecord(v),
  restart: (v): v is Extract<ChatCommand, { type: 'restart' }> => isRecord(v) && isOptional(isChatSettings)(v.settings),
  fix: (v): v is Extract<ChatCommand, { type: 'fix' }> => isRecord(v) && isString(v.lineId),
  sendExternalEvent: (v): v is Extract<ChatCommand, { type: 'sendExternalEvent' }> => isRecord(v),
  openTranscript: (v): v is Extract<ChatCommand, { type: 'openTranscript' }> => isRecord(v),
  saveAsTest: (v): v is Extract<ChatCommand, { type: 'saveAsTest' }> => isRecord(v),
  problem: (v): v is Extract<ChatCommand, { type: 'problem' }> => isRecord(v) && isText(v.message),
  painted: (v): v is Extract<ChatCommand, { type: 'painted' }> =>
    isRecord(v) && isArrayOf(isPaint)(v.paints) && isNumber(v.elements),
});

/** The answers to the webview's requests. */
export const isSaveResult: Guard<ChatRequests['save']['result']> = (v): v is ChatRequests['save']['result'] =>
  isRecord(v) && isOptional(isString)(v.file);
export const isCopyResult: Guard<ChatRequests['copyConversationId']['result']> = (
  v,
): v is ChatRequests['copyConversationId']['result'] => isRecord(v) && isOptional(isString)(v.conversationId);

/** The guard of each request's answer, by the request's name. */
export const CHAT_RESULTS: ResultGuards<ChatRequests> = { save: isSaveResult, copyConversationId: isCopyResult };

export const isChatRequest: Guard<ChatRequest> = isTagged<ChatRequest>({
  save: (v): v is Extract<ChatRequest, { type: 'save' }> => isRecord(v),
  copyConversationId: (v): v is Extract<ChatRequest, { type: 'copyConversationId' }> => isRecord(v),
});
