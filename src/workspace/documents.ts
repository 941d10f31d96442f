import type { BaseSnapshot } from './baseStore';
import type { MirrorFileSystem } from './fileSystem';
import {
  BEHAVIOR_FILE,
  BEHAVIOR_KEY,
  configOfPath,
  type DocKey,
  KNOWLEDGE_DIR,
  kindOfKey,
  kindOfPath,
  newTopicKey,
  REALTIME_DIR,
  realtimeKey,
  topicIdOfKey,
  topicKey,
} from './layout';
import {
  type Doc,
  docText,
  isUnreadable,
  parseBehavior,
  parseRealtime,
  parseTopic,
  type Unreadable,
} from './serializer';

/** A mirrored file as found on disk, tied to the document it stands for. */
export interface LocalDoc {
  key: DocKey;
  path: string;
  /** The file's text as it is. */
  text: string;
  /** The text in canonical form, comparable with the base and the platform; undefined when unreadable. */
  canonical: string | undefined;
  /** What is wrong with a file that cannot be read as content. */
  problem?: string;
}

/** The platform's side: each document in canonical form. */
export type RemoteDocs = Map<DocKey, Doc>;

/** Reads a file's text as a document of the given kind (undefined for paths the mirror does not own). */
export function parseFile(path: string, text: string): Doc | Unreadable | undefined {
  switch (kindOfPath(path)) {
    case 'behavior':
      return parseBehavior(text);
    case 'topic':
      return parseTopic(text, path.slice(KNOWLEDGE_DIR.length + 1));
    case 'realtime':
      return parseRealtime(text, configOfPath(path));
    default:
      return undefined;
  }
}

/** A document of a key from canonical text (base entries, conflict records), with the key's topic id. */
export function docOf(key: DocKey, path: string, text: string): Doc | undefined {
  const doc = parseFile(path, text);
  if (!doc || isUnreadable(doc)) return undefined;
  return withKeyId(key, doc);
}

function withKeyId(key: DocKey, doc: Doc): Doc {
  if (doc.kind !== 'topic') return doc;
  const topicId = topicIdOfKey(key);
  const { topicId: _ignored, ...rest } = doc;
  return topicId ? { ...rest, topicId } : rest;
}

/** The key a document names itself by; undefined for a topic without an id (its file decides). */
function docKeyOf(doc: Doc): DocKey | undefined {
  switch (doc.kind) {
    case 'behavior':
      return BEHAVIOR_KEY;
    case 'topic':
      return doc.topicId ? topicKey(doc.topicId) : undefined;
    case 'realtime':
      return realtimeKey(doc.config);
  }
}

/** Every mirrored file of the folder: behavior.md, knowledge/*.md, realtime/*.json. */
export async function listMirroredFiles(fs: MirrorFileSystem): Promise<string[]> {
  const [root, knowledge, realtime] = await Promise.all([fs.list(''), fs.list(KNOWLEDGE_DIR), fs.list(REALTIME_DIR)]);
  return [
    ...root.filter((n) => n === BEHAVIOR_FILE),
    ...knowledge.filter((n) => n.endsWith('.md')).map((n) => `${KNOWLEDGE_DIR}/${n}`),
    ...realtime.filter((n) => n.endsWith('.json')).map((n) => `${REALTIME_DIR}/${n}`),
  ];
}

/**
 * Reads the folder's files and ties each to a document key. A topic file is its topic by the id
 * in its front matter, so renaming the file keeps the topic. A file that is exactly its base
 * text is taken as is without parsing (status of a large agent stays fast). When two files name
 * one id, the one at the base's path keeps it and the other becomes a new topic. A file without
 * an id keeps the topic of the base at its path, or (given the platform's side) the topic with
 * the same name and content that nobody mirrors yet, so a push whose answer was lost does not
 * create the topic twice.
 */
export async function readLocal(
  fs: MirrorFileSystem,
  base: BaseSnapshot,
  remote?: RemoteDocs,
): Promise<Map<DocKey, LocalDoc>> {
  const paths = await listMirroredFiles(fs);
  const texts = await fs.readMany(paths);
  const keyOfBasePath = new Map<string, DocKey>();
  for (const [key, entry] of Object.entries(base.docs)) keyOfBasePath.set(entry.path, key);

  const out = new Map<DocKey, LocalDoc>();
  const pending: { path: string; text: string; doc: Doc | Unreadable }[] = [];
  paths.forEach((path, i) => {
    const text = texts[i];
    if (text === undefined) return;
    const baseKey = keyOfBasePath.get(path);
    if (baseKey !== undefined && base.docs[baseKey]!.text === text && !out.has(baseKey)) {
      out.set(baseKey, { key: baseKey, path, text, canonical: text });
      return;
    }
    pending.push({ path, text, doc: parseFile(path, text)! });
  });

  const idless: { path: string; text: string; doc: Doc & { kind: 'topic' } }[] = [];
  // Files at their base path first, so they keep their id against a copy elsewhere.
  const atHome = (p: { path: string; doc: Doc | Unreadable }): number =>
    Number(!isUnreadable(p.doc) && keyOfBasePath.get(p.path) === docKeyOf(p.doc));
  pending.sort((a, b) => atHome(b) - atHome(a) || a.path.localeCompare(b.path));
  for (const { path, text, doc } of pending) {
    if (isUnreadable(doc)) {
      const key = keyOfBasePath.get(path) ?? unreadableKey(path);
      if (!out.has(key)) out.set(key, { key, path, text, canonical: undefined, problem: doc.problem });
      else
        out.set(newTopicKey(path), { key: newTopicKey(path), path, text, canonical: undefined, problem: doc.problem });
      continue;
    }
    const key = docKeyOf(doc);
    if (doc.kind === 'topic' && (key === undefined || out.has(key))) {
      idless.push({ path, text, doc });
      continue;
    }
    if (key !== undefined) out.set(key, { key, path, text, canonical: docText(doc) });
  }

  const claimed = new Set(out.keys());
  const adoptable = remote
    ? [...remote].filter(([key, doc]) => doc.kind === 'topic' && !claimed.has(key) && !base.docs[key])
    : [];
  for (const { path, text, doc } of idless) {
    const { topicId: _copied, ...plain } = doc;
    let key = keyOfBasePath.get(path);
    if (key === undefined || kindOfKey(key) !== 'topic' || out.has(key)) {
      const i = adoptable.findIndex(
        ([k, r]) => r.kind === 'topic' && r.name === plain.name && r.content === plain.content && !out.has(k),
      );
      key = i >= 0 ? adoptable.splice(i, 1)[0]![0] : newTopicKey(path);
    }
    const topicId = topicIdOfKey(key);
    out.set(key, { key, path, text, canonical: docText(topicId ? { ...plain, topicId } : plain) });
  }
  return out;
}

/** An unreadable file not in the base: its key follows from its path as far as it can. */
function unreadableKey(path: string): DocKey {
  return kindOfPath(path) === 'realtime' ? realtimeKey(configOfPath(path)) : newTopicKey(path);
}
