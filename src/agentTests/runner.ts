import type { ChatCreateReply, ChatCreateRequest, ChatRespondReply, ChatRespondRequest } from '../contract/chat';
import { type Answer, type CheckFailure, checkAnswer } from './checks';
import { type Criterion, hasChecks, isJudged, NO_CHECKS, type TestCase, type TextRange, turnChecks } from './format';
import {
  addSpend,
  type CaseModelCalls,
  criterionResult,
  criterionStatus,
  judge,
  NO_SPEND,
  RunJudging,
  type RunModel,
} from './judging';
import type { ConversationLine, CriterionOutcome, CriterionResult, ModelSpend, ScenarioStop } from './model/types';
import { type CallerEnd, playCaller, stopWords } from './simulated';

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
    }
  | { readonly skip: string };

export interface TurnResult {
  readonly index: number;
  /** Undefined for the greeting. */
  readonly user?: string;
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
}

export interface RunListener {
  caseStarted?(testCase: TestCase): void;
  runFinished?(testCase: TestCase, run: CaseRun): void;
  caseFinished?(result: CaseResult): void;
}

export interface RunOptions {
  /** The Chat API that reaches the case's agent, or why the case is skipped. */
  target(testCase: TestCase): CaseTarget | Promise<CaseTarget>;
  /** How many conversations are open at once, at most. */
  concurrency: number;
  /** Runs each case this many times instead of its own `repeat:`. */
  repeat?: number;
  signal?: AbortSignal;
  listener?: RunListener;
  /**
   * The model that judges criteria and plays simulated callers, or why none is set and how to set one. Without
   * one, judged criteria are skipped with that reason, simulated cases are not run, and no judged case passes.
   */
  model?: RunModel;
}

/** What the cases of a run spent on models, added up. */
export function totalSpend(results: readonly CaseResult[]): ModelSpend {
  return addSpend(results.map((r) => r.spend));
}

/** How long closing a conversation may take once a run is over or cancelled. */
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * Runs cases, each as many times as it repeats, at most `concurrency` conversations at a time. A platform error
 * fails that run and the others go on; cancelling stops sending and closes every open conversation. A case that
 * checks nothing is skipped, never passed.
 */
