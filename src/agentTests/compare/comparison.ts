/**
 * What a comparison of two targets found, case by case and for the suite, from the runs of each side paired repeat
 * by repeat: flips, per check and per turn what changed (the answers side by side with the differing words
 * marked, handoffs, ends, latency), and a verdict with the numbers behind it.
 */
import { wordDiff, type WordDiffPart } from '../../core/wordDiff';
import type { Answer } from '../checks';
import type { CaseOutcome, CaseResult, CaseRun, TurnResult } from '../results';
import type { TestCase } from '../format';
import { type Interval, mcNemarExact, minimumDiscordant, wilsonInterval } from './stats';

export const VERDICTS = [
  'significant regression',
  'significant improvement',
  'no significant change',
  'not enough runs to tell',
  'not compared',
] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface ComparisonSettings {
  /** The significance level of the exact McNemar test (0.05 by default). */
  readonly alpha: number;
  /** The confidence of the pass rates' intervals (0.95 by default). */
  readonly confidence: number;
}
export const DEFAULT_SETTINGS: ComparisonSettings = { alpha: 0.05, confidence: 0.95 };

/** One side's runs of a case. */
export interface SideSummary {
  readonly outcome: CaseOutcome;
  /** Runs that passed, and runs that passed or failed (errored, unjudged and cancelled runs do not count). */
  readonly passed: number;
  readonly runs: number;
  readonly passRate: number;
  readonly interval: Interval;
  /** The median latency of the side's answers, ms. */
  readonly latencyMs?: number;
  readonly skipReason?: string;
}

/** The verdict and the numbers behind it: the paired runs, those that flipped each way, and the test's p. */
export interface VerdictNumbers {
  readonly verdict: Verdict;
  readonly pairs: number;
  /** Pairs that passed on the base and failed on the candidate. */
  readonly passToFail: number;
  /** Pairs that failed on the base and passed on the candidate. */
  readonly failToPass: number;
  readonly pValue: number;
  /** The verdict in a sentence, with what to do when the runs cannot tell. */
  readonly reason: string;
}

/** A check (a turn's check, or a judged criterion) that held on one side and not on the other in some pair. */
export interface CheckChange {
  /** The case's turn, from 0 (its first as written), or undefined for a criterion of the whole case. */
  readonly turn?: number;
  readonly check: string;
  readonly passToFail: number;
  readonly failToPass: number;
}

/** A turn whose answer, handoff, end or latency differs between the sides. */
export interface TurnChange {
  readonly index: number;
  readonly user?: string;
  /** The answers of the first pair whose answers at this turn differ (or of the first pair). */
  readonly base?: string;
  readonly candidate?: string;
  /** The base's answer against the candidate's, word by word. */
  readonly diff: readonly WordDiffPart[];
  /** Pairs whose answers at this turn differ beyond whitespace. */
  readonly answerChanged: number;
  readonly handoff?: { readonly base?: string; readonly candidate?: string; readonly pairs: number };
  readonly end?: { readonly base: boolean; readonly candidate: boolean; readonly pairs: number };
  /** The median latency of this turn's answers on each side, ms. */
  readonly latencyMs: { readonly base?: number; readonly candidate?: number };
}

export interface CaseComparison {
  readonly testCase: TestCase;
  readonly base: SideSummary;
  readonly candidate: SideSummary;
  readonly verdict: VerdictNumbers;
  readonly checks: readonly CheckChange[];
  /** The turns where something differs, in order. */
  readonly turns: readonly TurnChange[];
  /** Pairs where a handoff (made or not, or where to) changed, and where the conversation's end changed. */
  readonly handoffChanged: number;
  readonly endChanged: number;
  /** The candidate's median latency less the base's, ms. */
  readonly latencyChangeMs?: number;
  /** The side whose every run failed to reach it (the case is not compared). */
  readonly unreachable?: 'base' | 'candidate';
}

export interface SuiteComparison {
  readonly cases: readonly CaseComparison[];
  /** Every compared case's pairs pooled into one exact test. */
  readonly verdict: VerdictNumbers;
  readonly counts: Readonly<Record<Verdict, number>>;
  /** Cases whose outcome went from passed to failed, and back. */
  readonly flipped: { readonly passToFail: number; readonly failToPass: number };
  readonly handoffChanged: number;
  readonly latencyMs: { readonly base?: number; readonly candidate?: number };
  readonly settings: ComparisonSettings;
  /** The fewest discordant pairs that can be significant at the settings' alpha. */
  readonly minimumDiscordant: number;
}

