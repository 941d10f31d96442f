/**
 * `perturb:` in a run: which words a turn sends, with which seed, and how results and reports say so, so that a
 * failure can be sent again word for word. Run k of a repeated case (from 1) takes the written seed plus k - 1.
 */
import type { TestCase } from '../format';
import { DEFAULT_SEED, type PerturbKind, type PerturbRates } from './kinds';
import { perturb } from './perturb';
import { mixSeeds } from './random';

/** How a turn's words were reworded before they were sent. */
export interface TurnPerturbation {
  /** The words as the file has them (the words sent are the turn's `user`). */
  readonly written: string;
  /** The seed of this run for this turn: written as its `seed:` (with repeat 1), the run sends the same words. */
  readonly seed: number;
  /** The kinds that changed the words; empty when none did at this seed. */
  readonly applied: readonly PerturbKind[];
  /** Said when the caller's language has no word lists: the kinds that were not applied. */
  readonly withoutLists?: readonly PerturbKind[];
}

/** The seed of run `attempt` (from 1) for a written seed: the next seed for each repeat. */
export function seedOfRun(seed: number, attempt: number): number {
  return (seed + attempt - 1) >>> 0;
}

/** The rates and seed that apply to a turn (a turn's `perturb:` over its case's), or undefined when none do. */
function specOf(testCase: TestCase, turnIndex: number): { rates: PerturbRates; seed: number } | undefined {
  const own = testCase.turns[turnIndex]?.perturb;
  if (own === false) return undefined;
  const rates = own?.rates ?? testCase.perturb?.rates;
  if (rates === undefined) return undefined;
  return { rates, seed: own?.seed ?? testCase.perturb?.seed ?? DEFAULT_SEED };
}

/** The seed of the case's `perturb:` in run `attempt`, when it has one: a turn's own seed is on its turn. */
export function caseSeedOfRun(testCase: TestCase, attempt: number): number | undefined {
  return testCase.perturb === undefined ? undefined : seedOfRun(testCase.perturb.seed ?? DEFAULT_SEED, attempt);
}

/**
 * The words a user turn sends in run `attempt`: the written words reworded when `perturb:` applies to the turn. Each
 * turn takes its own stream (the run's seed mixed with the turn's place), so two turns of the same words differ.
 * A simulated caller's messages are numbered as its turns are.
 */
export function wordsToSend(
  testCase: TestCase,
  turnIndex: number,
  written: string,
  attempt: number,
): { readonly sent: string; readonly perturbation?: TurnPerturbation } {
  const spec = specOf(testCase, turnIndex);
  if (spec === undefined) return { sent: written };
  const seed = seedOfRun(spec.seed, attempt);
  const out = perturb({
    text: written,
    seed: mixSeeds(seed, turnIndex),
    rates: spec.rates,
    ...(testCase.asrLangCode !== undefined ? { language: testCase.asrLangCode } : {}),
  });
  return {
    sent: out.text,
    perturbation: {
      written,
      seed,
      applied: out.applied,
      ...(out.withoutLists && out.withoutLists.length > 0 ? { withoutLists: out.withoutLists } : {}),
    },
  };
}

/** The transcript's line under a perturbed user message: the seed and the words as written. */
export function transcriptNote(p: TurnPerturbation): string {
  const lists = p.withoutLists ? `; no word lists for this language, so no ${p.withoutLists.join(', ')}` : '';
  const what = p.applied.length > 0 ? `${p.applied.join(', ')}` : 'no change at this seed';
  return `  (perturbed with seed ${p.seed}: ${what}${lists}; written "${p.written}")`;
}

/** Said after a failing check of a perturbed turn, so the failure can be replayed: the words sent and the seed. */
export function failureNote(turn: { readonly user?: string; readonly perturbation?: TurnPerturbation }): string {
  const p = turn.perturbation;
  if (p === undefined) return '';
  return ` [sent "${turn.user ?? ''}" for "${p.written}", perturb seed ${p.seed}]`;
}
