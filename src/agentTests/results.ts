/** What a run of conversation tests gives back: per case, per run, per turn and per judged criterion. */
import type { ChatCreateReply, ChatCreateRequest, ChatRespondReply, ChatRespondRequest } from '../contract/chat';
import type { Answer, CheckFailure } from './checks';
import type { TestCase, TextRange } from './format';
import type { ConversationLine, CriterionResult, ModelSpend, ScenarioStop } from './model/types';
import type { RecordReach } from './records/fetch';
import type { LatencyDistribution, RecordCheckResult } from './records/types';
import type { TurnPerturbation } from './perturb/turns';

/** The Chat API as the runner uses it: the client's ChatClient, or anything answering the same way. */
export interface ChatConversations {
  create(request: ChatCreateRequest, signal?: AbortSignal): Promise<ChatCreateReply>;
  respond(request: ChatRespondRequest, signal?: AbortSignal): Promise<ChatRespondReply>;
  close(conversationId: string, signal?: AbortSignal): Promise<unknown>;
}

/** Where a case runs, or why it does not. */
export type CaseTarget =
  | {
      readonly chat: ChatConversations;
      /** Said in the result when the keys reach another agent than the one the case names. */
      readonly note?: string;
      /** Where the records of its conversations are read, for record checks (or why they cannot be). */
      readonly records?: RecordReach;
    }
  | { readonly skip: string };

export interface TurnResult {
  readonly index: number;
  /** Undefined for the greeting. The words sent: reworded when `perturb:` applies (`perturbation` has the written). */
  readonly user?: string;
  readonly perturbation?: TurnPerturbation;
  readonly answer?: Answer;
  readonly failures: readonly CheckFailure[];
  /** The turn's `expect:` as judged (also in the run's `criteria`). */
  readonly criteria?: readonly CriterionResult[];
  readonly range: TextRange;
}

/** What a run's checks and criteria make of it: `unjudged` when its checks held but criteria were not judged. */
export type RunStatus = 'passed' | 'failed' | 'errored' | 'unjudged' | 'cancelled';

/** One run of a case (a case with `repeat: N` has N). */
export interface CaseRun {
  readonly attempt: number;
  readonly passed: boolean;
  readonly cancelled: boolean;
  readonly turns: readonly TurnResult[];
  /** The platform's message when a call failed, or why turns were not sent. */
  readonly error?: string;
  readonly conversationId?: string;
  readonly durationMs: number;
  /** The conversation as it happened, one line per message. */
  readonly transcript: readonly string[];
  /** Why the case cannot run against this target (a variant the target does not have): the case is skipped. */
  readonly skip?: string;
  readonly status: RunStatus;
  /** Every judged criterion of the run: the turns' `expect:`, a scenario's `success:`, the case's `criteria:`. */
  readonly criteria: readonly CriterionResult[];
  /** The conversation as the judge read it, numbered as its quotes are. */
  readonly conversation: readonly ConversationLine[];
  /** Why a simulated conversation stopped, and in what words. */
  readonly stop?: ScenarioStop;
  readonly stopReason?: string;
  /** The case's checks on the conversation record, each passed, failed or not checked. */
  readonly records?: readonly RecordCheckResult[];
  /** The seed of the case's `perturb:` in this run (the written seed plus the run's number less one). */
  readonly perturbSeed?: number;
}

/**
 * `errored`: nothing failed, but a criterion's judgement could not be used (a quote not in the conversation, an
 * unreadable or unsure verdict): neither passed nor failed, as the Testing view's errored state.
 */
export type CaseOutcome = 'passed' | 'failed' | 'errored' | 'skipped' | 'cancelled';

export interface CaseResult {
  readonly testCase: TestCase;
  readonly outcome: CaseOutcome;
  readonly runs: readonly CaseRun[];
  /** Passed runs over finished runs, 0 to 1. */
  readonly passRate: number;
  /** Some runs passed and some failed. */
  readonly flaky: boolean;
  readonly skipReason?: string;
  readonly note?: string;
  readonly durationMs: number;
  /** What the case's model calls spent, over all its runs. */
  readonly spend: ModelSpend;
  /** The answer latencies of each turn with a `p95_latency_ms:`, over every run. */
  readonly latency?: readonly LatencyDistribution[];
}
