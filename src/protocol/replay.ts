import {
  type Guard,
  hasFields,
  isArrayOf,
  isNumber,
  isOneOf,
  isOptional,
  isRecord,
  isString,
  isTagged,
} from './envelope';

/**
 * The replay panel's messages and view models: a recorded conversation's user turns sent again to
 * the agent through the Chat API, the recorded and the new answer of each turn side by side, with
 * the words that differ marked. All text is rendered as text.
 */

export const DIFF_KINDS = ['same', 'added', 'removed'] as const;
export type DiffKind = (typeof DIFF_KINDS)[number];
export interface DiffPart {
  kind: DiffKind;
  text: string;
}

export const TURN_STATES = ['waiting', 'sending', 'done', 'failed', 'skipped', 'cancelled'] as const;
export type TurnState = (typeof TURN_STATES)[number];

export interface ReplayTurn {
  /** 0 is the greeting (sent by starting the conversation); then each user turn in order. */
  index: number;
  /** The recorded turn's number as the transcript shows it (the greeting is turn 1); absent for a greeting not recorded. */
  turn?: number;
  /** What the user said (empty for the greeting and for silence). */
  user: string;
  recorded: string;
  replayed?: string;
  state: TurnState;
  /** Why the turn failed or was skipped. */
  error?: string;
  /** The recorded answer against the new one, word by word (when both are known). */
  diff?: DiffPart[];
  /** The new answer is the same as the recorded one. */
  same?: boolean;
  /** Nothing was recorded to compare with (a recording that starts with the user has no greeting). */
  uncompared?: boolean;
}

export const REPLAY_STATES = ['loading', 'running', 'done', 'cancelled', 'failed'] as const;
export type ReplayState = (typeof REPLAY_STATES)[number];

export interface ReplayView {
  state: ReplayState;
  conversationId: string;
  /** The recorded conversation: when, where, which variant. */
  source: string;
  /** Where the turns are sent: the Chat API's agent and the variant. */
  target: string;
  /** The variant the turns are sent to (none: the connector's default). */
  variantId?: string;
  turns: ReplayTurn[];
  /** What happened overall (failed to load, cancelled, how many turns differ). */
  message?: string;
  /** The conversation the replay started. */
  newConversationId?: string;
}

export type ReplayNotification = { type: 'view'; view: ReplayView };

export type ReplayCommand = { type: 'cancel' } | { type: 'again' } | { type: 'problem'; message: string };

// ---- guards ----

const isDiffPart: Guard<DiffPart> = (v): v is DiffPart =>
  hasFields<DiffPart>(v, { kind: isOneOf(DIFF_KINDS), text: isString });

const isTurn: Guard<ReplayTurn> = (v): v is ReplayTurn =>
  hasFields<ReplayTurn>(v, {
    index: isNumber,
    turn: isOptional(isNumber),
    user: isString,
    recorded: isString,
    replayed: isOptional(isString),
    state: isOneOf(TURN_STATES),
    error: isOptional(isString),
    diff: isOptional(isArrayOf(isDiffPart)),
    same: isOptional((x): x is boolean => typeof x === 'boolean'),
    uncompared: isOptional((x): x is boolean => typeof x === 'boolean'),
  });

export const isReplayView: Guard<ReplayView> = (v): v is ReplayView =>
  hasFields<ReplayView>(v, {
    state: isOneOf(REPLAY_STATES),
    conversationId: isString,
    source: isString,
    target: isString,
    variantId: isOptional(isString),
    turns: isArrayOf(isTurn),
    message: isOptional(isString),
    newConversationId: isOptional(isString),
  });

export const isReplayCommand: Guard<ReplayCommand> = isTagged<ReplayCommand>({
  cancel: (v): v is Extract<ReplayCommand, { type: 'cancel' }> => isRecord(v),
  again: (v): v is Extract<ReplayCommand, { type: 'again' }> => isRecord(v),
  problem: (v): v is Extract<ReplayCommand, { type: 'problem' }> =>
    isRecord(v) && isString(v.message) && v.message.length <= 4_096,
});
