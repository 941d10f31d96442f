import type { ChatCreateReply, ChatCreateRequest, ChatRespondReply, ChatRespondRequest } from '../contract/chat';
import { type Answer, type CheckFailure, checkAnswer } from './checks';
import { hasChecks, NO_CHECKS, type TestCase, type TextRange } from './format';

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
  readonly range: TextRange;
}

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
}

export type CaseOutcome = 'passed' | 'failed' | 'skipped' | 'cancelled';

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
  type Entry = { runs: CaseRun[]; left: number; started: number; target: CaseTarget; skip?: string };
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
        .then(() => (hasChecks(testCase) ? options.target(testCase) : { skip: NO_CHECKS }))
        .catch((err: unknown): CaseTarget => ({ skip: messageOf(err) }))
        .then((target) => ({ runs: [], left: options.repeat ?? testCase.repeat, started, target }));
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
          : await runOnce(testCase, attempt, entry.target.chat, signal);
      if (run.skip !== undefined) entry.skip ??= run.skip;
      entry.runs.push(run);
      options.listener?.runFinished?.(testCase, run);
      if (--entry.left === 0)
        finish(
          index,
          entry.skip !== undefined
            ? skipped(testCase, entry.skip)
            : summarize(testCase, entry.runs, entry.started, entry.target.note),
        );
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, jobs.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}

/** One conversation: create, a respond per user turn, and close unless the agent ended it. */
async function runOnce(
  testCase: TestCase,
  attempt: number,
  chat: ChatConversations,
  signal: AbortSignal | undefined,
): Promise<CaseRun> {
  const started = performance.now();
  const transcript: string[] = [];
  const turns: TurnResult[] = [];
  let conversationId: string | undefined;
  let ended = false;
  let error: string | undefined;
  let skip: string | undefined;
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
    conversationId = created.conversation_id;
    transcript.push(`agent: ${created.response}`);
    const greeting: Answer = { response: created.response, endConversation: false, latencyMs };
    for (const [index, turn] of testCase.turns.entries()) {
      if (turn.user === undefined) {
        turns.push({ index, answer: greeting, failures: checkAnswer(turn.checks, greeting), range: turn.range });
        continue;
      }
      if (ended) {
        error = `The agent ended the conversation before turn ${index + 1}; the turns after it were not sent.`;
        break;
      }
      if (signal?.aborted) break;
      transcript.push(`user: ${turn.user}`);
      const sentAt = performance.now();
      const reply = await chat.respond(
        {
          conversation_id: created.conversation_id,
          message: turn.user,
          ...(turn.metadata ? { metadata: { ...turn.metadata } } : {}),
          ...(testCase.asrLangCode ? { asr_lang_code: testCase.asrLangCode } : {}),
          ...(testCase.ttsLangCode ? { tts_lang_code: testCase.ttsLangCode } : {}),
        },
        signal,
      );
      const took = performance.now() - sentAt;
      const answer: Answer = {
        response: reply.response,
        endConversation: reply.end_conversation,
        ...(reply.handoff ? { handoff: reply.handoff } : {}),
        latencyMs: took,
      };
      transcript.push(`agent: ${reply.response}`);
      if (reply.handoff)
        transcript.push(`  (handoff to ${reply.handoff.destination ?? '?'}: ${reply.handoff.reason ?? ''})`);
      if (reply.end_conversation) transcript.push('  (the agent ended the conversation)');
      ended = reply.end_conversation;
      turns.push({ index, user: turn.user, answer, failures: checkAnswer(turn.checks, answer), range: turn.range });
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
  const cancelled = signal?.aborted === true && turns.length < testCase.turns.length && error === undefined;
  if (error) transcript.push(`  (${error})`);
  return {
    attempt,
    passed: !cancelled && error === undefined && turns.every((t) => t.failures.length === 0),
    cancelled,
    turns,
    ...(error !== undefined ? { error } : {}),
    ...(conversationId !== undefined ? { conversationId } : {}),
    durationMs: performance.now() - started,
    transcript,
    ...(skip !== undefined ? { skip } : {}),
  };
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

function summarize(testCase: TestCase, runs: CaseRun[], started: number, note: string | undefined): CaseResult {
  runs.sort((a, b) => a.attempt - b.attempt);
  const finished = runs.filter((r) => !r.cancelled);
  const passed = finished.filter((r) => r.passed).length;
  const passRate = finished.length === 0 ? 0 : passed / finished.length;
  const cancelled = finished.length < runs.length;
  const outcome: CaseOutcome = cancelled ? 'cancelled' : passRate >= testCase.requiredPassRate ? 'passed' : 'failed';
  return {
    testCase,
    outcome,
    runs,
    passRate,
    flaky: passed > 0 && passed < finished.length,
    ...(note !== undefined ? { note } : {}),
    durationMs: performance.now() - started,
  };
}

function skipped(testCase: TestCase, reason: string): CaseResult {
  return { testCase, outcome: 'skipped', runs: [], passRate: 0, flaky: false, skipReason: reason, durationMs: 0 };
}

function cancelledRun(attempt: number): CaseRun {
  return { attempt, passed: false, cancelled: true, turns: [], durationMs: 0, transcript: [] };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
