/**
 * Reads `perturb:` of a case or a turn (docs/testing-agents.md, "Voice-shaped callers"): `{ rate, seed, kinds }`,
 * or a rate alone. A rate outside 0 to 1, an unknown kind or key is a problem at its place, with what to write.
 */
import { isMap, isScalar, isSeq, type Pair } from 'yaml';
import { closestWord } from '../../core/closest';
import {
  allAt,
  LANGUAGE_KINDS,
  NO_RATES,
  PERTURB_KINDS,
  type PerturbKind,
  type PerturbRates,
  type PerturbSpec,
  type TurnPerturb,
} from './kinds';
import { LANGUAGE_CODES, wordsFor } from './languages';

export const PERTURB_KEYS = ['rate', 'seed', 'kinds'] as const;

/** The largest seed: seeds are 32-bit, as the seeded random source takes them. */
const MAX_SEED = 0xffffffff;

/** Where the file's problems go: parse.ts's reader, which places each at its node. */
export interface ProblemSink {
  problem(node: unknown, message: string, severity?: 'error' | 'warning'): void;
}

interface MapNode {
  readonly items: readonly Pair<unknown, unknown>[];
}

function valueAt(map: MapNode, key: string): unknown {
  for (const pair of map.items) if (isScalar(pair.key) && pair.key.value === key) return pair.value ?? undefined;
  return undefined;
}

const RATE_WORDS = 'a number from 0 to 1, the chance at each place it can apply (0.3: about one in three)';

/** A rate from 0 to 1, or a problem saying what was written instead. */
function rateOf(sink: ProblemSink, node: unknown, what: string): number | undefined {
  const value = isScalar(node) ? node.value : undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1) return value;
  const got = isScalar(node) ? `: got ${String(value)}` : '';
  sink.problem(node, `${what} is ${RATE_WORDS}${got}.`);
  return undefined;
}

function kindOf(sink: ProblemSink, node: unknown, name: unknown): PerturbKind | undefined {
  if (typeof name === 'string' && (PERTURB_KINDS as readonly string[]).includes(name)) return name as PerturbKind;
  const near = typeof name === 'string' ? closestWord(name, PERTURB_KINDS) : undefined;
  sink.problem(
    node,
    `Unknown kind ${typeof name === 'string' ? `\`${name}\` ` : ''}in \`perturb: kinds:\`${near ? `: did you mean \`${near}\`?` : '.'} Kinds: ${PERTURB_KINDS.join(', ')}.`,
  );
  return undefined;
}

/**
 * `perturb:` as written, or undefined when absent or wrong (the problem is then reported). A turn may write `false`
 * (send its words as written) or only a `seed:` (its case's rates with another seed).
 */
export function readPerturb(sink: ProblemSink, node: unknown, where: 'case' | 'turn'): TurnPerturb | undefined {
  if (node === undefined) return undefined;
  if (isScalar(node) && node.value === false) return where === 'turn' ? false : undefined;
  if (isScalar(node) && typeof node.value === 'number') {
    const rate = rateOf(sink, node, '`perturb:` alone');
    return rate === undefined ? undefined : { rates: allAt(rate) };
  }
  if (!isMap(node)) {
    sink.problem(
      node,
      `\`perturb:\` is a mapping such as { rate: 0.3, seed: 7 }, a rate alone (0 to 1)${where === 'turn' ? ', or false to send the words as written' : ''}.`,
    );
    return undefined;
  }
  let ok = true;
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key !== undefined && (PERTURB_KEYS as readonly string[]).includes(key)) continue;
    const near = key === undefined ? undefined : closestWord(key, PERTURB_KEYS);
    sink.problem(
      pair.key ?? node,
      `Unknown key ${key === undefined ? '' : `\`${key}\` `}in \`perturb:\`${near ? `: did you mean \`${near}\`?` : '.'} Known keys: ${PERTURB_KEYS.join(', ')}.`,
    );
    ok = false;
  }
  const rateNode = valueAt(node, 'rate');
  const rate = rateNode === undefined ? undefined : rateOf(sink, rateNode, '`rate:` of `perturb:`');
  if (rateNode !== undefined && rate === undefined) ok = false;
  const seed = readSeed(sink, valueAt(node, 'seed'));
  if (seed === null) ok = false;
  const kindsNode = valueAt(node, 'kinds');
  const rates =
    kindsNode === undefined ? (rate === undefined ? undefined : allAt(rate)) : readKinds(sink, kindsNode, rate);
  if (kindsNode !== undefined && rates === undefined) ok = false;
  if (!ok) return undefined;
  if (rates === undefined && where === 'case') {
    sink.problem(
      node,
      '`perturb:` changes nothing: give a `rate:` from 0 to 1 for every kind, or `kinds:` with a rate each.',
    );
    return undefined;
  }
  return { ...(rates !== undefined ? { rates } : {}), ...(typeof seed === 'number' ? { seed } : {}) };
}

/** The seed: undefined when absent, null when wrong (the problem is reported). */
function readSeed(sink: ProblemSink, node: unknown): number | undefined | null {
  if (node === undefined) return undefined;
  const value = isScalar(node) ? node.value : undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_SEED) return value;
  sink.problem(
    node,
    `\`seed:\` of \`perturb:\` is a whole number from 0 to ${MAX_SEED}: the same seed gives the same words.`,
  );
  return null;
}

