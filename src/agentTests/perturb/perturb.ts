/**
 * Rewrites a user's words as speech recognition would hand them over: numbers, dates and times spoken, fillers and
 * restarts, punctuation and casing dropped, words misheard, the end cut off. Pure and deterministic: the same text,
 * seed, rates and language give the same words. The kinds apply in this order: numbers, mishearings, truncation,
 * fillers, punctuation. Each kind draws from a stream of its own, so changing one kind's rate leaves what the others
 * do unchanged.
 */
import { LANGUAGE_KINDS, PERTURB_KINDS, type PerturbKind, type PerturbRates } from './kinds';
import { wordsFor } from './languages';
import type { LanguageWords } from './languages/types';
import { speakNumbers } from './numbers';
import { mixSeeds, pick, Random } from './random';
import { joined, type Token, tokenize } from './tokens';

export interface PerturbInput {
  readonly text: string;
  readonly seed: number;
  readonly rates: PerturbRates;
  /** The caller's language code (`asr_lang_code`); English when undefined. */
  readonly language?: string;
}

export interface PerturbOutput {
  /** The words to send. */
  readonly text: string;
  /** The kinds that changed something, in the order they apply. */
  readonly applied: readonly PerturbKind[];
  /** The language whose word lists were used, or undefined when the project has none for the code given. */
  readonly language?: string;
  /** When the code given has no word lists: the kinds that were not applied because of it. */
  readonly withoutLists?: readonly PerturbKind[];
}

const CLAUSE_END = /[,.;:!?]/;
const SENTENCE_END = /[.!?]/;
const UPPER_START = /^\p{Lu}/u;

/** `words` is undefined only for the kinds that need none (perturb() skips the others). */
type Step = (tokens: Token[], words: LanguageWords | undefined, random: Random, rate: number) => Token[] | undefined;

/**
 * The kinds in the order they apply, each a step that gives the tokens it made, or undefined when it changed
 * nothing. Truncation cuts before the fillers come in: what is cut is the caller's words, never all but a filler.
 */
const STEPS: readonly (readonly [PerturbKind, Step])[] = [
  [
    'numbers',
    (tokens, words, random, rate) => (words && speakNumbers(tokens, words, random, rate) ? tokens : undefined),
  ],
  [
    'mishearings',
    (tokens, words, random, rate) => (words && mishear(tokens, words, random, rate) ? tokens : undefined),
  ],
  ['truncation', (tokens, _words, random, rate) => truncate(tokens, random, rate)],
  ['fillers', (tokens, words, random, rate) => (words ? addFillers(tokens, words, random, rate) : undefined)],
  [
    'punctuation',
    (tokens, _words, random, rate) => (random.next() < rate && dropPunctuation(tokens) ? tokens : undefined),
  ],
];

export function perturb(input: PerturbInput): PerturbOutput {
  const words = wordsFor(input.language ?? 'en');
  const rates = input.rates;
  const language = words ? { language: words.code } : { withoutLists: LANGUAGE_KINDS.filter((k) => rates[k] > 0) };
  let tokens: Token[] | undefined;
  const applied: PerturbKind[] = [];
  for (const [kind, step] of STEPS) {
    const rate = rates[kind];
    if (rate <= 0 || (!words && LANGUAGE_KINDS.includes(kind))) continue;
    tokens ??= tokenize(input.text);
    if (tokens.length === 0) break;
    // Each kind draws from a stream of its own: the seed mixed with the kind's place in the list.
    const next = step(tokens, words, new Random(mixSeeds(input.seed, PERTURB_KINDS.indexOf(kind))), rate);
    if (next === undefined) continue;
    tokens = next;
    applied.push(kind);
  }
  return {
    text: tokens === undefined || applied.length === 0 ? input.text : joined(tokens),
    applied,
    ...language,
  };
}

/** Each word of the language's list is heard as one of its mishearings, with chance `rate`. */
function mishear(tokens: Token[], words: LanguageWords, random: Random, rate: number): boolean {
  let changed = false;
  for (const token of tokens) {
    const core = token.core;
    if (core.includes(' ')) {
      // A number said in words is several: each may be misheard ("four fifteen" as "for fifty").
      const parts = core.split(' ').map((part) => misheard(part, words, random, rate) ?? part);
      const next = parts.join(' ');
      if (next !== core) {
        token.core = next;
        changed = true;
      }
      continue;
    }
    const heard = misheard(core, words, random, rate);
    if (heard !== undefined) {
      token.core = heard;
      changed = true;
    }
  }
  return changed;
}

function misheard(word: string, words: LanguageWords, random: Random, rate: number): string | undefined {
  const options = words.mishearings.get(word.toLowerCase());
  if (!options || random.next() >= rate) return undefined;
  const heard = pick(options, random);
  return UPPER_START.test(word) ? heard.charAt(0).toUpperCase() + heard.slice(1) : heard;
}

/**
 * At the start of the message and of each clause, with chance `rate`, a filler ("um") or a restart ("I- I want"):
 * one in three is a restart.
 */
function addFillers(tokens: Token[], words: LanguageWords, random: Random, rate: number): Token[] | undefined {
  const out: Token[] = [];
  let added = false;
  let before = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const starts = i === 0 || (before !== '' && CLAUSE_END.test(before));
    before = token.post;
    if (starts && random.next() < rate && token.core !== '') {
      added = true;
      if (random.next() < 1 / 3) {
        const space = token.core.indexOf(' ');
        out.push({ pre: token.pre, core: space < 0 ? token.core : token.core.slice(0, space), post: '-' });
        out.push({ pre: '', core: token.core, post: token.post });
      } else {
        const filler = pick(words.fillers, random);
        // At the start of a sentence the filler takes the capital the word had ("Um, can I", "I" keeps its own).
        const capital = UPPER_START.test(token.core) && (i === 0 || SENTENCE_END.test(tokens[i - 1]?.post ?? ''));
        const word = capital ? filler.charAt(0).toUpperCase() + filler.slice(1) : filler;
        const lowered =
          capital && !/^I\b/.test(token.core) ? token.core.charAt(0).toLowerCase() + token.core.slice(1) : token.core;
        out.push({ pre: token.pre, core: word, post: ',' });
        out.push({ pre: '', core: lowered, post: token.post });
      }
      continue;
    }
    out.push(token);
  }
  return added ? out : undefined;
}

/** Punctuation around words and every capital gone, as many recognisers hand words over. */
function dropPunctuation(tokens: Token[]): boolean {
  let changed = false;
  for (const token of tokens) {
    const core = token.core.toLowerCase();
    if (token.pre || token.post || core !== token.core) changed = true;
    token.pre = '';
    token.post = '';
    token.core = core;
  }
  return changed;
}

/**
 * With chance `rate`, the end of the message is cut off (the caller was interrupted, or recognition stopped early):
 * one word up to a third of them, never all.
 */
function truncate(tokens: Token[], random: Random, rate: number): Token[] | undefined {
  const words = tokens.length;
  if (random.next() >= rate || words < 2) return undefined;
  const cut = Math.min(words - 1, 1 + Math.floor(random.next() * Math.max(1, Math.floor(words / 3))));
  const kept = tokens.slice(0, words - cut).map((t) => ({ ...t }));
  const last = kept[kept.length - 1];
  if (last) last.post = '';
  return kept;
}
