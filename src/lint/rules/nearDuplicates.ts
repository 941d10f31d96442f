import type { ParsedFile, TopicParts } from '../agentFile';
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
export function similarPairs(sets: readonly Uint32Array[], threshold: number): SimilarPair[] {
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
  const out: SimilarPair[] = [];
  for (const [key, count] of shared) {
    const a = Math.floor(key / n);
    const b = key % n;
    const similarity = count / (sets[a]!.length + sets[b]!.length - count);
    if (similarity >= threshold) out.push({ a, b, similarity });
  }
  return out.sort(byTopics);
}

/** Two topics (their indexes, `a` before `b`) and the share of shingles they have in common. */
export interface SimilarPair {
  a: number;
  b: number;
  similarity: number;
}

const byTopics = (x: SimilarPair, y: SimilarPair): number => x.a - y.a || x.b - y.b;

/** Slots of topics in a SimilarityIndex, and so pair keys (`low * MAX_SLOTS + high`), fit below this. */
const MAX_SLOTS = 2 ** 20;

/**
 * The pairs that `similarPairs` finds, kept from one check of a folder to the next: which topics hold each shingle,
 * and how many shingles each pair of topics shares. A check after a keystroke in one topic takes that topic's
 * shingles out and puts its new ones in, instead of comparing every topic again (about 20 ms for 5,000 topics).
 * Topics are told apart by their parts object, which the check session keeps while a file's text stays the same.
 */
export class SimilarityIndex {
  private readonly slots = new Map<TopicParts, number>();
  private readonly sets: Array<Uint32Array | undefined> = [];
  private readonly free: number[] = [];
  /** The slots of the topics that hold each shingle (keyed by the hash as a signed 32-bit number: a small integer). */
  private readonly holders = new Map<number, number[]>();
  /** Shingles in common per pair of slots, for the pairs that share any counted shingle. */
  private readonly shared = new Map<number, number>();
  /** The number of the check that last saw each slot's topic. */
  private readonly seenIn: number[] = [];
  private checks = 0;
  /** The topics of the last check, until the index is built (a single check, as the command line makes, never is). */
  private pending: readonly TopicParts[] | undefined;

  pairs(topics: readonly TopicParts[], threshold: number): SimilarPair[] {
    if (this.slots.size === 0 && this.pending === undefined) {
      this.pending = topics;
      return similarPairs(topics.map(topicShingles), threshold);
    }
    if (this.pending) {
      for (const t of new Set(this.pending)) this.add(t);
      this.pending = undefined;
    }
    const added = new Set<TopicParts>();
    // Known topics still there, each counted once (a slot is marked with this check's number when seen).
    const check = ++this.checks;
    let kept = 0;
    for (const t of topics) {
      const slot = this.slots.get(t);
      if (slot === undefined) added.add(t);
      else if (this.seenIn[slot] !== check) {
        this.seenIn[slot] = check;
        kept++;
      }
    }
    // Every known topic still there (the usual keystroke): nothing to look for among the known ones.
    const current = kept === this.slots.size ? undefined : new Set(topics);
    const gone = current ? [...this.slots.keys()].filter((t) => !current.has(t)) : [];
    if (gone.length + added.size > topics.length / 4 || topics.length > MAX_SLOTS / 2) {
      // Most of the folder changed (another branch, a pull): comparing everything again is quicker.
      this.clear();
      this.pending = topics;
      return similarPairs(topics.map(topicShingles), threshold);
    }
    for (const t of gone) this.remove(t);
    for (const t of added) this.add(t);
    const similar: Array<{ x: number; y: number; similarity: number }> = [];
    for (const [key, count] of this.shared) {
      const x = Math.floor(key / MAX_SLOTS);
      const y = key % MAX_SLOTS;
      const [sx, sy] = [this.sets[x], this.sets[y]];
      if (!sx || !sy) continue;
      const similarity = count / (sx.length + sy.length - count);
      if (similarity >= threshold) similar.push({ x, y, similarity });
    }
    if (similar.length === 0) return [];
    // Slots back to the topics' places in this check (only when some pair is similar enough).
    const indexOf = new Map<number, number>();
    topics.forEach((t, i) => {
      const slot = this.slots.get(t);
      if (slot !== undefined && !indexOf.has(slot)) indexOf.set(slot, i);
    });
    const out: SimilarPair[] = [];
    for (const { x, y, similarity } of similar) {
      const [i, j] = [indexOf.get(x), indexOf.get(y)];
      if (i !== undefined && j !== undefined) out.push({ a: Math.min(i, j), b: Math.max(i, j), similarity });
    }
    return out.sort(byTopics);
  }

