/**
 * Where things live in an agent's folder:
 *
 *   agent.json                  which agent, profile and branch (no secrets), see agentManifest.ts
 *   behavior.md                 the branch's behavior prompt
 *   knowledge/<topic-slug>.md   one file per knowledge-base topic, front matter name and id
 *   realtime/<config>.json      the variables of one real-time config
 *   .workbench/base.json        what the platform held at the last pull or push (three-way merges)
 *   .workbench/.gitignore       keeps .workbench out of git
 *
 * Each platform document has a key that outlives renames of its file: `behavior`,
 * `topic:<topicId>`, `realtime:<config>`, and `new:<path>` for a topic file not yet pushed.
 */
export const BEHAVIOR_FILE = 'behavior.md';
export const KNOWLEDGE_DIR = 'knowledge';
export const REALTIME_DIR = 'realtime';
export const WORKBENCH_DIR = '.workbench';
export const BASE_FILE = `${WORKBENCH_DIR}/base.json`;
export const WORKBENCH_GITIGNORE = `${WORKBENCH_DIR}/.gitignore`;
/** Everything in .workbench is the editor's own bookkeeping: nothing to commit. */
export const WORKBENCH_GITIGNORE_TEXT =
  '# Agent Workbench keeps its base snapshot here; it is not part of the agent.\n*\n';

export type DocKey = string;
export const BEHAVIOR_KEY: DocKey = 'behavior';
export const topicKey = (topicId: string): DocKey => `topic:${topicId}`;
export const realtimeKey = (config: string): DocKey => `realtime:${config}`;
export const newTopicKey = (path: string): DocKey => `new:${path}`;

export type DocKind = 'behavior' | 'topic' | 'realtime';

export function kindOfKey(key: DocKey): DocKind {
  if (key === BEHAVIOR_KEY) return 'behavior';
  return key.startsWith('realtime:') ? 'realtime' : 'topic';
}

/** The topic id of a `topic:` key, undefined for a topic not yet pushed. */
export function topicIdOfKey(key: DocKey): string | undefined {
  return key.startsWith('topic:') ? key.slice('topic:'.length) : undefined;
}

export function configOfKey(key: DocKey): string {
  return key.slice('realtime:'.length);
}

/** What a mirrored file is, from its path; undefined for files the mirror does not own. */
export function kindOfPath(path: string): DocKind | undefined {
  if (path === BEHAVIOR_FILE) return 'behavior';
  if (/^knowledge\/[^/]+\.md$/.test(path)) return 'topic';
  if (/^realtime\/[^/]+\.json$/.test(path)) return 'realtime';
  return undefined;
}

/** `realtime/store-settings.json` → `store-settings`. */
export function configOfPath(path: string): string {
  return path.slice(REALTIME_DIR.length + 1, -'.json'.length);
}

export function realtimePath(config: string): string {
  return `${REALTIME_DIR}/${config}.json`;
}

/** A file name for a topic: its name in lower case, words joined by dashes ("Opening hours" → opening-hours). */
export function topicSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'topic';
}

/** The path for a new topic file; topics of equal names are told apart by their id. */
export function topicPath(name: string, topicId: string, taken: ReadonlySet<string>): string {
  const plain = `${KNOWLEDGE_DIR}/${topicSlug(name)}.md`;
  if (!taken.has(plain)) return plain;
  const withId = `${KNOWLEDGE_DIR}/${topicSlug(name)}-${topicId}.md`;
  if (!taken.has(withId)) return withId;
  for (let i = 2; ; i++) {
    const numbered = `${KNOWLEDGE_DIR}/${topicSlug(name)}-${topicId}-${i}.md`;
    if (!taken.has(numbered)) return numbered;
  }
}

/** Where a document the folder does not have yet is written: a topic's file is named after it. */
export function pathForDoc(key: DocKey, topicName: string | undefined, taken: ReadonlySet<string>): string {
  switch (kindOfKey(key)) {
    case 'behavior':
      return BEHAVIOR_FILE;
    case 'realtime':
      return realtimePath(configOfKey(key));
    case 'topic':
      return topicPath(topicName ?? 'topic', topicIdOfKey(key) ?? 'new', taken);
  }
}
