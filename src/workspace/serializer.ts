import type * as Yaml from 'yaml';

/**
 * yaml is required on the first front matter that is not in the canonical form (canonicalFront reads that one):
 * loading it costs more than checking a folder of canonical topics, and most folders hold nothing else.
 */
let yaml: typeof Yaml | undefined;
function parseYaml(text: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  yaml ??= require('yaml') as typeof Yaml;
  return yaml.parse(text);
}

/**
 * The one place where platform content becomes file text and file text becomes platform
 * content. Every writer (check out, pull, push, branch switch) and the read-only documents of
 * the Agents view use it, so equal content always has equal text: a pull never shows a change
 * nobody made, and a read-only document diffs cleanly against its file.
 *
 * Canonical forms:
 *   behavior.md        the behavior, then one newline
 *   knowledge/*.md     `---`, YAML front matter `name` and `id` (each bare when YAML reads it back
 *                      unchanged, else JSON-quoted), `---`, a blank line, the content, one newline
 *   realtime/*.json    the variables as JSON, keys sorted, two-space indent, one newline
 */

export type Doc =
  | { kind: 'behavior'; behavior: string }
  | { kind: 'topic'; name: string; content: string; topicId?: string }
  | { kind: 'realtime'; config: string; variables: Record<string, unknown> };

/** A file the mirror cannot read as content; `problem` says what to fix. */
export interface Unreadable {
  problem: string;
}

export function behaviorText(behavior: string): string {
  return `${behavior}\n`;
}

export function topicText(topic: { name: string; content: string; topicId?: string }): string {
  const id = topic.topicId ? `id: ${yamlScalar(topic.topicId)}\n` : '';
  return `---\nname: ${yamlScalar(topic.name)}\n${id}---\n\n${topic.content}\n`;
}

/** Text YAML reads as this very string when written bare: starts with a letter, no `: `, `#` or quotes at the start. */
const PLAIN_SCALAR = /^[A-Za-z](?:[A-Za-z0-9 _.,()&/'+-]*[A-Za-z0-9_.)'])?$/;
const YAML_KEYWORD = /^(?:true|false|null|yes|no|on|off|y|n)$/i;

/**
 * A front-matter value: bare when YAML would read it back unchanged, else a JSON string (which
 * YAML reads as a double-quoted scalar). One value, one form, on one line.
 */
function yamlScalar(value: string): string {
  return PLAIN_SCALAR.test(value) && !YAML_KEYWORD.test(value) ? value : JSON.stringify(value);
}

/** The canonical front matter read without a YAML parser; undefined when it is anything else. */
function canonicalFront(front: string): Record<string, unknown> | undefined {
  const m = /^name: (.*)(?:\nid: (.*))?$/.exec(front);
  if (!m) return undefined;
  const read = (v: string): string | undefined => {
    if (v.startsWith('"')) {
      try {
        const s: unknown = JSON.parse(v);
        return typeof s === 'string' ? s : undefined;
      } catch {
        return undefined;
      }
    }
    return PLAIN_SCALAR.test(v) && !YAML_KEYWORD.test(v) ? v : undefined;
  };
  const name = read(m[1]!);
  const id = m[2] === undefined ? undefined : read(m[2]);
  if (name === undefined || (m[2] !== undefined && id === undefined)) return undefined;
  return id === undefined ? { name } : { name, id };
}

export function realtimeText(variables: Record<string, unknown>): string {
  return `${JSON.stringify(sortKeys(variables), null, 2)}\n`;
}

export function docText(doc: Doc): string {
  switch (doc.kind) {
    case 'behavior':
      return behaviorText(doc.behavior);
    case 'topic':
      return topicText(doc);
    case 'realtime':
      return realtimeText(doc.variables);
  }
}

/** The one trailing newline the canonical form adds, removed (a file without it is read as is). */
function withoutFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

export function parseBehavior(text: string): Doc {
  return { kind: 'behavior', behavior: withoutFinalNewline(text) };
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/**
 * The topic name a file without one in its front matter stands for, as a person reads the file name:
 * `gift-vouchers.md` is "Gift vouchers" (dashes and underscores are spaces, the first letter a capital).
 */
export function topicNameOfFile(fileName: string): string {
  const base = fileName.replace(/\.md$/, '');
  const words = base.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return words ? words.charAt(0).toLocaleUpperCase('en') + words.slice(1) : base;
}

/**
 * A topic file. Without front matter, the file name read as words is the topic's name (topicNameOfFile); an id
 * that is not a string is ignored, so the file counts as a new topic rather than a broken one.
 */
export function parseTopic(text: string, fileName: string): Doc | Unreadable {
  const m = FRONT_MATTER.exec(text);
  if (!m) return { kind: 'topic', name: topicNameOfFile(fileName), content: withoutFinalNewline(text) };
  let front: unknown;
  try {
    front = m[1]!.trim() === '' ? {} : (canonicalFront(m[1]!) ?? parseYaml(m[1]!));
  } catch (err) {
    return { problem: `The front matter is not valid YAML: ${(err as Error).message.split('\n')[0]}` };
  }
  if (front === null || typeof front !== 'object' || Array.isArray(front))
    return { problem: 'The front matter must be fields such as "name: Opening hours".' };
  const f = front as Record<string, unknown>;
  const name = typeof f.name === 'string' || typeof f.name === 'number' ? String(f.name) : topicNameOfFile(fileName);
  if (name === '') return { problem: 'The front matter needs a name.' };
  let body = text.slice(m[0].length);
  // The blank line after the front matter is layout, not content.
  if (body.startsWith('\r\n')) body = body.slice(2);
  else if (body.startsWith('\n')) body = body.slice(1);
  const topicId = typeof f.id === 'string' && f.id.trim() !== '' ? f.id.trim() : undefined;
  return { kind: 'topic', name, content: withoutFinalNewline(body), ...(topicId ? { topicId } : {}) };
}

export function parseRealtime(text: string, config: string): Doc | Unreadable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { problem: `Not valid JSON: ${(err as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'A real-time config file holds one JSON object of variables.' };
  return { kind: 'realtime', config, variables: value as Record<string, unknown> };
}

export function isUnreadable(doc: Doc | Unreadable): doc is Unreadable {
  return 'problem' in doc;
}

/** Objects with their keys in order, at every depth (lists keep their order), so equal values print alike. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(obj)
        .sort()
        .map((k) => [k, sortKeys(obj[k])]),
    );
  }
  return value;
}

/** Equal JSON values, whatever the order of their keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}
