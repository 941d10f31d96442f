/**
 * Judged criteria of a run: the model calls of each case (counted, stopped at the cap), a criterion judged into a
 * result that never throws, and what a criterion's outcome means for its case.
 */
import type { Criterion } from './format';
import { judgeCriterion } from './model/judge';
import {
  CassetteMissError,
  type ConversationLine,
  type CriterionOutcome,
  type CriterionResult,
  type ModelCallReply,
  type ModelCalls,
  ModelCallError,
  ModelCapError,
  type ModelMessage,
  type ModelPurpose,
  type ModelSpend,
} from './model/types';

/** The model of a run: its calls, or why none is set and how to set one (said in every skipped result). */
export type RunModel = { readonly calls: ModelCalls } | { readonly none: string };

/** Said when the run was given no model at all. */
export const NO_MODEL =
  'no model is set for judged criteria: choose one in the editor (the agentWorkbench.tests.model settings), or on the command line give --model-base-url and --model';

export const NO_SPEND: ModelSpend = { calls: 0, replayed: 0, inputTokens: 0, outputTokens: 0 };

/** The model calls of one run of the whole suite: shared by its cases, it remembers the cap once reached. */
export class RunJudging {
  private cap?: { readonly message: string; readonly where: string };

  constructor(private readonly model: RunModel | undefined) {}

  /** Why nothing is judged in this run, or undefined when a model is set. */
  get noModel(): string | undefined {
    if (this.model === undefined) return NO_MODEL;
    return 'none' in this.model ? this.model.none : undefined;
  }

  /** Once a call was refused by the cap: what it said and where the run stopped asking the model. */
  get capReached(): string | undefined {
    return this.cap && `${this.cap.message}; the run stopped asking the model at ${this.cap.where}`;
  }

  /** A door for one case (`where`: the case as reports name it). Undefined when no model is set. */
  forCase(where: string): CaseModelCalls | undefined {
    if (this.model === undefined || !('calls' in this.model)) return undefined;
    const calls = this.model.calls;
    // A door that counts a case's share itself (modelCalls.ts) knows each call's cost: its count is the case's.
    const scoped =
      'scope' in calls && typeof calls.scope === 'function' ? (calls.scope as () => ModelCalls)() : undefined;
    return new CaseModelCalls(scoped ?? calls, this, where, scoped !== undefined);
  }

  /** Called by a case's door when the cap refused its call: the first one says where the run stopped. */
  reachedCap(message: string, where: string): string {
    this.cap ??= { message, where };
    return this.capReached ?? message;
  }
}

/** The run's model calls as one case makes them: counted for the case, refused once the run reached its cap. */
export class CaseModelCalls implements ModelCalls {
  private spend: { -readonly [K in keyof ModelSpend]: ModelSpend[K] } = { ...NO_SPEND };
  private priced = true;

  constructor(
    private readonly inner: ModelCalls,
    private readonly run: RunJudging,
    private readonly where: string,
    private readonly counts: boolean = false,
  ) {}

  get modelId(): string {
    return this.inner.modelId;
  }

  get mode() {
    return this.inner.mode;
  }

  async call(
    purpose: ModelPurpose,
    file: string,
    messages: readonly ModelMessage[],
    signal?: AbortSignal,
  ): Promise<ModelCallReply> {
    const capped = this.run.capReached;
    if (capped !== undefined) throw new ModelCapError(capped);
    let reply: ModelCallReply;
    try {
      reply = await this.inner.call(purpose, file, messages, signal);
    } catch (err) {
      if (err instanceof ModelCapError) throw new ModelCapError(this.run.reachedCap(err.message, this.where));
      throw err;
    }
    const s = this.spend;
    if (reply.replayed) s.replayed++;
    else s.calls++;
    s.inputTokens += reply.usage?.inputTokens ?? 0;
    s.outputTokens += reply.usage?.outputTokens ?? 0;
    if (reply.cost !== undefined) s.cost = (s.cost ?? 0) + reply.cost;
    else if (!reply.replayed) this.priced = false;
    return reply;
  }

  spent(): ModelSpend {
    if (this.counts) return this.inner.spent();
    const { cost, ...counts } = this.spend;
    // A cost is said only when every call that cost something had a price (replayed calls cost nothing).
    return this.priced ? { ...counts, cost: cost ?? 0 } : counts;
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }
}

