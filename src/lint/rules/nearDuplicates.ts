import type { ParsedFile } from '../agentFile';
import type { Finding } from '../problem';
import type { FolderRule } from '../rule';

/** Words per shingle: long enough that ordinary phrases do not make two topics look alike. */
const SHINGLE_WORDS = 5;
/** A shingle found in more topics than this is boilerplate (a footer, a disclaimer) and tells nothing apart. */
const COMMON_SHINGLE_TOPICS = 50;

/** FNV-1a over a string: a 32-bit hash, enough to tell shingles apart in one folder. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Shingles of a content, kept by content so typing in one topic does not shingle the other 999 again. */
const cache = new Map<string, Uint32Array>();

export function shingles(content: string): Uint32Array {
  const known = cache.get(content);
  if (known) return known;
  const words = content.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const set = new Set<number>();
  if (words.length > 0 && words.length < SHINGLE_WORDS) set.add(hash(words.join(' ')));
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) set.add(hash(words.slice(i, i + SHINGLE_WORDS).join(' ')));
  const out = Uint32Array.from(set);
  if (cache.size > 20_000) cache.clear();
  cache.set(content, out);
  return out;
}

/** The share of shingles two topics have in common (Jaccard), for every pair that shares any, above `threshold`. */
export function similarPairs(
  sets: readonly Uint32Array[],
  threshold: number,
): Array<{ a: number; b: number; similarity: number }> {
  const postings = new Map<number, number[]>();
  sets.forEach((set, i) => {
    for (const h of set) {
      const list = postings.get(h);
      if (list) list.push(i);
      else postings.set(h, [i]);
    }
  });
  const shared = new Map<number, number>();
  const n = sets.length;
  for (const list of postings.values()) {
    if (list.length < 2 || list.length > COMMON_SHINGLE_TOPICS) continue;
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) {
        const key = list[x]! * n + list[y]!;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
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