export async function runCases(cases: readonly TestCase[], options: RunOptions): Promise<CaseResult[]> {
  // Without a signal nothing can cancel the run: its calls then carry none (each would cost a listener).
  const signal = options.signal;
  const results: CaseResult[] = new Array<CaseResult>(cases.length);
  const judging = new RunJudging(options.model);
  type Entry = {
    runs: CaseRun[];
    left: number;
    started: number;
    target: CaseTarget;
    skip?: string;
    calls?: CaseModelCalls;
  };
  // One promise per case, made on its first job: the jobs of its repeats share it, whichever worker runs them.
  const pending = new Map<number, Promise<Entry>>();
  const jobs: { index: number; testCase: TestCase; attempt: number }[] = [];
  for (const [index, testCase] of cases.entries()) {
    const times = options.repeat ?? testCase.repeat;
    for (let attempt = 1; attempt <= times; attempt++) jobs.push({ index, testCase, attempt });
  }

  const finish = (index: number, result: CaseResult) => {
    results[index] = result;
    options.listener?.caseFinished?.(result);
  };

  const targetOf = (index: number, testCase: TestCase): Promise<Entry> => {
    let entry = pending.get(index);
    if (!entry) {
      options.listener?.caseStarted?.(testCase);
      const started = performance.now();
      entry = Promise.resolve()
        // A case that checks nothing would pass whatever the agent said: it is skipped with what to add.
        .then(() => {
          const unrunnable = hasChecks(testCase) ? notRunnable(testCase, judging) : NO_CHECKS;
          return unrunnable !== undefined ? { skip: unrunnable } : options.target(testCase);
        })
        .catch((err: unknown): CaseTarget => ({ skip: messageOf(err) }))
        .then((target): Entry => {
          const calls = isJudged(testCase) ? judging.forCase(`${testCase.file} › ${testCase.name}`) : undefined;
          return { runs: [], left: options.repeat ?? testCase.repeat, started, target, ...(calls ? { calls } : {}) };
        });
      pending.set(index, entry);
    }
    return entry;
  };

  // One queue for all workers: each takes the next job when it is free.
  const queue = jobs.values();
  const worker = async () => {
    for (const { index, testCase, attempt } of queue) {
      const entry = await targetOf(index, testCase);
      if ('skip' in entry.target) {
        if (attempt === 1) finish(index, skipped(testCase, entry.target.skip));
        continue;
      }
      // Once the target has said it lacks what the case names, its other repeats are not sent either.
      const run =
        signal?.aborted || entry.skip !== undefined
          ? cancelledRun(attempt)
          : await runOnce(testCase, attempt, entry.target.chat, { judging, calls: entry.calls }, signal);
      if (run.skip !== undefined) entry.skip ??= run.skip;
      entry.runs.push(run);
      options.listener?.runFinished?.(testCase, run);
      if (--entry.left === 0)
        finish(
          index,
          entry.skip !== undefined
            ? skipped(testCase, entry.skip)
            : summarize(testCase, entry.runs, entry.started, entry.target.note, entry.calls?.spent()),
        );
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, jobs.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}

/** Why a case is not run at all: it needs a model for everything it checks, and none can be asked. */
function notRunnable(testCase: TestCase, judging: RunJudging): string | undefined {
  const unavailable = judging.noModel ?? judging.capReached;
  if (unavailable === undefined || !isJudged(testCase)) return undefined;
  if (testCase.scenario !== undefined) return `the simulated caller needs a model: ${unavailable}`;
  if (!testCase.turns.some((t) => turnChecks(t.checks))) return `every check is judged: ${unavailable}`;
  return undefined;
}

/** The model side of one run: the run's state (no model, the cap) and the case's door, when a model is set. */
interface RunModelUse {
  readonly judging: RunJudging;
  readonly calls: CaseModelCalls | undefined;
}

/**
 * One conversation: create, a respond per user turn (or per simulated caller message), and close unless the agent
 * ended it. A turn's `expect:` is judged as soon as its answer is in, while the conversation goes on.
 */
async function runOnce(
  testCase: TestCase,
  attempt: number,
  chat: ChatConversations,
  model: RunModelUse,
  signal: AbortSignal | undefined,
): Promise<CaseRun> {
  const started = performance.now();
  const transcript: string[] = [];
  const turns: TurnResult[] = [];
  const conversation: ConversationLine[] = [];
  const judged: Promise<CriterionResult>[] = [];
  /** The turns' judgements, by turn index: put on their turn results once they are in. */
  const turnJudged = new Map<number, Promise<CriterionResult>[]>();
  let conversationId: string | undefined;
  let ended = false;
  let error: string | undefined;
  let skip: string | undefined;
  let caller: CallerEnd | undefined;
  const judgeNow = (criterion: Criterion, scope: CriterionResult['scope'], turnIndex?: number) => {
    const input = { criterion, scope, ...(turnIndex !== undefined ? { turnIndex } : {}) };
    const why = model.judging.noModel ?? model.judging.capReached;
    const promise =
      model.calls === undefined || why !== undefined
        ? Promise.resolve(criterionResult(input, { kind: 'skipped', reason: why ?? 'no model is set' }))
        : judge(model.calls, { ...input, file: testCase.file, conversation: conversation.slice() }, signal);
    judged.push(promise);
    return promise;
  };
  const judgeTurn = (index: number) => {
    const expect = testCase.turns[index]?.expect;
    if (expect && expect.length > 0)
      turnJudged.set(
        index,
        expect.map((c) => judgeNow(c, 'turn', index)),
      );
  };
  /** Sends one user message, records the answer in the transcript and the conversation, and returns it. */
  const send = async (id: string, message: string, metadata?: Readonly<Record<string, unknown>>) => {
    transcript.push(`user: ${message}`);
    conversation.push({ turn: conversation.length + 1, role: 'user', text: message });
    const sentAt = performance.now();
    const reply = await chat.respond(
      {
        conversation_id: id,
        message,
        ...(metadata ? { metadata: { ...metadata } } : {}),
        ...(testCase.asrLangCode ? { asr_lang_code: testCase.asrLangCode } : {}),
        ...(testCase.ttsLangCode ? { tts_lang_code: testCase.ttsLangCode } : {}),
      },
      signal,
    );
    const answer: Answer = {
      response: reply.response,
      endConversation: reply.end_conversation,
      ...(reply.handoff ? { handoff: reply.handoff } : {}),
      latencyMs: performance.now() - sentAt,
    };
    transcript.push(`agent: ${reply.response}`);
    if (reply.handoff)
      transcript.push(`  (handoff to ${reply.handoff.destination ?? '?'}: ${reply.handoff.reason ?? ''})`);
    if (reply.end_conversation) transcript.push('  (the agent ended the conversation)');
    conversation.push({
      turn: conversation.length + 1,
      role: 'agent',
      text: reply.response,
      ...(reply.handoff ? { handoff: reply.handoff } : {}),
      ...(reply.end_conversation ? { ended: true } : {}),
    });
    ended = reply.end_conversation;
    return answer;
  };
  try {
    const createdAt = performance.now();
    const created = await chat.create(
      {
        ...(testCase.variant !== undefined ? { variant_id: testCase.variant } : {}),
        ...(testCase.integrationAttributes ? { integration_attributes: { ...testCase.integrationAttributes } } : {}),
      },
      // No signal: a create the platform carried out but whose answer was dropped on cancel would leave a
      // conversation open that nothing knows the id of. Once its answer is in, it is closed below.
    );
    const latencyMs = performance.now() - createdAt;
    const id = created.conversation_id;
    conversationId = id;
    transcript.push(`agent: ${created.response}`);
    conversation.push({ turn: 1, role: 'agent', text: created.response });
    const greeting: Answer = { response: created.response, endConversation: false, latencyMs };
    if (testCase.scenario && model.calls) {
      const calls = model.calls;
      caller = await playCaller(
        testCase.file,
        testCase.scenario,
        calls,
        conversation,
        async (message) => {
          const answer = await send(id, message);
          turns.push({
            index: turns.length,
            user: message,
            answer,
            failures: [],
            range: testCase.scenario?.range ?? testCase.range,
          });
          return answer;
        },
        signal,
      );
      transcript.push(
        `  (the simulated caller stopped: ${stopWords(caller.stop)}${caller.reason ? `: ${caller.reason}` : ''})`,
      );
    }
    for (const [index, turn] of testCase.turns.entries()) {
      if (turn.user === undefined) {
        turns.push({ index, answer: greeting, failures: checkAnswer(turn.checks, greeting), range: turn.range });
        judgeTurn(index);
        continue;
      }
      if (ended) {
        error = `The agent ended the conversation before turn ${index + 1}; the turns after it were not sent.`;
        break;
      }
      if (signal?.aborted) break;
      const answer = await send(id, turn.user, turn.metadata);
      turns.push({ index, user: turn.user, answer, failures: checkAnswer(turn.checks, answer), range: turn.range });
      judgeTurn(index);
    }
  } catch (err) {
    if (conversationId === undefined && testCase.variant !== undefined && refusesVariant(err))
      skip = `the target has no variant ${testCase.variant} (${messageOf(err)})`;
    else if (!signal?.aborted) error = messageOf(err);
  } finally {
    if (conversationId !== undefined && !ended) {
      try {
        // Closed with a signal of its own: a cancelled run still closes what it opened.
        await chat.close(conversationId, AbortSignal.timeout(CLOSE_TIMEOUT_MS));
      } catch (err) {
        transcript.push(`  (the conversation could not be closed: ${messageOf(err)})`);
      }
    }
  }
  const stop: ScenarioStop | undefined =
    testCase.scenario === undefined ? undefined : error !== undefined ? 'error' : (caller?.stop ?? 'cancelled');
  const cancelled =
    signal?.aborted === true &&
    error === undefined &&
    (testCase.scenario ? stop === 'cancelled' : turns.length < testCase.turns.length);
  // Judged on the whole conversation, once it is over; not judged when it did not finish.
  const notJudged: CriterionOutcome | undefined =
    skip !== undefined || cancelled
      ? { kind: 'skipped', reason: 'cancelled' }
      : error !== undefined
        ? { kind: 'skipped', reason: `the conversation did not finish: ${error}` }
        : caller?.failure;
  const whole = (criteria: readonly Criterion[] | undefined, scope: CriterionResult['scope']) => {
    for (const c of criteria ?? [])
      if (notJudged) judged.push(Promise.resolve(criterionResult({ criterion: c, scope }, notJudged)));
      else judgeNow(c, scope);
  };
  // The turns not reached keep their criteria, not judged, so that each is reported.
  for (const [index, turn] of testCase.turns.entries())
    if (!turnJudged.has(index) && turn.expect)
      judged.push(
        ...turn.expect.map((c) =>
          Promise.resolve(
            criterionResult(
              { criterion: c, scope: 'turn', turnIndex: index },
              { kind: 'skipped', reason: cancelled ? 'cancelled' : 'the turn was not reached' },
            ),
          ),
        ),
      );
  whole(testCase.scenario?.success, 'success');
  whole(testCase.criteria, 'case');
  const criteria = await Promise.all(judged);
  for (const [i, turn] of turns.entries()) {
    const mine = turnJudged.get(turn.index);
    if (mine) turns[i] = { ...turn, criteria: await Promise.all(mine) };
  }
  if (error) transcript.push(`  (${error})`);
  const status: RunStatus = cancelled ? 'cancelled' : runStatus(turns, error, criteria);
  return {
    attempt,
    passed: status === 'passed',
    cancelled,
    status,
    turns,
    criteria,
    conversation,
    ...(stop !== undefined ? { stop } : {}),
    ...(caller?.reason !== undefined ? { stopReason: caller.reason } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(conversationId !== undefined ? { conversationId } : {}),
    durationMs: performance.now() - started,
    transcript,
    ...(skip !== undefined ? { skip } : {}),
  };
}

/** A run passes only when every check holds and every criterion is judged a pass. */
function runStatus(
  turns: readonly TurnResult[],
  error: string | undefined,
  criteria: readonly CriterionResult[],
): Exclude<RunStatus, 'cancelled'> {
  if (error !== undefined || turns.some((t) => t.failures.length > 0)) return 'failed';
  const statuses = new Set(criteria.map((c) => criterionStatus(c.outcome)));
  if (statuses.has('failed')) return 'failed';
  if (statuses.has('errored')) return 'errored';
  if (statuses.has('unjudged')) return 'unjudged';
  return 'passed';
}

/**
 * A create refused because of its variant: a 400 that names `variant_id` (as a field of the error or of its body) or
 * speaks of the variant (the Chat API takes a variant only on create; the spec shows no list of a project's
 * variants, so the refusal is how a run learns the target lacks one). Read from the error's fields, whatever client
 * threw it.
 */
function refusesVariant(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { status, fieldErrors, body, serverMessage } = err as {
    status?: unknown;
    fieldErrors?: unknown;
    body?: unknown;
    serverMessage?: unknown;
  };
  if (status !== 400) return false;
  const named = (v: unknown) =>
    typeof v === 'object' && v !== null && (v as { field?: unknown }).field === 'variant_id';
  return (
    (Array.isArray(fieldErrors) && fieldErrors.some(named)) ||
    named(body) ||
    (typeof serverMessage === 'string' && /variant/i.test(serverMessage))
  );
}

function summarize(
  testCase: TestCase,
  runs: CaseRun[],
  started: number,
  note: string | undefined,
  spend: ModelSpend | undefined,
): CaseResult {
  runs.sort((a, b) => a.attempt - b.attempt);
  const finished = runs.filter((r) => !r.cancelled);
  const passed = finished.filter((r) => r.passed).length;
  const passRate = finished.length === 0 ? 0 : passed / finished.length;
  const cancelled = finished.length < runs.length;
  const some = (status: RunStatus) => finished.some((r) => r.status === status);
  // Short of the rate: a failed run fails the case; else an unusable judgement makes it errored; else its
  // criteria were not judged, and it is skipped with which and why: never passed.
  const outcome: CaseOutcome = cancelled
    ? 'cancelled'
    : passRate >= testCase.requiredPassRate && finished.length > 0
      ? 'passed'
      : some('failed')
        ? 'failed'
        : some('errored')
          ? 'errored'
          : 'skipped';
  const skipReason = outcome === 'skipped' ? unjudgedReason(finished) : undefined;
  return {
    testCase,
    outcome,
    runs,
    passRate,
    flaky: passed > 0 && passed < finished.length,
    ...(note !== undefined ? { note } : {}),
    ...(skipReason !== undefined ? { skipReason } : {}),
    durationMs: performance.now() - started,
    spend: spend ?? NO_SPEND,
  };
}

/** Which criteria were not judged, and why: the reason of the first. */
function unjudgedReason(runs: readonly CaseRun[]): string {
  const skipped = runs.flatMap((r) => r.criteria).filter((c) => c.outcome.kind === 'skipped');
  const texts = [...new Set(skipped.map((c) => `"${c.text}"`))];
  const first = skipped[0]?.outcome;
  const why = first?.kind === 'skipped' ? first.reason : 'not judged';
  return `the scripted checks held, but ${texts.length === 1 ? 'the criterion' : `${texts.length} criteria`} ${texts.join(', ')} ${texts.length === 1 ? 'was' : 'were'} not judged: ${why}`;
}

function skipped(testCase: TestCase, reason: string): CaseResult {
  return {
    testCase,
    outcome: 'skipped',
    runs: [],
    passRate: 0,
    flaky: false,
    skipReason: reason,
    durationMs: 0,
    spend: NO_SPEND,
  };
}

function cancelledRun(attempt: number): CaseRun {
  return {
    attempt,
    passed: false,
    cancelled: true,
    status: 'cancelled',
    turns: [],
    criteria: [],
    conversation: [],
    durationMs: 0,
    transcript: [],
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
