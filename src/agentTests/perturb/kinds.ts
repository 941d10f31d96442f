/** The ways `perturb:` rewrites a user's words, as speech recognition hands them over (docs/testing-agents.md). */
export const PERTURB_KINDS = ['numbers', 'fillers', 'punctuation', 'mishearings', 'truncation'] as const;
export type PerturbKind = (typeof PERTURB_KINDS)[number];

/** Each kind's rate, 0 to 1: the chance it applies at each place it can (docs/testing-agents.md says where). */
export type PerturbRates = Readonly<Record<PerturbKind, number>>;

/** The kinds that need words of the caller's language; the others apply to any language. */
export const LANGUAGE_KINDS: readonly PerturbKind[] = ['numbers', 'fillers', 'mishearings'];

/** The seed of a `perturb:` that names none. */
export const DEFAULT_SEED = 1;

/** `perturb:` of a case or a turn, as written. */
export interface PerturbSpec {
  /** Undefined when the spec only sets a seed (a turn's, over its case's rates). */
  readonly rates?: PerturbRates;
  readonly seed?: number;
}

/** A turn's `perturb:`: its own spec, or `false` to send the words as written. */
export type TurnPerturb = PerturbSpec | false;

export const NO_RATES: PerturbRates = { numbers: 0, fillers: 0, punctuation: 0, mishearings: 0, truncation: 0 };

/** Every kind at `rate`. */
export function allAt(rate: number): PerturbRates {
  return { numbers: rate, fillers: rate, punctuation: rate, mishearings: rate, truncation: rate };
}