/** `kinds:`: a rate per kind (the others at `rate:`, or 0), or a list of kinds at `rate:` (the others at 0). */
function readKinds(sink: ProblemSink, node: unknown, rate: number | undefined): PerturbRates | undefined {
  if (isSeq(node)) {
    if (rate === undefined) {
      sink.problem(
        node,
        'A list of `kinds:` takes the `rate:` of `perturb:`: add one, or give each kind its rate (kinds: { numbers: 0.5 }).',
      );
      return undefined;
    }
    const rates: Record<PerturbKind, number> = { ...NO_RATES };
    let ok = true;
    for (const item of node.items) {
      const kind = kindOf(sink, item, isScalar(item) ? item.value : undefined);
      if (kind === undefined) ok = false;
      else rates[kind] = rate;
    }
    return ok ? rates : undefined;
  }
  if (!isMap(node)) {
    sink.problem(node, '`kinds:` of `perturb:` is a rate per kind (numbers: 0.5, fillers: 0.2) or a list of kinds.');
    return undefined;
  }
  const rates: Record<PerturbKind, number> = { ...(rate === undefined ? NO_RATES : allAt(rate)) };
  let ok = true;
  for (const pair of node.items) {
    const name = isScalar(pair.key) ? pair.key.value : undefined;
    const kind = kindOf(sink, pair.key ?? node, name);
    const value =
      kind === undefined ? undefined : rateOf(sink, pair.value ?? pair.key, `\`${kind}:\` of \`perturb: kinds:\``);
    if (kind === undefined || value === undefined) ok = false;
    else rates[kind] = value;
  }
  return ok ? rates : undefined;
}

/** A case's `perturb:` (a case has no `false`: it then has none). */
export function readCasePerturb(sink: ProblemSink, node: unknown): PerturbSpec | undefined {
  const spec = readPerturb(sink, node, 'case');
  return spec === false ? undefined : spec;
}

/**
 * What a case's `perturb:` and its turns' need besides their own shape: a turn that only sets a seed needs its case's
 * rates, and a language the project has no word lists for is said (only punctuation and truncation then apply).
 */
export function checkCasePerturb(
  sink: ProblemSink,
  spec: PerturbSpec | undefined,
  turns: readonly { readonly perturb?: TurnPerturb }[],
  turnsNode: unknown,
  language: { readonly node: unknown; readonly code: string | undefined },
): void {
  if (isSeq(turnsNode))
    for (const item of turnsNode.items) {
      const node = isMap(item) ? valueAt(item, 'perturb') : undefined;
      if (node === undefined || !isMap(item)) continue;
      if (valueAt(item, 'user') === undefined)
        sink.problem(
          node,
          'The greeting sends no words, so `perturb:` changes nothing here: move it to a turn with `user:`.',
          'warning',
        );
      else if (
        spec === undefined &&
        isMap(node) &&
        valueAt(node, 'rate') === undefined &&
        valueAt(node, 'kinds') === undefined
      )
        sink.problem(
          node,
          'This `perturb:` only sets a seed, and the case has no `perturb:` whose rates it would use: give it a `rate:`.',
        );
    }
  const specs = [spec, ...turns.map((t) => t.perturb)];
  const needsWords = specs.some((s) => s && s.rates && LANGUAGE_KINDS.some((k) => (s.rates?.[k] ?? 0) > 0));
  if (!needsWords || language.code === undefined || wordsFor(language.code) !== undefined) return;
  sink.problem(
    language.node,
    `\`perturb:\` has no word lists for ${language.code} (it has ${LANGUAGE_CODES.join(', ')}): ${LANGUAGE_KINDS.join(', ')} are not applied, only punctuation and truncation.`,
    'warning',
  );
}