/** Whether a run counts in a pair: it passed or failed (errored, unjudged or cancelled runs say neither). */
function decided(run: CaseRun | undefined): boolean | undefined {
  if (run === undefined || run.cancelled) return undefined;
  if (run.status === 'passed') return true;
  if (run.status === 'failed') return false;
  return undefined;
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const answers = (runs: readonly CaseRun[]): Answer[] =>
  runs.flatMap((r) => r.turns.flatMap((t) => (t.answer ? [t.answer] : [])));

function side(result: CaseResult, settings: ComparisonSettings): SideSummary {
  const counted = result.runs.map(decided).filter((d): d is boolean => d !== undefined);
  const passed = counted.filter(Boolean).length;
  const latencyMs = median(answers(result.runs).map((a) => a.latencyMs));
  return {
    outcome: result.outcome,
    passed,
    runs: counted.length,
    passRate: counted.length === 0 ? 0 : passed / counted.length,
    interval: wilsonInterval(passed, counted.length, settings.confidence),
    ...(latencyMs !== undefined ? { latencyMs } : {}),
    ...(result.skipReason !== undefined ? { skipReason: result.skipReason } : {}),
  };
}

const percent = (p: number) => `${(p * 100).toFixed(p < 0.001 ? 2 : 1)}%`;

/** The verdict of `pairs` paired runs of which `b` went from pass to fail and `c` from fail to pass. */
export function verdictOf(b: number, c: number, pairs: number, settings: ComparisonSettings): VerdictNumbers {
  const pValue = mcNemarExact(b, c);
  const least = minimumDiscordant(settings.alpha);
  const numbers = { pairs, passToFail: b, failToPass: c, pValue };
  const split = `${b} pass→fail, ${c} fail→pass of ${pairs} paired runs`;
  const p = `p = ${pValue.toFixed(4)} (exact McNemar)`;
  if (pairs === 0) return { ...numbers, verdict: 'not compared', reason: 'no run passed or failed on both sides' };
  if (pValue < settings.alpha)
    return {
      ...numbers,
      verdict: b > c ? 'significant regression' : 'significant improvement',
      reason: `${split}: ${p}, below ${settings.alpha}`,
    };
  if (b + c === 0)
    return { ...numbers, verdict: 'no significant change', reason: `the ${pairs} paired runs agree, ${p}` };
  if (b + c < least) {
    // At the rate pairs differed here, this many pairs would give enough discordant ones to tell.
    const needed = Math.ceil((least * pairs) / (b + c));
    return {
      ...numbers,
      verdict: 'not enough runs to tell',
      reason: `${split}, ${p}: at least ${least} runs that differ are needed before an exact test can reach significance at ${settings.alpha} (${least - 1} all one way give p = ${mcNemarExact(least - 1, 0).toFixed(4)}); at the rate seen, about ${needed} paired runs would give that many (--repeat)`,
    };
  }
  return { ...numbers, verdict: 'no significant change', reason: `${split}: ${p}, within noise at ${settings.alpha}` };
}

/** Whether every finished run of a side failed before any answer (a target that cannot be reached). */
function unreached(result: CaseResult): boolean {
  const finished = result.runs.filter((r) => !r.cancelled);
  return finished.length > 0 && finished.every((r) => r.error !== undefined && r.turns.length === 0);
}

/** Why a side cannot be compared: skipped, or unreachable. */
function uncompared(result: CaseResult, name: string): string | undefined {
  if (result.outcome === 'skipped') return `skipped on the ${name}: ${result.skipReason ?? ''}`;
  if (unreached(result))
    return `the ${name} could not be reached: ${result.runs.find((r) => r.error !== undefined)?.error ?? ''}`;
  return undefined;
}

/** The runs of each side paired by repeat: the first base run with the first candidate run, and so on. */
function pairsOf(base: CaseResult, candidate: CaseResult): [CaseRun, CaseRun][] {
  const byAttempt = new Map(candidate.runs.map((r) => [r.attempt, r]));
  return base.runs.flatMap((r): [CaseRun, CaseRun][] => {
    const other = byAttempt.get(r.attempt);
    return other ? [[r, other]] : [];
  });
}

/** Compares one case's results on the two sides. */
export function compareCase(
  base: CaseResult,
  candidate: CaseResult,
  settings: ComparisonSettings = DEFAULT_SETTINGS,
): CaseComparison {
  const testCase = base.testCase;
  const sides = { base: side(base, settings), candidate: side(candidate, settings) };
  const unreachable = unreached(base) ? 'base' : unreached(candidate) ? 'candidate' : undefined;
  const why = uncompared(base, 'base') ?? uncompared(candidate, 'candidate');
  const pairs = why ? [] : pairsOf(base, candidate);
  let b = 0;
  let c = 0;
  let counted = 0;
  for (const [x, y] of pairs) {
    const dx = decided(x);
    const dy = decided(y);
    if (dx === undefined || dy === undefined) continue;
    counted++;
    if (dx && !dy) b++;
    if (!dx && dy) c++;
  }
  const verdict = why ? { ...verdictOf(0, 0, 0, settings), reason: why } : verdictOf(b, c, counted, settings);
  const turns = turnChanges(pairs);
  const handoffChanged = pairs.filter(([x, y]) => handoffs(x) !== handoffs(y)).length;
  const endChanged = pairs.filter(([x, y]) => endTurn(x) !== endTurn(y)).length;
  const latencyChangeMs =
    sides.base.latencyMs !== undefined && sides.candidate.latencyMs !== undefined
      ? sides.candidate.latencyMs - sides.base.latencyMs
      : undefined;
  return {
    testCase,
    ...sides,
    verdict,
    checks: checkChanges(pairs),
    turns,
    handoffChanged,
    endChanged,
    ...(latencyChangeMs !== undefined ? { latencyChangeMs } : {}),
    ...(unreachable ? { unreachable } : {}),
  };
}

/** Where the run was handed off, turn by turn, as one text to compare. */
const handoffs = (run: CaseRun) => run.turns.map((t) => t.answer?.handoff?.destination ?? '').join('|');
const endTurn = (run: CaseRun) => run.turns.findIndex((t) => t.answer?.endConversation === true);

function turnChanges(pairs: readonly [CaseRun, CaseRun][]): TurnChange[] {
  const count = Math.max(0, ...pairs.flatMap(([x, y]) => [x.turns.length, y.turns.length]));
  const out: TurnChange[] = [];
  for (let index = 0; index < count; index++) {
    const at = (run: CaseRun): TurnResult | undefined => run.turns.find((t) => t.index === index);
    const texts = pairs.map(([x, y]) => [at(x)?.answer?.response ?? '', at(y)?.answer?.response ?? ''] as const);
    // Whitespace alone is no difference (as in the word diff); the diff itself is made only for the turn shown.
    const changed = texts.map(([x, y]) => x !== y && squeezed(x) !== squeezed(y));
    const answerChanged = changed.filter(Boolean).length;
    const handoffPairs = pairs.filter(
      ([x, y]) => at(x)?.answer?.handoff?.destination !== at(y)?.answer?.handoff?.destination,
    );
    const endPairs = pairs.filter(
      ([x, y]) => (at(x)?.answer?.endConversation ?? false) !== (at(y)?.answer?.endConversation ?? false),
    );
    const latency = (which: 0 | 1) =>
      median(pairs.flatMap((p) => (at(p[which])?.answer ? [at(p[which])?.answer?.latencyMs ?? 0] : [])));
    if (answerChanged === 0 && handoffPairs.length === 0 && endPairs.length === 0) continue;
    const shown = changed.indexOf(true) >= 0 ? changed.indexOf(true) : 0;
    const [baseText, candidateText] = texts[shown] ?? ['', ''];
    const pair = pairs[shown];
    const user = pair ? (at(pair[0])?.user ?? at(pair[1])?.user) : undefined;
    const firstHandoff = handoffPairs[0];
    const firstEnd = endPairs[0];
    const baseLatency = latency(0);
    const candidateLatency = latency(1);
    out.push({
      index,
      ...(user !== undefined ? { user } : {}),
      base: baseText,
      candidate: candidateText,
      diff: wordDiff(baseText, candidateText).diff,
      answerChanged,
      ...(firstHandoff
        ? {
            handoff: {
              ...optional('base', at(firstHandoff[0])?.answer?.handoff?.destination),
              ...optional('candidate', at(firstHandoff[1])?.answer?.handoff?.destination),
              pairs: handoffPairs.length,
            },
          }
        : {}),
      ...(firstEnd
        ? {
            end: {
              base: at(firstEnd[0])?.answer?.endConversation ?? false,
              candidate: at(firstEnd[1])?.answer?.endConversation ?? false,
              pairs: endPairs.length,
            },
          }
        : {}),
      latencyMs: {
        ...(baseLatency !== undefined ? { base: baseLatency } : {}),
        ...(candidateLatency !== undefined ? { candidate: candidateLatency } : {}),
      },
    });
  }
  return out;
}

const squeezed = (text: string) => text.replace(/\s+/g, ' ').trim();

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

/**
 * The checks of a run that held (true) or not (false), by turn and check; a turn that was not answered says
 * neither. Judged criteria count as checks of their turn (or of the case).
 */
function checkResults(run: CaseRun): Map<string, { turn?: number; check: string; held: boolean }> {
  const out = new Map<string, { turn?: number; check: string; held: boolean }>();
  for (const t of run.turns) {
    if (!t.answer) continue;
    const failed = new Set(t.failures.map((f) => f.check));
    for (const check of failed) out.set(`${t.index}\u0000${check}`, { turn: t.index, check, held: false });
    // A check that held leaves no failure: every check a failure of the other side names is held here.
    out.set(`${t.index}\u0000*`, { turn: t.index, check: '*', held: failed.size === 0 });
  }
  for (const cr of run.criteria) {
    if (cr.outcome.kind !== 'judged') continue;
    const key = `${cr.turnIndex ?? 'case'}\u0000criterion ${cr.text}`;
    out.set(key, {
      ...(cr.turnIndex !== undefined ? { turn: cr.turnIndex } : {}),
      check: `criterion "${cr.text}"`,
      held: cr.outcome.verdict === 'pass',
    });
  }
  return out;
}

function checkChanges(pairs: readonly [CaseRun, CaseRun][]): CheckChange[] {
  const changes = new Map<string, { turn?: number; check: string; passToFail: number; failToPass: number }>();
  for (const [x, y] of pairs) {
    const bx = checkResults(x);
    const by = checkResults(y);
    const keys = new Set([...bx.keys(), ...by.keys()].filter((k) => !k.endsWith('\u0000*')));
    for (const key of keys) {
      const turnKey = `${key.split('\u0000')[0]}\u0000*`;
      // Absent on a side whose turn was answered: it held there (only failures are named).
      const held = (m: typeof bx) => m.get(key)?.held ?? (m.has(turnKey) ? true : undefined);
      const hx = held(bx);
      const hy = held(by);
      if (hx === undefined || hy === undefined || hx === hy) continue;
      const info = bx.get(key) ?? by.get(key);
      if (!info) continue;
      const entry = changes.get(key) ?? {
        ...(info.turn !== undefined ? { turn: info.turn } : {}),
        check: info.check,
        passToFail: 0,
        failToPass: 0,
      };
      if (hx) entry.passToFail++;
      else entry.failToPass++;
      changes.set(key, entry);
    }
  }
  return [...changes.values()].sort((a, b) => (a.turn ?? -1) - (b.turn ?? -1) || a.check.localeCompare(b.check));
}

/** The suite's verdict: every compared case's pairs pooled, and the cases counted by verdict. */
export function compareSuite(
  cases: readonly CaseComparison[],
  settings: ComparisonSettings = DEFAULT_SETTINGS,
): SuiteComparison {
  const compared = cases.filter((c) => c.verdict.verdict !== 'not compared');
  const sum = (f: (c: CaseComparison) => number) => compared.reduce((n, c) => n + f(c), 0);
  const verdict = verdictOf(
    sum((c) => c.verdict.passToFail),
    sum((c) => c.verdict.failToPass),
    sum((c) => c.verdict.pairs),
    settings,
  );
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const c of cases) counts[c.verdict.verdict]++;
  const weighted = (which: 'base' | 'candidate') =>
    median(compared.flatMap((c) => (c[which].latencyMs !== undefined ? [c[which].latencyMs ?? 0] : [])));
  const baseLatency = weighted('base');
  const candidateLatency = weighted('candidate');
  return {
    cases,
    verdict,
    counts,
    flipped: {
      passToFail: compared.filter((c) => c.base.outcome === 'passed' && c.candidate.outcome === 'failed').length,
      failToPass: compared.filter((c) => c.base.outcome === 'failed' && c.candidate.outcome === 'passed').length,
    },
    handoffChanged: cases.filter((c) => c.handoffChanged > 0).length,
    latencyMs: {
      ...(baseLatency !== undefined ? { base: baseLatency } : {}),
      ...(candidateLatency !== undefined ? { candidate: candidateLatency } : {}),
    },
    settings,
    minimumDiscordant: minimumDiscordant(settings.alpha),
  };
}

export { percent };