  private clear(): void {
    this.slots.clear();
    this.sets.length = 0;
    this.free.length = 0;
    this.holders.clear();
    this.shared.clear();
  }

  /** A shingle held by 2 to COMMON_SHINGLE_TOPICS topics counts for each pair of them, as in `similarPairs`. */
  private add(topic: TopicParts): void {
    const slot = this.free.pop() ?? this.sets.length;
    const set = topicShingles(topic);
    this.sets[slot] = set;
    this.slots.set(topic, slot);
    for (const shingle of set) {
      const h = shingle | 0;
      const group = this.holders.get(h);
      if (!group) {
        this.holders.set(h, [slot]);
        continue;
      }
      if (group.length < COMMON_SHINGLE_TOPICS) for (const other of group) this.bump(other, slot, 1);
      // One holder more than a shingle may have: it no longer counts for the pairs of the others.
      else if (group.length === COMMON_SHINGLE_TOPICS) this.bumpAll(group, -1);
      group.push(slot);
    }
  }

  private remove(topic: TopicParts): void {
    const slot = this.slots.get(topic);
    const set = slot === undefined ? undefined : this.sets[slot];
    if (slot === undefined || !set) return;
    for (const shingle of set) {
      const h = shingle | 0;
      const group = this.holders.get(h) ?? [];
      const before = group.length;
      // Order within a group does not matter: the last slot takes the place of the one leaving.
      const last = group.pop();
      const at = group.indexOf(slot);
      if (last !== undefined && at !== -1) group[at] = last;
      if (before <= COMMON_SHINGLE_TOPICS) for (const other of group) this.bump(other, slot, -1);
      // Back to as many holders as a shingle may have: it counts again for the pairs of the others.
      else if (before === COMMON_SHINGLE_TOPICS + 1) this.bumpAll(group, 1);
      if (group.length === 0) this.holders.delete(h);
    }
    this.sets[slot] = undefined;
    this.slots.delete(topic);
    this.free.push(slot);
  }

  private bumpAll(group: readonly number[], by: number): void {
    group.forEach((a, x) => {
      for (const b of group.slice(x + 1)) this.bump(a, b, by);
    });
  }

  private bump(a: number, b: number, by: number): void {
    const key = a < b ? a * MAX_SLOTS + b : b * MAX_SLOTS + a;
    const count = (this.shared.get(key) ?? 0) + by;
    if (count === 0) this.shared.delete(key);
    else this.shared.set(key, count);
  }
}

function firstLine(text: string, topic: TopicParts): { start: number; end: number } {
  const start = topic.contentStart;
  const next = text.indexOf('\n', start);
  return { start, end: next === -1 ? text.length : next };
}

type TopicFile = ParsedFile & { topic: TopicParts };

/** The topics with content: read on every check of a folder of thousands of topics, so no object is made per topic. */
function topicsOf(files: readonly ParsedFile[]): TopicFile[] {
  return files.filter((f): f is TopicFile => f.topic !== undefined && hasContent(f.topic));
}

const hasContent = perObject((topic: TopicParts): boolean => /\S/.test(topic.content));

function findingsOf(topics: readonly TopicFile[], pairs: readonly SimilarPair[]): Finding[] {
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
}

/** Two topics that say mostly the same: retrieval finds either, and an answer may come from the stale one. */
export const topicNearDuplicate: FolderRule = {
  id: 'topic-near-duplicate',
  severity: 'warning',
  summary: 'two topics whose content mostly overlaps',
  scope: 'folder',
  check(files, context) {
    const topics = topicsOf(files);
    const sets = topics.map((t) => topicShingles(t.topic));
    return findingsOf(topics, similarPairs(sets, context.options.nearDuplicateSimilarity));
  },
  session() {
    const index = new SimilarityIndex();
    return (files, context) => {
      const topics = topicsOf(files);
      return findingsOf(
        topics,
        index.pairs(
          topics.map((t) => t.topic),
          context.options.nearDuplicateSimilarity,
        ),
      );
    };
  },
};
