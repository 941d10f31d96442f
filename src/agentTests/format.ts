import type { RecordCaseChecks, RecordTurnChecks } from './records/types';

/**
 * Conversation tests as written in a test file (`tests/*.yaml` of an agent folder), once read and checked.
 * The file's shape is documented in docs/testing-agents.md and described for the YAML extension by
 * media/schemas/conversation-test.schema.json; parse.ts reads it into these types.
 */
import type { PerturbSpec, TurnPerturb } from './perturb/kinds';

import type { TextRange } from './textRange';

export type { TextRange } from './textRange';

/** What is wrong with a test file, and where. */
export interface TestFileProblem {
  readonly message: string;
  readonly range: TextRange;
  readonly severity: 'error' | 'warning';
}

/** `handoff:` of a turn: none at all, any, or one to a destination and/or for a reason. */
export type HandoffExpectation =
  | { readonly kind: 'none' }
  | { readonly kind: 'any' }
  | { readonly kind: 'to'; readonly destination?: string; readonly reason?: string };

/** The checks of one answer; every one that is present must hold. */
export interface AnswerChecks {
  /** Each text must appear in the answer (case-insensitive). */
  readonly contains?: readonly string[];
  /** At least one of the texts must appear. */
  readonly containsAny?: readonly string[];
  /** None of the texts may appear. */
  readonly notContains?: readonly string[];
  /** Not all of the texts may appear together. */
  readonly notContainsAll?: readonly string[];
  /** The answer must match this regular expression. */
  readonly matches?: { readonly source: string; readonly flags: string };
  readonly handoff?: HandoffExpectation;
  /** Whether the agent ends the conversation with this answer. */
  readonly end?: boolean;
  /** The most the answer may take, in milliseconds. */
  readonly maxLatencyMs?: number;
  /** The answer as once recorded: the expected side of a failing turn's diff. */
  readonly reference?: string;
}

/** A sentence in the builder's words, judged by a model against the conversation (`expect:`, `criteria:`, `success:`). */
export interface Criterion {
  readonly text: string;
  readonly range: TextRange;
}

/** One turn: the user's message (none for the greeting) and what the answer must be. */
export interface TestTurn {
  /** Undefined for the greeting: only the first turn may leave it out. */
  readonly user?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly checks: AnswerChecks;
  /** `expect:` of the turn: judged on this answer, with the conversation so far as context. */
  readonly expect?: readonly Criterion[];
  /** `intents:`, `entities:`, `ood:`, `record_latency_ms:`: checked on the conversation record (records/). */
  readonly record?: RecordTurnChecks;
  /** `p95_latency_ms:`: the 95th percentile of the answer's latency over every run of the case. */
  readonly p95LatencyMs?: number;
  /** `perturb:` of the turn: over the case's, or `false` to send the words as written. */
  readonly perturb?: TurnPerturb;
  readonly range: TextRange;
}

/** `scenario:` of a case: a model plays the caller instead of scripted turns. */
export interface Scenario {
  /** What the caller wants, in the builder's words. */
  readonly goal: string;
  readonly persona?: string;
  /** What the caller knows and says when asked (name, booking reference). */
  readonly facts?: Readonly<Record<string, string>>;
  /** The caller's first message, as written; the model writes it when absent. */
  readonly firstLine?: string;
  /** The most caller messages sent. */
  readonly maxTurns: number;
  /** Judged on the whole conversation once it stops; "goal met" is judged on these. */
  readonly success: readonly Criterion[];
  readonly range: TextRange;
}

export interface TestCase {
  /** The test file, as the run was given it. */
  readonly file: string;
  readonly name: string;
  /** The agent the case reaches: the case's own, the file's, or the folder's (agent.json). */
  readonly agent?: string;
  /** The only environment the case runs against, when it names one. */
  readonly environment?: string;
  readonly tags: readonly string[];
  readonly variant?: string;
  readonly integrationAttributes?: Readonly<Record<string, unknown>>;
  readonly asrLangCode?: string;
  readonly ttsLangCode?: string;
  readonly repeat: number;
  /** The share of runs (0 to 1) that must pass for the case to pass. */
  readonly requiredPassRate: number;
  /** Scripted turns; empty for a case with a `scenario:`. */
  readonly turns: readonly TestTurn[];
  /** `criteria:` of the case: judged on the whole conversation once it ends. */
  readonly criteria?: readonly Criterion[];
  readonly scenario?: Scenario;
  /** `state:`, `handoff_reason:`, `num_ood:`, `metrics:` ...: checked on the conversation record (records/). */
  readonly record?: RecordCaseChecks;
  /** `perturb:`: every user turn (and a simulated caller's messages) reworded as speech recognition would. */
  readonly perturb?: PerturbSpec;
  readonly range: TextRange;
  /** Where the name is written: the gutter's run button sits there. */
  readonly nameRange: TextRange;
}

/** A test file once read: the cases that could be read, and every problem found. */
export interface TestFile {
  readonly path: string;
  readonly agent?: string;
  readonly cases: readonly TestCase[];
  readonly problems: readonly TestFileProblem[];
}

/** Whether a turn checks its answer at all: `reference:` is only the expected side of a diff, not a check. */
export function turnChecks(checks: AnswerChecks): boolean {
  return Object.keys(checks).some((key) => key !== 'reference');
}

/** What a case that checks nothing is told to add, in the file and in a run: it would pass whatever the agent said. */
export const CHECKS_TO_ADD =
  'add `contains:`, `matches:`, `handoff:` or `end:` to a turn (`reference:` is only shown in a diff)';
export const NO_CHECKS = `no checks: ${CHECKS_TO_ADD}`;

/** Whether any turn of the case checks its answer; a case that checks nothing is never run as a pass. */
export function hasChecks(testCase: TestCase): boolean {
  return testCase.turns.some((t) => turnChecks(t.checks)) || isJudged(testCase) || hasRecordChecks(testCase);
}

/** Whether the case checks its conversation's record or its latency over repeats (records/). */
export function hasRecordChecks(testCase: TestCase): boolean {
  return (
    testCase.record !== undefined || testCase.turns.some((t) => t.record !== undefined || t.p95LatencyMs !== undefined)
  );
}

/** Whether the case needs a model: a judged criterion anywhere, or a simulated caller. */
export function isJudged(testCase: TestCase): boolean {
  return (
    testCase.scenario !== undefined ||
    (testCase.criteria?.length ?? 0) > 0 ||
    testCase.turns.some((t) => (t.expect?.length ?? 0) > 0)
  );
}

/** Whether the file has a problem that keeps it (or some of its cases) from running as written. */
export function hasErrors(file: TestFile): boolean {
  return file.problems.some((p) => p.severity === 'error');
}

/** The file with `agent` as the agent of each case that names none (the folder's agent, src/workspace/testFolderAgent.ts). */
export function withAgent(file: TestFile, agent: string | undefined): TestFile {
  if (agent === undefined) return file;
  return { ...file, cases: file.cases.map((c) => (c.agent === undefined ? { ...c, agent } : c)) };
}
