/**
 * Variability: the local agent answering as a language model agent does, so that comparisons and repeats can be
 * tried offline. At a set rate an answer is reworded (an opening phrase, words swapped) or, now and then, about a
 * different topic; every answer's latency varies. Seeded: the same seed and the same conversations give the same
 * answers (a choice depends on the seed, the conversation's id, the turn and the words, never on the clock).
 */

export interface VariabilityOptions {
  /** The share of answers that vary, 0 (off: the deterministic agent) to 1. */
  readonly rate: number;
  readonly seed: number;
  /** The most wall-clock delay added to a Chat answer, ms. */
  readonly latencyMs: number;
}

/** 0 to 1 from a text: FNV-1a, enough to spread choices evenly and repeat them exactly. */
export function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 0x1_0000_0000;
}

const OPENINGS = ['Sure! ', 'Of course. ', 'Happy to help. ', 'Good question. ', 'Absolutely. '];
/** Swaps a model makes while meaning the same: each may break a check that wants the exact words. */
const SWAPS: readonly (readonly [RegExp, string])[] = [
  [/\bYou can\b/, "You're able to"],
  [/\bwithin\b/, 'inside'],
  [/\bfree\b/, 'at no cost'],
  [/\bfrom (\d)/, 'starting $1'],
  [/\bOur\b/, 'The'],
  [/\btakes\b/, 'needs'],
];

export interface VariedAnswer {
  readonly response: string;
  /** The answer is about another topic than the question's (an answer of another rank). */
  readonly offTopic: boolean;
  /** How much the recorded latency is stretched (0.6 to 1.8). */
  readonly latencyFactor: number;
  /** The wall-clock delay to add before answering, ms. */
  readonly delayMs: number;
}

/**
 * The answer the varied agent gives instead of `response`. `otherTopic` is an answer about something else the
 * agent knows (undefined for answers that are not about a topic: those are only reworded).
 */
export function varyAnswer(
  options: VariabilityOptions,
  at: { conversationId: string; turn: number; message: string },
  response: string,
  otherTopic: string | undefined,
): VariedAnswer {
  const key = `${options.seed}\u0000${at.conversationId}\u0000${at.turn}\u0000${at.message}`;
  const draw = (what: string) => unitHash(`${what}\u0000${key}`);
  const latencyFactor = 0.6 + 1.2 * draw('latency');
  const delayMs = Math.round(options.latencyMs * draw('delay'));
  if (options.rate <= 0 || draw('vary') >= options.rate) return { response, offTopic: false, latencyFactor, delayMs };
  // About one varied answer in five strays to another topic; the rest say the same in other words.
  if (otherTopic !== undefined && draw('topic') < 0.2)
    return { response: otherTopic, offTopic: true, latencyFactor, delayMs };
  const opening = OPENINGS[Math.floor(draw('opening') * OPENINGS.length)] ?? '';
  const swap = SWAPS.filter(([pattern]) => pattern.test(response));
  const chosen = swap.length > 0 && draw('swap') < 0.5 ? swap[Math.floor(draw('which') * swap.length)] : undefined;
  const reworded = chosen ? response.replace(chosen[0], chosen[1]) : response;
  return { response: `${opening}${reworded}`, offTopic: false, latencyFactor, delayMs };
}

/** The wall-clock delay a `--variability` flag adds at most, ms: enough to vary, little enough for a large suite. */
export const FLAG_LATENCY_MS = 20;

/**
 * `--variability RATE[:SEED]` (serve, compare --local) as the platform's options; throws what is wrong.
 * `0.2:7`: a fifth of the answers vary, seeded with 7 (the seed is 1 when not given).
 */
export function variabilityFlag(text: string): {
  variabilityRate: number;
  variabilitySeed: number;
  variabilityLatencyMs: number;
} {
  const [rateText = '', seedText = '1', ...rest] = text.split(':');
  const rate = Number(rateText);
  const seed = Number(seedText);
  if (rest.length > 0 || rateText === '' || !(rate >= 0 && rate <= 1) || !Number.isInteger(seed))
    throw new Error(`--variability is RATE[:SEED], a share from 0 to 1 and a whole number, got "${text}"`);
  return { variabilityRate: rate, variabilitySeed: seed, variabilityLatencyMs: rate > 0 ? FLAG_LATENCY_MS : 0 };
}
