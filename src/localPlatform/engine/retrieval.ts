import type { StoredTopic } from '../agents/model';
import { terms } from './language';

/** BM25 parameters: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/** A topic's name says what it is about, so its words count as much as this many mentions. */
const NAME_WEIGHT = 3;
/** A near match (one word a prefix of the other, like deliver/delivery) counts this much. */
const NEAR_WEIGHT = 0.7;
const NEAR_MIN_LENGTH = 4;

/** Below this score a question is out of the agent's domain. */
export const OOD_THRESHOLD = 1.0;

interface IndexedTopic {
  readonly topic: StoredTopic;
  readonly tf: ReadonlyMap<string, number>;
  readonly length: number;
}

export interface TopicMatch {
  readonly topic: StoredTopic;
  readonly score: number;
}

/**
 * A BM25 index over the knowledge topics of one version of an agent's content. The inverse
 * document frequency is smoothed (`ln((1+N)/(1+n)) + 1`) so that an agent with a single topic
 * still scores a match above the out-of-domain threshold.
 */
export class TopicIndex {
  private readonly docs: IndexedTopic[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(topics: readonly StoredTopic[]) {
    this.docs = topics.map((topic) => {
      const tf = new Map<string, number>();
      for (const t of terms(topic.name)) tf.set(t, (tf.get(t) ?? 0) + NAME_WEIGHT);
      for (const t of terms(topic.content)) tf.set(t, (tf.get(t) ?? 0) + 1);
      let length = 0;
      for (const n of tf.values()) length += n;
      return { topic, tf, length };
    });
    for (const d of this.docs) for (const t of d.tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.avgLength = this.docs.reduce((s, d) => s + d.length, 0) / Math.max(1, this.docs.length);
  }

  get size(): number {
    return this.docs.length;
  }

  /** Topics ranked by score for a question, best first; topics with no match are left out. */
  rank(question: string): TopicMatch[] {
    const query = [...new Set(terms(question))];
    if (query.length === 0 || this.docs.length === 0) return [];
    const n = this.docs.length;
    const matches: TopicMatch[] = [];
    for (const d of this.docs) {
      let score = 0;
      for (const q of query) {
        const { term, weight } = this.bestTerm(q, d);
        if (!term) continue;
        const f = d.tf.get(term)!;
        const idf = Math.log((1 + n) / (1 + (this.df.get(term) ?? 0))) + 1;
        const norm = f + K1 * (1 - B + (B * d.length) / (this.avgLength || 1));
        score += weight * idf * ((f * (K1 + 1)) / norm);
      }
      if (score > 0) matches.push({ topic: d.topic, score });
    }
    // A stable sort: ties go to the topic listed first, so answers do not flip between runs.
    return matches.sort((a, b) => b.score - a.score);
  }

  private bestTerm(q: string, d: IndexedTopic): { term?: string; weight: number } {
    if (d.tf.has(q)) return { term: q, weight: 1 };
    if (q.length < NEAR_MIN_LENGTH) return { weight: 0 };
    let best: string | undefined;
    for (const t of d.tf.keys()) {
      if (t.length < NEAR_MIN_LENGTH) continue;
      if ((t.startsWith(q) || q.startsWith(t)) && (!best || d.tf.get(t)! > d.tf.get(best)!)) best = t;
    }
    return best ? { term: best, weight: NEAR_WEIGHT } : { weight: 0 };
  }
}
