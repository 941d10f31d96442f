import type { TurnType } from '../../contract/conversations';
import type { StoredConversation, StoredTurn } from '../state';

/**
 * Search over transcripts, as the local platform understands it.
 * - transcript: every word of the query occurs (case-insensitive, as a substring) in the chosen
 *   side of the turns (user, agent, or both).
 * - semantic: TF-IDF cosine similarity between the query and each conversation's turns, over
 *   lower-cased, lightly stemmed words with a small table of synonyms; results rank by score and
 *   only scores of at least SEMANTIC_MIN_SCORE count as matches.
 */

export const SEMANTIC_MIN_SCORE = 0.08;

function sideTexts(turn: StoredTurn, side: TurnType | undefined): string[] {
  const out: string[] = [];
  if (side !== 'agent') {
    if (turn.user_input) out.push(turn.user_input);
    if (turn.translated_user_input) out.push(turn.translated_user_input);
  }
  if (side !== 'user') {
    if (turn.agent_response) out.push(turn.agent_response);
    if (turn.english_agent_response) out.push(turn.english_agent_response);
  }
  return out;
}

/** A query as the lower-cased words a transcript search looks for. */
export function transcriptTerms(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

export function matchesTranscript(
  conv: StoredConversation,
  terms: readonly string[],
  side: TurnType | undefined,
): boolean {
  const haystack = conv.turns
    .flatMap((t) => sideTexts(t, side))
    .join('\n')
    .toLowerCase();
  return terms.every((term) => haystack.includes(term));
}

const STOP_WORDS = new Set(
  'a an and are as at be but by can could do does for from have how i if in is it its me my of on or our please so that the their then there this to was we what when where which will with would you your'.split(
    ' ',
  ),
);

/** Words that mean the same for a support desk, mapped to one. */
const SYNONYMS: Readonly<Record<string, string>> = {
  refund: 'return',
  money: 'return',
  exchange: 'return',
  shipping: 'delivery',
  ship: 'delivery',
  parcel: 'delivery',
  package: 'delivery',
  arrive: 'delivery',
  courier: 'delivery',
  deliver: 'delivery',
  open: 'hour',
  close: 'hour',
  closing: 'hour',
  opening: 'hour',
  time: 'hour',
  person: 'human',
  agent: 'human',
  someone: 'human',
  representative: 'human',
  operator: 'human',
};

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export function semanticTokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!raw || STOP_WORDS.has(raw)) continue;
    const word = SYNONYMS[raw] ?? stem(raw);
    out.push(SYNONYMS[word] ?? word);
  }
  return out;
}

interface TermCounts {
  turns: number;
  counts: Map<string, number>;
}

/** Term counts per conversation, kept until the conversation gets another turn. */
const cache = new WeakMap<StoredConversation, TermCounts>();

function termCounts(conv: StoredConversation): Map<string, number> {
  const hit = cache.get(conv);
  if (hit && hit.turns === conv.turns.length) return hit.counts;
  const counts = new Map<string, number>();
  for (const turn of conv.turns) {
    for (const text of sideTexts(turn, undefined)) {
      for (const token of semanticTokens(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
    }
  }
  cache.set(conv, { turns: conv.turns.length, counts });
  return counts;
}

/** Conversations similar to the query, best first, with their scores. */
export function rankSemantic(
  candidates: readonly StoredConversation[],
  query: string,
): Array<{ conv: StoredConversation; score: number }> {
  const docs = candidates.map((conv) => ({ conv, counts: termCounts(conv) }));
  const df = new Map<string, number>();
  for (const d of docs) for (const term of d.counts.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const n = docs.length;
  const idf = (term: string): number => Math.log((n + 1) / ((df.get(term) ?? 0) + 1)) + 1;
  const weight = (count: number): number => 1 + Math.log(count);

  const queryCounts = new Map<string, number>();
  for (const token of semanticTokens(query)) queryCounts.set(token, (queryCounts.get(token) ?? 0) + 1);
  const queryVector = new Map<string, number>();
  let queryNorm = 0;
  for (const [term, count] of queryCounts) {
    const w = weight(count) * idf(term);
    queryVector.set(term, w);
    queryNorm += w * w;
  }
  if (queryNorm === 0) return [];
  queryNorm = Math.sqrt(queryNorm);

  const ranked: Array<{ conv: StoredConversation; score: number }> = [];
  for (const d of docs) {
    let dot = 0;
    for (const [term, qw] of queryVector) {
      const c = d.counts.get(term);
      if (c) dot += qw * weight(c) * idf(term);
    }
    if (dot === 0) continue;
    let norm = 0;
    for (const [term, c] of d.counts) {
      const w = weight(c) * idf(term);
      norm += w * w;
    }
    const score = dot / (Math.sqrt(norm) * queryNorm);
    if (score >= SEMANTIC_MIN_SCORE) ranked.push({ conv: d.conv, score });
  }
  const key = (c: StoredConversation): string => `${c.started_at}\u0000${c.id}`;
  return ranked.sort(
    (a, b) => b.score - a.score || (key(a.conv) < key(b.conv) ? -1 : key(a.conv) > key(b.conv) ? 1 : 0),
  );
}
