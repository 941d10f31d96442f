import type { TestCase } from '../format';
import type { RunModel } from '../judging';
import type { CaseResult, CaseTarget } from '../results';
import { runCases } from '../runner';
import {
  type CaseComparison,
  compareCase,
  compareSuite,
  type ComparisonSettings,
  DEFAULT_SETTINGS,
  type SuiteComparison,
} from './comparison';

/** The two sides of a comparison: the base (what a promotion would replace) and the candidate. */
export type Side = 'base' | 'candidate';

/**
 * Where a side runs a case. A comparison runs every case on both sides whatever environment the case names: the
 * environments are the comparison's, so the target is asked with the case's agent only.
 */
export type SideTarget = (testCase: Pick<TestCase, 'agent'>) => CaseTarget | Promise<CaseTarget>;

export interface ComparisonListener {
  /** A case has finished on both sides. */
  caseCompared?(comparison: CaseComparison): void;
}

export interface ComparisonOptions {
  readonly base: SideTarget;
  readonly candidate: SideTarget;
  /** Conversations open at once over both sides, at most. */
  readonly concurrency: number;
  /** Runs each case this many times on each side instead of its own `repeat:`. */
  readonly repeat?: number;
  readonly signal?: AbortSignal;
  readonly model?: RunModel;
  readonly settings?: ComparisonSettings;
  readonly listener?: ComparisonListener;
}

/**
 * Runs the cases on both sides in one queue, each case's base and candidate runs next to each other so that a
 * busy moment of a platform falls on both, and pairs them repeat by repeat as they finish.
 */
export async function runComparison(cases: readonly TestCase[], options: ComparisonOptions): Promise<SuiteComparison> {
  const settings = options.settings ?? DEFAULT_SETTINGS;
  // Each case twice: itself for the base and a copy for the candidate, told apart by identity.
  const sideOf = new Map<TestCase, { side: Side; index: number }>();
  const doubled: TestCase[] = [];
  for (const [index, testCase] of cases.entries()) {
    const copy: TestCase = { ...testCase };
    sideOf.set(testCase, { side: 'base', index });
    sideOf.set(copy, { side: 'candidate', index });
    doubled.push(testCase, copy);
  }
  const finished: { base?: CaseResult; candidate?: CaseResult }[] = cases.map(() => ({}));
  const compared: (CaseComparison | undefined)[] = cases.map(() => undefined);
  const reach = (testCase: TestCase) => (testCase.agent !== undefined ? { agent: testCase.agent } : {});
  await runCases(doubled, {
    concurrency: options.concurrency,
    ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.model ? { model: options.model } : {}),
    target: (testCase) => {
      const which = sideOf.get(testCase);
      return which?.side === 'candidate' ? options.candidate(reach(testCase)) : options.base(reach(testCase));
    },
    listener: {
      caseFinished: (result) => {
        const which = sideOf.get(result.testCase);
        if (!which) return;
        const both = finished[which.index];
        if (!both) return;
        // The candidate's result names the case as the base's does, so reports show the file's own case.
        both[which.side] =
          which.side === 'candidate' ? { ...result, testCase: cases[which.index] ?? result.testCase } : result;
        if (both.base && both.candidate) {
          const comparison = compareCase(both.base, both.candidate, settings);
          compared[which.index] = comparison;
          options.listener?.caseCompared?.(comparison);
        }
      },
    },
  });
  return compareSuite(
    compared.filter((c): c is CaseComparison => c !== undefined),
    settings,
  );
}
