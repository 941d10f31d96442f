import type { ParsedFile } from '../agentFile';
import type { Finding } from '../problem';
import type { FolderRule } from '../rule';

/** Words per shingle: long enough that ordinary phrases do not make two topics look alike. */
const SHINGLE_WORDS = 5;
/** A shingle found in more topics than this is boilerplate (a footer, a disclaimer) and tells nothing apart. */
const COMMON_SHINGLE_TOPICS = 20;
/** One shingle in this many is compared (see `shingles`). */
const SAMPLE = 4;
/** Topics shorter than this keep every shingle: a sample of a few would say little. */
const SHORT_TOPIC_WORDS = 60;

/**
 * The words of a text as 32-bit hashes (FNV-1a of each word in lower case), read in one pass without building
 * strings: letters and digits make words; every character past ASCII counts as a letter.
 */
function wordHashes(text: string): number[] {
  const out: number[] = [];
  let h = 0;
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    let c = i < text.length ? text.charCodeAt(i) : 32;
    if (c >= 65 && c <= 90) c += 32;
    const wordChar = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c > 127;
    if (wordChar) {
      if (!inWord) h = 0x811c9dc5;
      h = Math.imul(h ^ c, 0x01000193);
      inWord = true;
    } else if (inWord) {
      out.push(h >>> 0);
      inWord = false;
    }
  }
  return out;
}

/** A hash of a run of word hashes. */
function combine(words: readonly number[], from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  return h >>> 0;
}

/** Shingles of a content, kept by content so typing in one topic does not shingle the other 999 again. */
const cache = new Map<string, Uint32Array>();

export function shingles(content: string): Uint32Array {
  const known = cache.get(content);
  if (known) return known;
  const words = wordHashes(content);
  const set = new Set<number>();
  if (words.length > 0 && words.length < SHINGLE_WORDS) set.add(combine(words, 0, words.length));
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) {
    const h = combine(words, i, i + SHINGLE_WORDS);
    // One shingle in SAMPLE is kept, chosen by its hash, so two topics keep the same ones: the share stays an
    // estimate of the whole share at a fraction of the work. Short topics keep all: a sample would say little.
    if (h % SAMPLE === 0 || words.length < SHORT_TOPIC_WORDS) set.add(h);
  }
  const out = Uint32Array.from(set);
  if (cache.size > 20_000) cache.clear();
  cache.set(content, out);
  return out;
}

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
  for (let i = 0; i < n; i++) for (const h of sets[i]!) entries[k++] = h * MAX_TOPICS + i;
  entries.sort();
  const shared = new Map<number, number>();
  for (let start = 0; start < total;) {
    const h = Math.floor(entries[start]! / MAX_TOPICS);
    let end = start + 1;
    while (end < total && Math.floor(entries[end]! / MAX_TOPICS) === h) end++;
    const count = end - start;
    if (count >= 2 && count <= COMMON_SHINGLE_TOPICS)
      for (let x = start; x < end; x++)
        for (let y = x + 1; y < end; y++) {
          const key = (entries[x]! % MAX_TOPICS) * n + (entries[y]! % MAX_TOPICS);
          shared.set(key, (shared.get(key) ?? 0) + 1);
        }
    start = end;
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

function firstLine(file: ParsedFile): { start: number; end: number } {
  const start = file.topic!.contentStart;
  const next = file.text.indexOf('\n', start);
  return { start, end: next === -1 ? file.text.length : next };
}

/** Two topics that say mostly the same: retrieval finds either, and an answer may come from the stale one. */
export const topicNearDuplicate: FolderRule = {
  id: 'topic-near-duplicate',
  severity: 'warning',
  summary: 'two topics whose content mostly overlaps',
  scope: 'folder',
  check(files, context) {
    const topics = files.filter((f) => f.topic && f.topic.content.trim() !== '');
    const pairs = similarPairs(
      topics.map((f) => shingles(f.topic!.content)),
      context.options.nearDuplicateSimilarity,
    );
    const out: Finding[] = [];
    for (const { a, b, similarity } of pairs) {
      const percent = Math.round(similarity * 100);
      for (const [self, other] of [
        [topics[a]!, topics[b]!],
        [topics[b]!, topics[a]!],
      ] as const)
        out.push({
          path: self.path,
          ...firstLine(self),
          message: `This topic's content overlaps ${percent}% with "${other.topic!.name}" (${other.path}): merge them or make each about one thing`,
          related: [{ path: other.path, ...firstLine(other), message: 'the overlapping topic' }],
        });
    }
    return out;
  },
};