/** Everything the judge is told of one criterion. */
export interface CriterionToJudge {
  readonly file: string;
  readonly criterion: Criterion;
  readonly scope: CriterionResult['scope'];
  readonly turnIndex?: number;
  readonly conversation: readonly ConversationLine[];
}

/** A criterion judged, or why it could not be: never throws, never passes without a verdict of pass. */
export async function judge(
  calls: CaseModelCalls,
  input: CriterionToJudge,
  signal: AbortSignal | undefined,
): Promise<CriterionResult> {
  let outcome: CriterionOutcome;
  if (signal?.aborted) outcome = { kind: 'skipped', reason: 'cancelled' };
  else
    try {
      outcome = await judgeCriterion(
        calls,
        {
          file: input.file,
          criterion: { text: input.criterion.text },
          scope: input.scope,
          ...(input.turnIndex !== undefined ? { turnIndex: input.turnIndex } : {}),
          conversation: input.conversation,
        },
        signal,
      );
    } catch (err) {
      outcome = modelOutcome(err, signal);
    }
  return criterionResult(input, outcome);
}

export function criterionResult(
  input: Omit<CriterionToJudge, 'conversation' | 'file'>,
  outcome: CriterionOutcome,
): CriterionResult {
  return {
    text: input.criterion.text,
    scope: input.scope,
    ...(input.turnIndex !== undefined ? { turnIndex: input.turnIndex } : {}),
    range: input.criterion.range,
    outcome,
  };
}

/** What a failed model call makes of the criteria that needed it: what happened and what to do. */
export function modelOutcome(err: unknown, signal?: AbortSignal): Exclude<CriterionOutcome, { kind: 'judged' }> {
  if (err instanceof ModelCapError) return { kind: 'skipped', reason: err.message };
  if (err instanceof CassetteMissError)
    return {
      kind: 'error',
      message: `${err.message}: record it again with --cassette record (or the setting's record mode), which calls the model`,
      cassetteMiss: true,
    };
  if (signal?.aborted || (err instanceof ModelCallError && err.kind === 'cancelled'))
    return { kind: 'skipped', reason: 'cancelled' };
  if (err instanceof ModelCallError)
    return {
      kind: 'error',
      message: `the model call failed: ${err.message}; ${WHAT_TO_DO[err.kind]}`,
      modelFailure: true,
    };
  return {
    kind: 'error',
    message: `the model call failed: ${err instanceof Error ? err.message : String(err)}`,
    modelFailure: true,
  };
}

const WHAT_TO_DO: Record<ModelCallError['kind'], string> = {
  unreachable: 'check that the model endpoint is running and that its base URL is right, then run again',
  timeout: 'the model was too slow: run again, or choose a faster model',
  'rate-limited': 'the endpoint limits calls: wait and run again, or run fewer cases at a time (--concurrency)',
  refused: "check the model's name and the key (AGENT_WORKBENCH_MODEL_KEY on the command line)",
  unreadable: 'the endpoint did not answer as an OpenAI-compatible chat completion: check its base URL (ending in /v1)',
  cancelled: 'run again',
  other: 'run again; if it happens again, check the model endpoint',
};

/**
 * What a criterion's outcome makes of its case: `failed` (a fail verdict, a model failure, a cassette miss),
 * `errored` (the judge's answer unusable, or unsure), `unjudged` (skipped), or `passed`.
 */
export function criterionStatus(outcome: CriterionOutcome): 'passed' | 'failed' | 'errored' | 'unjudged' {
  switch (outcome.kind) {
    case 'judged':
      return outcome.verdict === 'pass' ? 'passed' : outcome.verdict === 'fail' ? 'failed' : 'errored';
    case 'error':
      return outcome.cassetteMiss || outcome.modelFailure ? 'failed' : 'errored';
    case 'skipped':
      return 'unjudged';
  }
}

/** The spends of several cases or runs, added up; a cost only when each has one. */
export function addSpend(spends: readonly ModelSpend[]): ModelSpend {
  let cost: number | undefined = 0;
  const total = { ...NO_SPEND };
  for (const s of spends) {
    total.calls += s.calls;
    total.replayed += s.replayed;
    total.inputTokens += s.inputTokens;
    total.outputTokens += s.outputTokens;
    cost = cost !== undefined && (s.cost !== undefined || s.calls === 0) ? cost + (s.cost ?? 0) : undefined;
  }
  return cost !== undefined ? { ...total, cost } : total;
}
