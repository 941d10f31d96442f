/**
 * Judged criteria and simulated callers: the language model they use, what is kept of its calls, and what a
 * judgement says. A model reaches the runner through `LanguageModel` only: the editor adapts `vscode.lm` to it
 * (src/ui/testing/), and an OpenAI-compatible endpoint is adapted here (openaiModel.ts), for the editor and the
 * command line alike.
 */
import type { TextRange } from '../format';

/** One message to a model, in the roles every chat model takes. */
export interface ModelMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** Tokens of one call, as the answer (or the model's own counter) reports them. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ModelReply {
  readonly text: string;
  /** Undefined when the endpoint reported none and nothing could count them. */
  readonly usage?: TokenUsage;
}

/** A chat model, whatever serves it. Throws `ModelCallError` when the call fails. */
export interface LanguageModel {
  /**
   * Names the model in cassette keys, prices and reports: `openai:<base URL host>/<model>` or
   * `vscode-lm:<vendor>/<family>/<version>`. Never holds a key.
   */
  readonly id: string;
  complete(messages: readonly ModelMessage[], signal?: AbortSignal): Promise<ModelReply>;
}

/** Why a model call failed, in words a person can act on; `kind` lets the runner say what to do. */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'timeout' | 'rate-limited' | 'refused' | 'unreadable' | 'cancelled' | 'other',
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

/** How model calls of a run are made: from the cassette only, calling and keeping, or calling without keeping. */
export type CassetteMode = 'replay' | 'record' | 'live';

/** What the judge answered: the verdict, why, and the exact words it relies on. */
export interface Quote {
  /** The turn, counted from 1 as the report shows it (the greeting is turn 1 when the agent greets). */
  readonly turn: number;
  readonly text: string;
}

export type Verdict = 'pass' | 'fail' | 'unsure';

/**
 * A judged criterion once the run is over. `error`: the judge's answer could not be used (a quote not in the
 * conversation, an unreadable answer, the model failed, a cassette miss): neither passed nor failed.
 * `skipped`: not judged (no model set, the cap reached, cancelled), with why.
 */
export type CriterionOutcome =
  | { readonly kind: 'judged'; readonly verdict: Verdict; readonly reason: string; readonly quotes: readonly Quote[] }
  | {
      readonly kind: 'error';
      readonly message: string;
      readonly cassetteMiss?: boolean;
      /** The model could not be asked (down, slow, rate-limited, an answer that is no chat completion): a failure. */
      readonly modelFailure?: boolean;
    }
  | { readonly kind: 'skipped'; readonly reason: string };

export interface CriterionResult {
  /** The criterion as written. */
  readonly text: string;
  /** `turn`: an `expect:` of one turn (index from 0); `case`: the case's `criteria:`; `success`: a scenario's. */
  readonly scope: 'turn' | 'case' | 'success';
  readonly turnIndex?: number;
  readonly range: TextRange;
  readonly outcome: CriterionOutcome;
  /** Whether this criterion is advisory: its judge agrees too rarely with the labels (labels.ts). */
  readonly advisory?: { readonly agreement: number; readonly labels: number; readonly kappa?: number };
  /** What a person's labels of this criterion's verdicts say of its judge, when it has labels. */
  readonly labelled?: { readonly agreement: number; readonly labels: number; readonly kappa?: number };
}

/** What a run spent on models. */
export interface ModelSpend {
  /** Calls made to the model (not those answered from the cassette). */
  readonly calls: number;
  /** Calls answered from the cassette: no cost. */
  readonly replayed: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** In the price table's currency; undefined when the model has no price. */
  readonly cost?: number;
}

/** Why a simulated conversation stopped. */
export type ScenarioStop =
  'goal-met' | 'agent-ended' | 'handoff' | 'turn-budget' | 'caller-gave-up' | 'error' | 'cancelled' | 'cap-reached';

/** The conversation as the judge and the simulated caller read it. */
export interface ConversationLine {
  /** Counted from 1, as the report shows it: each agent answer and each user message is a turn of its own. */
  readonly turn: number;
  readonly role: 'agent' | 'user';
  readonly text: string;
  readonly handoff?: { readonly destination?: string; readonly reason?: string };
  readonly ended?: boolean;
}

/** What a model call is for: in cassette keys and reports. */
export type ModelPurpose = 'judge' | 'caller';

export interface ModelCallReply extends ModelReply {
  /** Answered from the cassette: no model was called. */
  readonly replayed: boolean;
  /** What the call cost by the price table; undefined when the model has no price (0 when replayed). */
  readonly cost?: number;
}

/**
 * The one door of a run's model calls (modelCalls.ts): answers from the cassette in `replay`, calls and keeps in
 * `record`, calls in `live`; counts every call and its tokens and cost; refuses a call past the cap.
 * Throws `CassetteMissError` (replay, not recorded), `ModelCapError` (cap reached) or `ModelCallError`.
 */
export interface ModelCalls {
  readonly modelId: string;
  readonly mode: CassetteMode;
  /** `file`: the test file whose cassette keeps the call. */
  call(
    purpose: ModelPurpose,
    file: string,
    messages: readonly ModelMessage[],
    signal?: AbortSignal,
  ): Promise<ModelCallReply>;
  /** Spent so far in the run, in total. */
  spent(): ModelSpend;
  /** Writes what was recorded to the cassettes (record mode); nothing in the others. */
  flush(): Promise<void>;
}

export class CassetteMissError extends Error {
  constructor(readonly file: string) {
    super('re-record needed: the conversation or the criterion changed since the cassette was recorded');
    this.name = 'CassetteMissError';
  }
}

export class ModelCapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelCapError';
  }
}

/**
 * The functions the runner uses (judge.ts, caller.ts):
 *
 *   judgeCriterion(calls, { file, criterion, scope, turnIndex?, conversation }, signal): Promise<CriterionOutcome>
 *     asks for { verdict, reason, quotes }, checks every quote against `conversation` (a quote not there: error).
 *     A failed call (ModelCallError, CassetteMissError, ModelCapError) is thrown, not returned: the runner says
 *     what happened and what to do, and a model failure or a miss fails the criterion where a judge error does not.
 *
 *   nextCallerTurn(calls, { file, scenario, conversation }, signal):
 *     Promise<{ kind: 'say'; text: string } | { kind: 'done'; why: 'goal-met' | 'caller-gave-up'; reason: string }>
 */
export interface JudgeInput {
  readonly file: string;
  readonly criterion: { readonly text: string };
  readonly scope: CriterionResult['scope'];
  readonly turnIndex?: number;
  readonly conversation: readonly ConversationLine[];
}

export type CallerStep =
  | { readonly kind: 'say'; readonly text: string }
  | { readonly kind: 'done'; readonly why: 'goal-met' | 'caller-gave-up'; readonly reason: string };
