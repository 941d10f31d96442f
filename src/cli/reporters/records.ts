import type { TestCase, TestFileProblem } from '../../agentTests/format';
import { failureLines } from '../../agentTests/report';
import type { CriterionResult, ModelSpend, ScenarioStop } from '../../agentTests/model/types';
import type { LatencyDistribution, RecordCheckResult } from '../../agentTests/records/types';
import type { TurnPerturbation } from '../../agentTests/perturb/turns';
import type { RunStatus, TurnResult } from '../../agentTests/results';
import type { CaseOutcome, CaseResult, CaseRun } from '../../agentTests/runner';
import { caseIdentity, type Shard } from '../shard';

/**
 * The JSON reporter's lines, one object each (docs/testing-agents.md, "The JSON report"): a `problem` per problem of
 * a test file, a `case` per case in the order of the files, then one `summary`. Fields are only ever added, never
 * renamed or removed, and `version` says which of these shapes a line has.
 */
export const REPORT_VERSION = 1;

export interface ProblemRecord {
  readonly type: 'problem';
  readonly version: number;
  readonly file: string;
  /** From 1. */
  readonly line: number;
  readonly column: number;
  readonly severity: TestFileProblem['severity'];
  readonly message: string;
}

export interface CheckRecord {
  /** The turn, from 1, and the line of the test file it is written at, from 1. */
  readonly turn: number;
  readonly line: number;
  readonly check: string;
  readonly message: string;
  readonly expected: string;
  readonly actual: string;
  /** A perturbed turn's words as sent and as written, and the seed that sends them again. */
  readonly perturbation?: PerturbationRecord;
}

export interface PerturbationRecord {
  readonly sent: string;
  readonly written: string;
  readonly seed: number;
  readonly applied: readonly string[];
}

export interface RunRecord {
  readonly attempt: number;
  readonly passed: boolean;
  readonly cancelled: boolean;
  readonly durationMs: number;
  readonly conversationId?: string;
  readonly error?: string;
  readonly skip?: string;
  readonly failures: readonly CheckRecord[];
  readonly transcript: readonly string[];
  /** What the run's checks and criteria made of it. */
  readonly status: RunStatus;
  /** Each judged criterion with its verdict, reason and quotes (or why it was not judged). */
  readonly criteria: readonly CriterionResult[];
  /** Why a simulated caller's conversation stopped. */
  readonly stop?: ScenarioStop;
  readonly stopReason?: string;
  /** Each check on the conversation record: passed, failed, or not checked and why. */
  readonly records?: readonly RecordCheckResult[];
  /** The seed of the case's `perturb:` in this run, and each perturbed turn's words (from 1). */
  readonly perturbSeed?: number;
  readonly perturbed?: readonly (PerturbationRecord & { readonly turn: number })[];
}

export interface CaseRecord {
  readonly type: 'case';
  readonly version: number;
  /** The case's identity (its file and name), the key that shards and merges cases. */
  readonly id: string;
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly agent?: string;
  readonly tags: readonly string[];
  readonly outcome: CaseOutcome;
  readonly passRate: number;
  readonly requiredPassRate: number;
  readonly flaky: boolean;
  readonly durationMs: number;
  readonly skipReason?: string;
  readonly note?: string;
  /** What went wrong, one line each, as the line reporter prints them. */
  readonly failures: readonly string[];
  readonly runs: readonly RunRecord[];
  /** What the case spent on models: calls made, calls replayed, tokens and cost. */
  readonly spend: ModelSpend;
  /** Each turn's answer latency over the runs (p50, p95, max) against its `p95_latency_ms:`. */
  readonly latency?: readonly LatencyDistribution[];
}

export interface Counts {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  /** Cases whose judge could not decide (unsure, a quote not in the conversation): neither passed nor failed. */
  readonly errored: number;
  readonly skipped: number;
  readonly cancelled: number;
  readonly flaky: number;
  /** Errors in test files (their cases did not run). */
  readonly problems: number;
}

export interface SummaryRecord extends Counts {
  readonly type: 'summary';
  readonly version: number;
  /** The shard this run was, or the shards a merged report joins. */
  readonly shard?: Shard;
  readonly shards?: readonly Shard[];
  readonly durationMs: number;
  /** Whether the run (or the merged runs) failed: the exit code is 1. */
  readonly ok: boolean;
}

export type ReportRecord = ProblemRecord | CaseRecord | SummaryRecord;

export function problemRecord(file: string, p: TestFileProblem): ProblemRecord {
  return {
    type: 'problem',
    version: REPORT_VERSION,
    file,
    line: p.range.startLine + 1,
    column: p.range.startCharacter + 1,
    severity: p.severity,
    message: p.message,
  };
}

