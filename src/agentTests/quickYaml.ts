import type { YMap, YNode, YPair, YScalar, YSeq } from './yamlNodes';

/**
 * Reads the YAML test files are written in (block mappings and lists, one-line plain and quoted scalars, one-line
 * flow lists and mappings, comments) in one pass over the text, giving the values and places the `yaml`
 * library's composer gives. Discovery reads every test file of a workspace, and the library's documents (with
 * their tokens, syntax tree and node classes) cost ten times more than what the checks need. Anything beyond that
 * subset, or anything the library would report (a duplicate key, an empty value, a tab, a multi-line scalar), makes
 * this return undefined: the library then reads the file and says what is wrong.
 */
export function readQuickYaml(text: string): { root: YMap; lineStarts: number[] } | undefined {
  if (BEYOND_TEXT.test(text)) return undefined;
  try {
    const reader = new QuickReader(text);
    return { root: reader.document(), lineStarts: reader.lineStarts };
  } catch (err) {
    if (err === BEYOND) return undefined;
    throw err;
  }
}

/**
 * Tabs, a carriage return but in a CRLF line break (as Windows checkouts have them), control and other line-break
 * characters, a BOM, and document markers or directives.
 */
const BEYOND_TEXT = /[\t\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\u2028\u2029]|\r(?!\n)|^(?:---|\.\.\.|%)/m;

/** Thrown where the text leaves the subset; caught by readQuickYaml. */
const BEYOND = new Error('beyond the YAML subset read quickly');

const SPACE = 32;
const HASH = 35;
const DASH = 45;
const COLON = 58;
const COMMA = 44;
const DQUOTE = 34;
const SQUOTE = 39;
const OPEN_SEQ = 91;
const CLOSE_SEQ = 93;
const OPEN_MAP = 123;
const CLOSE_MAP = 125;

