import * as jsonc from 'jsonc-parser';
import { jsonSyntaxProblem } from '../core/jsonSyntax';
import { plainL10n } from '../core/l10n';
import { AGENT_MANIFEST } from '../workspace/agentManifest';
import { KNOWLEDGE_DIR, kindOfPath } from '../workspace/layout';
import { isUnreadable, parseTopic } from '../workspace/serializer';

/** A file of an agent folder as the checks get it: its text, or why it has none. */
export interface AgentFileInput {
  /** Relative to the agent folder, with forward slashes. */
  path: string;
  text?: string;
  /** Why the file could not be read as text (binary, invalid UTF-8, too large). */
  unreadable?: string;
}

export type FileKind = 'manifest' | 'behavior' | 'topic' | 'realtime' | 'other';

/** A topic file in parts, with where its name and content are in the text. */
export interface TopicParts {
  name: string;
  /** The name's place in the front matter; both at 0 when the name comes from the file name. */
  nameStart: number;
  nameEnd: number;
  content: string;
  contentStart: number;
}

/** A file read once for every rule. */
export interface ParsedFile {
  path: string;
  text: string;
  kind: FileKind;
  /**
   * Set when the file cannot be checked further: what is wrong and where; `json` when it is JSON that does not
   * parse (which an editor's JSON language support marks too).
   */
  unreadable?: { message: string; start: number; end: number; json?: true };
  topic?: TopicParts;
  /** The value of a JSON file (agent.json, real-time configs) that parses. */
  json?: unknown;
}

/** Files larger than this are not checked: the editor stays responsive and the platform would refuse them anyway. */
export const MAX_FILE_CHARS = 2_000_000;

export function kindOf(path: string): FileKind {
  if (path === AGENT_MANIFEST) return 'manifest';
  return kindOfPath(path) ?? 'other';
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;
const NAME_LINE = /^name:[ \t]*(.*?)[ \t]*$/m;
const EMPTY_SCALAR = /^(?:|""|''|~|null)$/;

function lineEnd(text: string, from: number): number {
  const i = text.indexOf('\n', from);
  return i === -1 ? text.length : i;
}

function parseTopicParts(path: string, text: string): Pick<ParsedFile, 'topic' | 'unreadable'> {
  const fileName = path.slice(KNOWLEDGE_DIR.length + 1);
  const [block, front] = FRONT_MATTER.exec(text) ?? [];
  const nameLine = front === undefined ? null : NAME_LINE.exec(front);
  const [line, name] = nameLine ?? [];
  // Where the front matter's text starts in the file: after the first `---` line.
  const frontStart = block !== undefined && front !== undefined ? block.indexOf(front) : 0;
  const nameStart =
    nameLine && line !== undefined && name !== undefined ? frontStart + nameLine.index + line.length - name.length : 0;
  const nameEnd = name === undefined ? 0 : nameStart + name.length;
  // An empty name is a topic problem of its own, not a file that cannot be read.
  const emptyName = name !== undefined && EMPTY_SCALAR.test(name);
  const source = emptyName ? text.replace(NAME_LINE, 'name: "-"') : text;
  const doc = parseTopic(source, fileName);
  if (isUnreadable(doc)) return { unreadable: { message: doc.problem, start: 0, end: lineEnd(text, 0) } };
  if (doc.kind !== 'topic') return {};
  const contentStart = doc.content === '' ? text.length : Math.max(0, text.lastIndexOf(doc.content));
  return {
    topic: { name: emptyName ? '' : doc.name, nameStart, nameEnd, content: doc.content, contentStart },
  };
}

/**
 * A JSON file's value, or where it first goes wrong in words ("line 2, column 5: a comma is expected between two
 * entries"), never the parser's own text, which quotes a piece of the file (it could be a secret).
 */
function parseJson(text: string): Pick<ParsedFile, 'json' | 'unreadable'> {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    const problem = text.trim() ? jsonSyntaxProblem(jsonc, plainL10n, text) : undefined;
    const at = problem ? Math.min(problem.offset, text.length) : 0;
    const message = problem
      ? `not valid JSON at line ${problem.line}, column ${problem.column}: ${problem.fix}`
      : text.trim()
        ? 'not valid JSON'
        : 'empty: a JSON file holds one object';
    const end = Math.max(at, lineEnd(text, at));
    return { unreadable: { message, start: at, end, ...(problem ? { json: true as const } : {}) } };
  }
}

/** Reads a file once: what it is, and its parts; never throws, whatever the text. */
export function parseAgentFile(input: AgentFileInput): ParsedFile {
  const kind = kindOf(input.path);
  const text = input.text ?? '';
  if (input.unreadable !== undefined || input.text === undefined)
    return {
      path: input.path,
      text,
      kind,
      unreadable: { message: input.unreadable ?? 'cannot be read', start: 0, end: 0 },
    };
  if (text.length > MAX_FILE_CHARS)
    return {
      path: input.path,
      text,
      kind,
      unreadable: { message: `too large to check (${text.length} characters)`, start: 0, end: 0 },
    };
  if (text.includes('\u0000'))
    return { path: input.path, text, kind, unreadable: { message: 'binary data, not text', start: 0, end: 0 } };
  switch (kind) {
    case 'topic':
      return { path: input.path, text, kind, ...parseTopicParts(input.path, text) };
    case 'manifest':
    case 'realtime':
      return { path: input.path, text, kind, ...parseJson(text) };
    default:
      return { path: input.path, text, kind };
  }
}
