import type { AgentContent, StoredTopic } from '../agents/model';
import { servedContent } from '../agents/served';
import type { Environment } from '../../contract/common';
import type { Platform } from '../platform';
import { slugOf } from './language';
import { type Persona, personaOf } from './persona';
import { TopicIndex } from './retrieval';

/** What the engine knows about one version of an agent's content, built once and reused. */
export interface Knowledge {
  readonly persona: Persona;
  readonly index: TopicIndex;
  readonly topicNames: readonly string[];
  readonly slugs: ReadonlyMap<string, string>;
}

interface Cached {
  readonly signature: string;
  readonly knowledge: Knowledge;
}

/**
 * Content objects may be edited in place (a draft on main), so a cached index is checked
 * against a cheap signature of the content before it is reused.
 */
const cache = new WeakMap<AgentContent, Cached>();

function signatureOf(content: AgentContent): string {
  let sig = `${content.behavior.length}:${content.behavior}`;
  for (const t of Object.values(content.topics))
    sig += `\u0000${t.topicId}\u0001${t.updatedAt}\u0001${t.name}\u0001${t.content.length}`;
  return sig;
}

function build(content: AgentContent): Knowledge {
  // Topics keep the order they were written in (a stable sort by creation time).
  const topics: StoredTopic[] = Object.values(content.topics).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return {
    persona: personaOf(content.behavior),
    index: new TopicIndex(topics),
    topicNames: topics.map((t) => t.name),
    slugs: new Map(topics.map((t) => [t.topicId, slugOf(t.name)])),
  };
}

export function knowledgeOf(content: AgentContent): Knowledge {
  const signature = signatureOf(content);
  const hit = cache.get(content);
  if (hit && hit.signature === signature) return hit.knowledge;
  const knowledge = build(content);
  cache.set(content, { signature, knowledge });
  return knowledge;
}

const EMPTY: AgentContent = { behavior: '', topics: {} };

/** The knowledge an agent serves in an environment; an agent that no longer exists knows nothing. */
export function servedKnowledge(platform: Platform, agentId: string, environment: Environment): Knowledge {
  let content: AgentContent;
  try {
    content = servedContent(platform, agentId, environment);
  } catch {
    content = EMPTY;
  }
  return knowledgeOf(content);
}