/** Characters a plain scalar may not start with (`-`, `?` and `:` may, when a non-space follows). */
const NOT_PLAIN_START = new Set([...'[]{},#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)));
const FLOW_INDICATOR = new Set([...',[]{}'].map((c) => c.charCodeAt(0)));

interface Read<N> {
  readonly node: N;
  /** Where the node ends with what follows it on its line (its comment and line break), as parents' ranges end. */
  readonly end: number;
}

class QuickReader {
  readonly lineStarts: number[] = [0];
  /** The lines holding content (not blank, not only a comment), in order. */
  private readonly content: number[] = [];
  private readonly indents: number[] = [];
  /** Index into `content` of the line being read. */
  private at = 0;

  constructor(private readonly text: string) {
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) this.lineStarts.push(nl + 1);
    // A comment deeper than the next content (or than the margin, at the end) belongs to the value before it, and
    // the library then stretches that value's end over it; such files are left to the library.
    let next = 0;
    const comments: number[] = [];
    for (let line = 0; line < this.lineStarts.length; line++) {
      const start = this.lineStarts[line]!;
      const end = this.lineEnd(line);
      let i = start;
      while (i < end && text.charCodeAt(i) === SPACE) i++;
      if (i === end) continue;
      if (text.charCodeAt(i) === HASH) {
        comments.push(i - start);
        continue;
      }
      next = i - start;
      for (const indent of comments) if (indent > next) throw BEYOND;
      comments.length = 0;
      this.content.push(line);
      this.indents.push(next);
    }
    for (const indent of comments) if (indent > 0) throw BEYOND;
  }

  document(): YMap {
    if (this.content.length === 0 || this.indents[0] !== 0) throw BEYOND;
    const start = this.lineStarts[this.content[0]!]!;
    if (this.isDash(start, this.lineEnd(this.content[0]!))) throw BEYOND;
    const { node } = this.map(0);
    if (this.at !== this.content.length) throw BEYOND;
    return node;
  }

  /** Where a line's content ends: before its line break, LF or CRLF. */
  private lineEnd(line: number): number {
    const next = this.lineStarts[line + 1];
    if (next === undefined) return this.text.length;
    return this.text.charCodeAt(next - 2) === 13 /* \r */ && next - 2 >= this.lineStarts[line]! ? next - 2 : next - 1;
  }

  /** The end of a value that fills the rest of its line: past the line break, as the library counts it. */
  private afterLine(line: number): number {
    const next = this.lineStarts[line + 1];
    return next === undefined ? this.text.length : next;
  }

  private isDash(pos: number, end: number): boolean {
    return this.text.charCodeAt(pos) === DASH && (pos + 1 === end || this.text.charCodeAt(pos + 1) === SPACE);
  }

  /** The indentation of the next content line, or -1 at the end. */
  private nextIndent(): number {
    return this.at < this.content.length ? this.indents[this.at]! : -1;
  }

  /** A block mapping whose first key starts at `column` of the current line. */
  private map(column: number): Read<YMap> {
    const items: YPair[] = [];
    let start = -1;
    let end = 0;
    for (;;) {
      const line = this.content[this.at]!;
      const lineEnd = this.lineEnd(line);
      const keyAt = this.lineStarts[line]! + column;
      if (start === -1) start = keyAt;
      const key = this.key(keyAt, lineEnd);
      if (key === undefined) throw BEYOND;
      if (hasKey(items, key.node.value)) throw BEYOND;
      const valueAt = this.skipSpaces(key.colon + 1, lineEnd);
      let value: Read<YNode>;
      if (valueAt === lineEnd || this.text.charCodeAt(valueAt) === HASH) {
        this.at++;
        const indent = this.nextIndent();
        const nextLine = this.content[this.at];
        if (indent > column) value = this.block(indent);
        else if (indent === column && this.isDash(this.lineStarts[nextLine!]! + indent, this.lineEnd(nextLine!)))
          value = this.seq(indent);
        else throw BEYOND;
      } else {
        value = this.inline(valueAt, line, lineEnd);
        this.at++;
        if (this.nextIndent() > column) throw BEYOND;
      }
      items.push({ key: key.node, value: value.node });
      end = value.end;
      const indent = this.nextIndent();
      if (indent < column) break;
      if (indent > column) throw BEYOND;
      const nextLine = this.content[this.at]!;
      if (this.isDash(this.lineStarts[nextLine]! + indent, this.lineEnd(nextLine))) throw BEYOND;
    }
    return { node: { kind: 'map', items, start, end }, end };
  }

  /** A block list whose dashes are at `column`, from the current line. */
  private seq(column: number): Read<YSeq> {
    const items: YNode[] = [];
    let start = -1;
    let end = 0;
    for (;;) {
      const line = this.content[this.at]!;
      const lineEnd = this.lineEnd(line);
      const dash = this.lineStarts[line]! + column;
      if (start === -1) start = dash;
      const itemAt = this.skipSpaces(dash + 1, lineEnd);
      let item: Read<YNode>;
      if (itemAt === lineEnd || this.text.charCodeAt(itemAt) === HASH) {
        this.at++;
        const indent = this.nextIndent();
        if (indent <= column) throw BEYOND;
        item = this.block(indent);
      } else if (this.isDash(itemAt, lineEnd)) {
        throw BEYOND;
      } else if (this.key(itemAt, lineEnd) !== undefined) {
        item = this.map(itemAt - this.lineStarts[line]!);
      } else {
        item = this.inline(itemAt, line, lineEnd);
        this.at++;
        if (this.nextIndent() > column) throw BEYOND;
      }
      items.push(item.node);
      end = item.end;
      const indent = this.nextIndent();
      if (indent !== column) {
        if (indent > column) throw BEYOND;
        break;
      }
      const nextLine = this.content[this.at]!;
      // A key at the dashes' indentation ends a list that is a mapping's value written without indentation.
      if (!this.isDash(this.lineStarts[nextLine]! + indent, this.lineEnd(nextLine))) break;
    }
    return { node: { kind: 'seq', items, start, end }, end };
  }

  /** A block collection starting its own line at `indent`. */
  private block(indent: number): Read<YNode> {
    const line = this.content[this.at]!;
    const pos = this.lineStarts[line]! + indent;
    const lineEnd = this.lineEnd(line);
    if (this.isDash(pos, lineEnd)) return this.seq(indent);
    if (this.key(pos, lineEnd) !== undefined) return this.map(indent);
    // A scalar on a line of its own (a multi-line or indented value).
    throw BEYOND;
  }

  /** A value filling the rest of a line: a one-line scalar or flow collection, then at most a comment. */
  private inline(pos: number, line: number, lineEnd: number): Read<YNode> {
    const c = this.text.charCodeAt(pos);
    let node: YNode;
    let after: number;
    if (c === OPEN_SEQ || c === OPEN_MAP || c === DQUOTE || c === SQUOTE) {
      const flow = this.flowNode(pos, lineEnd);
      node = flow.node;
      after = flow.end;
    } else {
      const plain = this.plain(pos, lineEnd, false);
      node = plain;
      after = plain.end;
    }
    const rest = this.skipSpaces(after, lineEnd);
    if (rest !== lineEnd && !(this.text.charCodeAt(rest) === HASH && rest > after)) throw BEYOND;
    return { node, end: this.afterLine(line) };
  }

  /** A mapping key at `pos` followed by `: ` or a colon ending the line, if there is one. */
  private key(pos: number, lineEnd: number): { node: YScalar; colon: number } | undefined {
    const c = this.text.charCodeAt(pos);
    if (c === DQUOTE || c === SQUOTE) {
      const quoted = this.quoted(pos, lineEnd);
      const colon = quoted.end;
      return this.isSeparator(colon, lineEnd) ? { node: quoted, colon } : undefined;
    }
    if (!this.plainStart(pos, lineEnd, false)) return undefined;
    for (let i = pos; i < lineEnd; i++) {
      const ch = this.text.charCodeAt(i);
      if (ch === HASH && this.text.charCodeAt(i - 1) === SPACE) return undefined;
      if (ch === COLON && this.isSeparator(i, lineEnd)) {
        let keyEnd = i;
        while (this.text.charCodeAt(keyEnd - 1) === SPACE) keyEnd--;
        // The library takes no implicit key longer than 1024 characters.
        if (keyEnd - pos > 1000) throw BEYOND;
        return { node: scalar(resolvePlain(this.text.slice(pos, keyEnd)), pos, keyEnd), colon: i };
      }
    }
    return undefined;
  }

  private isSeparator(colon: number, lineEnd: number): boolean {
    return (
      this.text.charCodeAt(colon) === COLON && (colon + 1 === lineEnd || this.text.charCodeAt(colon + 1) === SPACE)
    );
  }

  private plainStart(pos: number, end: number, flow: boolean): boolean {
    const c = this.text.charCodeAt(pos);
    if (c === DASH || c === 63 /* ? */ || c === COLON) {
      const next = pos + 1 < end ? this.text.charCodeAt(pos + 1) : SPACE;
      return next !== SPACE && !(flow && FLOW_INDICATOR.has(next));
    }
    return !NOT_PLAIN_START.has(c);
  }

  /** A one-line plain scalar: in a block, to the line's end or its comment; in a flow, to the next indicator. */
  private plain(pos: number, lineEnd: number, flow: boolean): YScalar {
    if (!this.plainStart(pos, lineEnd, flow)) throw BEYOND;
    let i = pos;
    for (; i < lineEnd; i++) {
      const ch = this.text.charCodeAt(i);
      if (ch === HASH && this.text.charCodeAt(i - 1) === SPACE) break;
      if (ch === COLON) {
        // `a: b` as a value is a mapping the library refuses in that place; in a flow, a pair.
        if (i + 1 === lineEnd || this.text.charCodeAt(i + 1) === SPACE) {
          if (flow) break;
          throw BEYOND;
        }
        if (flow) throw BEYOND;
      }
      if (flow && FLOW_INDICATOR.has(ch)) break;
    }
    let end = i;
    while (end > pos && this.text.charCodeAt(end - 1) === SPACE) end--;
    return scalar(resolvePlain(this.text.slice(pos, end)), pos, end);
  }

  /** A flow collection or a quoted scalar at `pos`, on one line. */
  private flowNode(pos: number, lineEnd: number): { node: YNode; end: number } {
    const c = this.text.charCodeAt(pos);
    if (c === DQUOTE || c === SQUOTE) {
      const node = this.quoted(pos, lineEnd);
      return { node, end: node.end };
    }
    if (c !== OPEN_SEQ && c !== OPEN_MAP) {
      const node = this.plain(pos, lineEnd, true);
      return { node, end: node.end };
    }
    const isMap = c === OPEN_MAP;
    const close = isMap ? CLOSE_MAP : CLOSE_SEQ;
    const items: YNode[] = [];
    const pairs: YPair[] = [];
    let i = this.skipSpaces(pos + 1, lineEnd);
    if (this.text.charCodeAt(i) !== close) {
      for (;;) {
        const first = this.flowNode(i, lineEnd);
        i = this.skipSpaces(first.end, lineEnd);
        if (isMap) {
          if (first.node.kind !== 'scalar' || !this.isSeparator(i, lineEnd)) throw BEYOND;
          if (hasKey(pairs, first.node.value)) throw BEYOND;
          const valueAt = this.skipSpaces(i + 1, lineEnd);
          const value = this.flowNode(valueAt, lineEnd);
          pairs.push({ key: first.node, value: value.node });
          i = this.skipSpaces(value.end, lineEnd);
        } else {
          if (this.text.charCodeAt(i) === COLON) throw BEYOND;
          items.push(first.node);
        }
        const ch = this.text.charCodeAt(i);
        if (ch === close) break;
        if (ch !== COMMA) throw BEYOND;
        i = this.skipSpaces(i + 1, lineEnd);
        // A trailing comma, or an empty entry.
        if (i >= lineEnd || FLOW_INDICATOR.has(this.text.charCodeAt(i))) throw BEYOND;
      }
    }
    if (i >= lineEnd) throw BEYOND;
    const end = i + 1;
    return {
      node: isMap ? { kind: 'map', items: pairs, start: pos, end } : { kind: 'seq', items, start: pos, end },
      end,
    };
  }

  /** A quoted scalar closed on its line. */
  private quoted(pos: number, lineEnd: number): YScalar {
    const quote = this.text.charCodeAt(pos);
    let value = '';
    let from = pos + 1;
    for (let i = pos + 1; i < lineEnd; i++) {
      const ch = this.text.charCodeAt(i);
      if (quote === SQUOTE) {
        if (ch !== SQUOTE) continue;
        if (this.text.charCodeAt(i + 1) === SQUOTE && i + 1 < lineEnd) {
          value += this.text.slice(from, i + 1);
          from = i + 2;
          i++;
          continue;
        }
        return scalar(value + this.text.slice(from, i), pos, i + 1);
      }
      if (ch === DQUOTE) return scalar(value + this.text.slice(from, i), pos, i + 1);
      if (ch === 92 /* \ */) {
        value += this.text.slice(from, i) + this.escape(i, lineEnd);
        const kind = this.text[i + 1];
        i += kind === 'x' ? 3 : kind === 'u' ? 5 : kind === 'U' ? 9 : 1;
        from = i + 1;
      }
    }
    throw BEYOND;
  }

  /** A double-quoted scalar's escape at `pos` (its backslash), as the library reads it. */
  private escape(pos: number, lineEnd: number): string {
    const kind = this.text[pos + 1];
    if (kind === undefined || pos + 1 >= lineEnd) throw BEYOND;
    const simple = ESCAPES[kind];
    if (simple !== undefined) return simple;
    const length = kind === 'x' ? 2 : kind === 'u' ? 4 : kind === 'U' ? 8 : 0;
    const hex = this.text.slice(pos + 2, pos + 2 + length);
    if (length === 0 || pos + 2 + length > lineEnd || !/^[0-9a-fA-F]+$/.test(hex)) throw BEYOND;
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) throw BEYOND;
    return String.fromCodePoint(code);
  }

  private skipSpaces(pos: number, end: number): number {
    while (pos < end && this.text.charCodeAt(pos) === SPACE) pos++;
    return pos;
  }
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
};

