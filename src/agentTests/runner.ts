import type { CaseOutcome, CaseResult, CaseRun, CaseTarget, RunStatus } from './results';
import { runOnce, type RunModelUse } from './conversationRun';
import { hasChecks, isJudged, NO_CHECKS, type TestCase, turnChecks } from './format';
import { addSpend, type CaseModelCalls, NO_SPEND, RunJudging, type RunModel } from './judging';
import type { ModelSpend } from './model/types';
import { DEFAULT_RECORD_WAIT, type RecordWait } from './records/fetch';
import { latencyDistributions } from './records/latency';
import { checksRecord } from './records/check';
import { notCheckedReason, timingCreates, withRecordChecks } from './records/run';

export type { CaseOutcome, CaseResult, CaseRun, CaseTarget, ChatConversations, RunStatus, TurnResult } from './results';

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
  /** How long a run waits for its conversation's record, for record checks (20 s by default). */
  recordWait?: RecordWait;
}

/** What the cases of a run spent on models, added up. */
export function totalSpend(results: readonly CaseResult[]): ModelSpend {
  return addSpend(results.map((r) => r.spend));
}

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
      const target = entry.target;
      // Once the target has said it lacks what the case names, its other repeats are not sent either.
      const held =
        signal?.aborted || entry.skip !== undefined
          ? { run: cancelledRun(attempt) }
          : await runChecked(testCase, attempt, target, { judging, calls: entry.calls }, options, signal);
      if (held.run.skip !== undefined) entry.skip ??= held.run.skip;
      const complete = (run: CaseRun) => {
        entry.runs.push(run);
        options.listener?.runFinished?.(testCase, run);
        if (--entry.left === 0)
          finish(
            index,
            entry.skip !== undefined
              ? skipped(testCase, entry.skip)
              : summarize(testCase, entry.runs, entry.started, target.note, entry.calls?.spent()),
          );
      };
      // The record is read while the worker holds the next conversation: waiting for it holds none open.
      if (held.checked) checking.push(held.checked.then(complete));
      else complete(held.run);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, jobs.length));
  const checking: Promise<void>[] = [];
  await Promise.all(Array.from({ length: workers }, worker));
  await Promise.all(checking);
  return results;
}

/**
 * One run's conversation, and when the case checks its record, the run with its record checks once they are made
 * (records/run.ts).
 */
async function runChecked(
  testCase: TestCase,
  attempt: number,
  target: Extract<CaseTarget, { chat: unknown }>,
  model: RunModelUse,
  options: RunOptions,
  signal: AbortSignal | undefined,
): Promise<{ run: CaseRun; checked?: Promise<CaseRun> }> {
  if (!checksRecord(testCase)) return { run: await runOnce(testCase, attempt, target.chat, model, signal) };
  const timed = timingCreates(target.chat);
  const startedAt = Date.now();
  const run = await runOnce(testCase, attempt, timed.chat, model, signal);
  const createdAt = timed.createdAt();
  const window = { startedAt, endedAt: Date.now(), ...(createdAt !== undefined ? { createdAt } : {}) };
  const wait = options.recordWait ?? DEFAULT_RECORD_WAIT;
  return { run, checked: withRecordChecks(run, testCase, target.records, window, wait, signal) };
}

/** Why a case is not run at all: it needs a model for everything it checks, and none can be asked. */
function notRunnable(testCase: TestCase, judging: RunJudging): string | undefined {
  const unavailable = judging.noModel ?? judging.capReached;
  if (unavailable === undefined || !isJudged(testCase)) return undefined;
  if (testCase.scenario !== undefined) return `the simulated caller needs a model: ${unavailable}`;
  if (!testCase.turns.some((t) => turnChecks(t.checks))) return `every check is judged: ${unavailable}`;
  return undefined;
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
  const latency = latencyDistributions(testCase, finished);
  const slow = latency.some((d) => !d.passed);
  // Short of the rate: a failed run fails the case; else an unusable judgement makes it errored; else its
  // criteria were not judged, and it is skipped with which and why: never passed.
  // A turn slower than its p95 budget over the runs fails the case, whatever share of runs passed.
  const outcome: CaseOutcome = cancelled
    ? 'cancelled'
    : slow
      ? 'failed'
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
    ...(latency.length > 0 ? { latency } : {}),
  };
}

/** Which criteria were not judged and which record checks were not made, and why. */
function unjudgedReason(runs: readonly CaseRun[]): string {
  const records = notCheckedReason(runs);
  const criteria = runs.some((r) => r.criteria.some((c) => c.outcome.kind === 'skipped'))
    ? criteriaReason(runs)
    : undefined;
  if (records === undefined) return criteria ?? 'the scripted checks held, but not every check was made';
  return criteria !== undefined ? `${criteria}; ${records}` : `the scripted checks held, but ${records}`;
}

/** Which criteria were not judged, and why: the reason of the first. */
function criteriaReason(runs: readonly CaseRun[]): string {
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
