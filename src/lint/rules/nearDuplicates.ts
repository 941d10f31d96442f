import type { TopicParts } from '../agentFile';
import type { Finding } from '../problem';
import { perObject } from '../perObject';
import type { FolderRule } from '../rule';

/** Words per shingle: long enough that ordinary phrases do not make two topics look alike. */
const SHINGLE_WORDS = 5;
/** A shingle found in more topics than this is boilerplate (a footer, a disclaimer) and tells nothing apart. */
const COMMON_SHINGLE_TOPICS = 20;
/** One shingle in this many is compared (see `shingles`). */
const SAMPLE = 4;
/** Topics shorter than this keep every shingle: a sample of a few would say little. */
const SHORT_TOPIC_WORDS = 60;

/** Letters and digits below 128 in lower case; 0 for every other character below 128 (a word's end). */
const ASCII_WORD_CHAR = new Uint8Array(128).map((_, c) =>
  (c >= 97 && c <= 122) || (c >= 48 && c <= 57) ? c : c >= 65 && c <= 90 ? c + 32 : 0,
);
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Buffers reused from one content to the next: shingling 1,000 topics allocates their results only. */
let wordBuffer = new Int32Array(1024);
let shingleBuffer = new Uint32Array(1024);

/**
 * The words of a text as 32-bit hashes (FNV-1a of each word in lower case) into `wordBuffer`, read in one pass
 * without building strings: letters and digits make words; every character past ASCII counts as a letter.
 * Resolves to the number of words.
 */
function hashWords(text: string): number {
  let n = 0;
  let h = 0;
  let inWord = false;
  const length = text.length;
  for (let i = 0; i <= length; i++) {
    let c = i < length ? text.charCodeAt(i) : 0;
    if (c < 128) c = ASCII_WORD_CHAR[c]!;
    if (c !== 0) {
      if (!inWord) h = FNV_OFFSET;
      h = Math.imul(h ^ c, FNV_PRIME);
      inWord = true;
    } else if (inWord) {
      if (n === wordBuffer.length) {
        const grown = new Int32Array(n * 2);
        grown.set(wordBuffer);
        wordBuffer = grown;
      }
      wordBuffer[n++] = h;
      inWord = false;
    }
  }
  return n;
}

/** A hash of a run of word hashes. */
function combine(from: number, to: number): number {
  let h = FNV_OFFSET;
  for (let i = from; i < to; i++) h = Math.imul(h ^ wordBuffer[i]!, FNV_PRIME);
  return h >>> 0;
}

/** The distinct shingle hashes of a content, sorted. */
export function shingles(content: string): Uint32Array {
  const words = hashWords(content);
  if (shingleBuffer.length < words + 1) shingleBuffer = new Uint32Array(words * 2 + 1);
  let k = 0;
  if (words > 0 && words < SHINGLE_WORDS) shingleBuffer[k++] = combine(0, words);
  // Short topics keep every shingle: a sample of a few would say little.
  const keepAll = words < SHORT_TOPIC_WORDS;
  for (let i = 0; i + SHINGLE_WORDS <= words; i++) {
    const h = combine(i, i + SHINGLE_WORDS);
    // One shingle in SAMPLE is kept, chosen by its hash, so two topics keep the same ones: the share stays an
    // estimate of the whole share at a fraction of the work.
    if (keepAll || h % SAMPLE === 0) shingleBuffer[k++] = h;
  }
  const sorted = shingleBuffer.slice(0, k).sort();
  let distinct = 0;
  for (let i = 0; i < k; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinct++] = sorted[i]!;
  return distinct === k ? sorted : sorted.slice(0, distinct);
}

/**
 * Shingles of each topic, kept while the check session keeps the topic's parsed file (its text unchanged), so
 * typing in one topic does not shingle the other 999 again. Keyed by the parts object, not the content: a map by
 * content would hash every topic's whole text once more.
 */
const topicShingles = perObject((topic: TopicParts): Uint32Array => shingles(topic.content));

/** Topic indexes fit in the low bits of a shingle's entry: a folder holds fewer topics than this. */
const MAX_TOPICS = 2 ** 20;

/**
 * The share of shingles two topics have in common (Jaccard), for every pair that shares any, at `threshold` or
 * above. Every (shingle, topic) goes into one sorted array, so topics sharing a shingle sit side by side.
 */
export function similarPairs(
  sets: readonly Uint32Array[],
  threshold: number,
): Array<{ a: number; b: number; similarity: number }> {
  const n = Math.min(sets.length, MAX_TOPICS);
  let total = 0;
  for (let i = 0; i < n; i++) total += sets[i]!.length;
  const entries = new Float64Array(total);
  let k = 0;
  // Indexed loops throughout: this runs once per check, mostly before the JIT has compiled it, where an iterator
  // per element costs more than the work.
  for (let i = 0; i < n; i++) {
    const set = sets[i]!;
    for (let j = 0; j < set.length; j++) entries[k++] = set[j]! * MAX_TOPICS + i;
  }
  entries.sort();
  const shared = new Map<number, number>();
  let start = 0;
  let current = total > 0 ? Math.floor(entries[0]! / MAX_TOPICS) : -1;
  for (let end = 1; end <= total; end++) {
    const h = end < total ? Math.floor(entries[end]! / MAX_TOPICS) : -1;
    if (h === current) continue;
    const count = end - start;
    if (count >= 2 && count <= COMMON_SHINGLE_TOPICS)
      for (let x = start; x < end; x++)
        for (let y = x + 1; y < end; y++) {
          const key = (entries[x]! % MAX_TOPICS) * n + (entries[y]! % MAX_TOPICS);
          shared.set(key, (shared.get(key) ?? 0) + 1);
        }
    start = end;
    current = h;
  }
  const out: Array<{ a: number; b: number; similarity: number }> = [];
  for (const [key, count] of shared) {
    const a = Math.floor(key / n);
    const b = key % n;
    const similarity = count / (sets[a]!.length + sets[b]!.length - count);
    if (similarity >= threshold) out.push({ a, b, similarity });
  }
  return out;
}

function firstLine(text: string, topic: TopicParts): { start: number; end: number } {
  const start = topic.contentStart;
  const next = text.indexOf('\n', start);
  return { start, end: next === -1 ? text.length : next };
}

/** Two topics that say mostly the same: retrieval finds either, and an answer may come from the stale one. */
export const topicNearDuplicate: FolderRule = {
  id: 'topic-near-duplicate',
  severity: 'warning',
  summary: 'two topics whose content mostly overlaps',
  scope: 'folder',
  check(files, context) {
    const topics = files.flatMap(({ path, text, topic }) =>
      topic && topic.content.trim() !== '' ? [{ path, text, topic }] : [],
    );
    const pairs = similarPairs(
      topics.map((t) => topicShingles(t.topic)),
      context.options.nearDuplicateSimilarity,
    );
    const out: Finding[] = [];
    for (const { a, b, similarity } of pairs) {
      const percent = Math.round(similarity * 100);
      const [first, second] = [topics[a], topics[b]];
      if (!first || !second) continue;
      for (const [self, other] of [
        [first, second],
        [second, first],
      ] as const)
        out.push({
          path: self.path,
          ...firstLine(self.text, self.topic),
          message: `This topic's content overlaps ${percent}% with "${other.topic.name}" (${other.path}): merge them or make each about one thing`,
          related: [{ path: other.path, ...firstLine(other.text, other.topic), message: 'the overlapping topic' }],
        });
    }
    return out;
  },
};