function scalar(value: unknown, start: number, end: number): YScalar {
  return { kind: 'scalar', value, start, end };
}

/** Whether a mapping's pairs already have a key of this value (the library refuses duplicates). */
function hasKey(items: readonly YPair[], value: unknown): boolean {
  for (const pair of items) if ((pair.key as YScalar).value === value) return true;
  return false;
}

const NUMBER_OR_WORD_START = /^[-+.0-9~nNtTfF]/;

/** A plain scalar's value by the YAML 1.2 core schema, with the `yaml` library's tests in its order. */
function resolvePlain(source: string): unknown {
  // Only these can start a null, a boolean or a number; anything else is a string at once.
  if (source !== '' && !NUMBER_OR_WORD_START.test(source)) return source;
  if (/^(?:~|[Nn]ull|NULL)?$/.test(source)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(source)) return source[0] === 't' || source[0] === 'T';
  if (/^0o[0-7]+$/.test(source)) return parseInt(source.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(source)) return parseInt(source, 10);
  if (/^0x[0-9a-fA-F]+$/.test(source)) return parseInt(source.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(source))
    return source.slice(-3).toLowerCase() === 'nan'
      ? Number.NaN
      : source[0] === '-'
        ? Number.NEGATIVE_INFINITY
        : Number.POSITIVE_INFINITY;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(source)) return parseFloat(source);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(source)) return parseFloat(source);
  return source;
}