function runRecord(run: CaseRun): RunRecord {
  const perturbed = run.turns.flatMap((t) => {
    const { perturbation } = perturbationOf(t);
    return perturbation ? [{ turn: t.index + 1, ...perturbation }] : [];
  });
  return {
    attempt: run.attempt,
    passed: run.passed,
    cancelled: run.cancelled,
    durationMs: Math.round(run.durationMs),
    ...(run.conversationId !== undefined ? { conversationId: run.conversationId } : {}),
    ...(run.error !== undefined ? { error: run.error } : {}),
    ...(run.skip !== undefined ? { skip: run.skip } : {}),
    failures: run.turns.flatMap((t) =>
      t.failures.map((f) => ({
        turn: t.index + 1,
        line: t.range.startLine + 1,
        check: f.check,
        message: f.message,
        expected: f.expected,
        actual: f.actual,
        ...perturbationOf(t),
      })),
    ),
    transcript: run.transcript,
    status: run.status,
    criteria: run.criteria,
    ...(run.stop !== undefined ? { stop: run.stop } : {}),
    ...(run.stopReason !== undefined ? { stopReason: run.stopReason } : {}),
    ...(run.records !== undefined ? { records: run.records } : {}),
    ...(run.perturbSeed !== undefined ? { perturbSeed: run.perturbSeed } : {}),
    ...(perturbed.length > 0 ? { perturbed } : {}),
  };
}

function perturbationOf(t: TurnResult): { perturbation?: PerturbationRecord } {
  const p = t.perturbation;
  if (p === undefined) return {};
  return { perturbation: { sent: t.user ?? '', written: p.written, seed: p.seed, applied: p.applied } };
}

export function caseRecord(r: CaseResult): CaseRecord {
  const c = r.testCase;
  return {
    type: 'case',
    version: REPORT_VERSION,
    id: caseIdentity(c),
    file: c.file,
    name: c.name,
    line: c.nameRange.startLine + 1,
    ...(c.agent !== undefined ? { agent: c.agent } : {}),
    tags: c.tags,
    outcome: r.outcome,
    passRate: r.passRate,
    requiredPassRate: c.requiredPassRate,
    flaky: r.flaky,
    durationMs: Math.round(r.durationMs),
    ...(r.skipReason !== undefined ? { skipReason: r.skipReason } : {}),
    ...(r.note !== undefined ? { note: r.note } : {}),
    failures: failureLines(r),
    runs: r.runs.map(runRecord),
    spend: r.spend,
    ...(r.latency !== undefined ? { latency: r.latency } : {}),
  };
}

export function countsOf(results: readonly CaseResult[], problems: number): Counts {
  const n = (outcome: CaseOutcome) => results.filter((r) => r.outcome === outcome).length;
  return {
    total: results.length,
    passed: n('passed'),
    failed: n('failed'),
    errored: n('errored'),
    skipped: n('skipped'),
    cancelled: n('cancelled'),
    flaky: results.filter((r) => r.flaky).length,
    problems,
  };
}

/** Whether a run with these counts fails: a failed, errored or cancelled case, or an error in a test file. */
export function failing(counts: Counts): boolean {
  return counts.failed > 0 || counts.errored > 0 || counts.cancelled > 0 || counts.problems > 0;
}

const line = (n: number) => ({ startLine: n - 1, startCharacter: 0, endLine: n - 1, endCharacter: 0 });

/**
 * A case result again from its JSON line (a shard's report), with what the reporters read of it: the same JUnit,
 * Markdown and lines as the run that wrote it.
 */
export function resultOfRecord(record: CaseRecord): CaseResult {
  const testCase: TestCase = {
    file: record.file,
    name: record.name,
    ...(record.agent !== undefined ? { agent: record.agent } : {}),
    tags: record.tags,
    repeat: Math.max(1, record.runs.length),
    requiredPassRate: record.requiredPassRate,
    turns: [],
    range: line(record.line),
    nameRange: line(record.line),
  };
  const runs: CaseRun[] = record.runs.map((run) => ({
    attempt: run.attempt,
    passed: run.passed,
    cancelled: run.cancelled,
    durationMs: run.durationMs,
    ...(run.conversationId !== undefined ? { conversationId: run.conversationId } : {}),
    ...(run.error !== undefined ? { error: run.error } : {}),
    ...(run.skip !== undefined ? { skip: run.skip } : {}),
    turns: run.failures.map((f) => ({
      index: f.turn - 1,
      range: line(f.line),
      ...(f.perturbation
        ? {
            user: f.perturbation.sent,
            perturbation: {
              written: f.perturbation.written,
              seed: f.perturbation.seed,
              applied: f.perturbation.applied as TurnPerturbation['applied'],
            },
          }
        : {}),
      failures: [{ check: f.check, message: f.message, expected: f.expected, actual: f.actual, comparable: false }],
    })),
    transcript: run.transcript,
    // A report of an earlier version has neither: its runs had no criteria.
    status: run.status ?? (run.cancelled ? 'cancelled' : run.passed ? 'passed' : 'failed'),
    criteria: run.criteria ?? [],
    conversation: [],
    ...(run.stop !== undefined ? { stop: run.stop } : {}),
    ...(run.stopReason !== undefined ? { stopReason: run.stopReason } : {}),
    ...(run.records !== undefined ? { records: run.records } : {}),
    ...(run.perturbSeed !== undefined ? { perturbSeed: run.perturbSeed } : {}),
  }));
  return {
    testCase,
    outcome: record.outcome,
    runs,
    passRate: record.passRate,
    flaky: record.flaky,
    ...(record.skipReason !== undefined ? { skipReason: record.skipReason } : {}),
    ...(record.note !== undefined ? { note: record.note } : {}),
    durationMs: record.durationMs,
    spend: record.spend ?? { calls: 0, replayed: 0, inputTokens: 0, outputTokens: 0 },
    ...(record.latency !== undefined ? { latency: record.latency } : {}),
  };
}
