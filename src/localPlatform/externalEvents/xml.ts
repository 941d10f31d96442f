/**
 * A small, safe XML reader for result payloads: elements, attributes, text, CDATA, comments
 * and processing instructions. Document type declarations are refused, so no entity can
 * expand or reach outside the document; only the five predefined entities and character
 * references are decoded.
 */

export class XmlError extends Error {}

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const MAX_DEPTH = 64;
const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Reads a document and returns its root element; throws XmlError when it is not well-formed. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  // Typed where it is declared, so the compiler knows nothing follows a call.
  const fail: (why: string) => never = (why) => {
    throw new XmlError(`${why} (at character ${i})`);
  };
  const skipUntil = (end: string, what: string): void => {
    const j = text.indexOf(end, i);
    if (j < 0) fail(`unterminated ${what}`);
    i = j + end.length;
  };
  const readName = (): string => {
    const m = NAME.exec(text.slice(i, i + 256));
    if (!m) fail('expected a name');
    i += m[0].length;
    return m[0];
  };
  const skipSpace = (): void => {
    while (i < text.length && /\s/.test(text.charAt(i))) i++;
  };

  while (i < text.length) {
    if (text.startsWith('<!--', i)) {
      skipUntil('-->', 'comment');
    } else if (text.startsWith('<?', i)) {
      skipUntil('?>', 'processing instruction');
    } else if (text.startsWith('<!DOCTYPE', i) || text.startsWith('<!ENTITY', i)) {
      fail('document type declarations are not accepted');
    } else if (text.startsWith('<![CDATA[', i)) {
      const start = i + 9;
      skipUntil(']]>', 'CDATA section');
      const parent = stack.at(-1) ?? fail('text outside the root element');
      parent.text += text.slice(start, i - 3);
    } else if (text.startsWith('</', i)) {
      i += 2;
      const name = readName();
      skipSpace();
      if (text[i] !== '>') fail('expected >');
      i++;
      const open = stack.pop();
      if (!open || open.name !== name) fail(`closing tag </${name}> does not match`);
      if (!stack.length) root = open;
    } else if (text[i] === '<') {
      i++;
      if (root) fail('more than one root element');
      const el: XmlElement = {
        name: readName(),
        attributes: Object.create(null) as Record<string, string>,
        children: [],
        text: '',
      };
      for (;;) {
        skipSpace();
        if (text.startsWith('/>', i) || text[i] === '>') break;
        const attr = readName();
        skipSpace();
        if (text[i] !== '=') fail('expected = after an attribute name');
        i++;
        skipSpace();
        const quote = text[i];
        if (quote !== '"' && quote !== "'") fail('expected a quoted attribute value');
        const end = text.indexOf(quote, i + 1);
        if (end < 0) fail('unterminated attribute value');
        el.attributes[attr] = decodeEntities(text.slice(i + 1, end), fail);
        i = end + 1;
      }
      stack.at(-1)?.children.push(el);
      if (text.startsWith('/>', i)) {
        i += 2;
        if (!stack.length) root = el;
      } else {
        i++;
        if (stack.length >= MAX_DEPTH) fail(`elements nested deeper than ${MAX_DEPTH}`);
        stack.push(el);
      }
    } else {
      const next = text.indexOf('<', i);
      const chunk = text.slice(i, next < 0 ? text.length : next);
      const parent = stack.at(-1);
      if (!parent) {
        if (chunk.trim()) fail('text outside the root element');
      } else {
        parent.text += decodeEntities(chunk, fail);
      }
      i = next < 0 ? text.length : next;
    }
  }
  const unclosed = stack.at(-1);
  if (unclosed) fail(`element <${unclosed.name}> is not closed`);
  return root ?? fail('no root element');
}

function decodeEntities(s: string, fail: (why: string) => never): string {
  return s.replace(/&([^;&\s]{1,10});/g, (_m, ref: string) => {
    if (ref.startsWith('#x') || ref.startsWith('#X')) return codePoint(Number.parseInt(ref.slice(2), 16), ref, fail);
    if (ref.startsWith('#')) return codePoint(Number.parseInt(ref.slice(1), 10), ref, fail);
    const v = PREDEFINED[ref];
    return v ?? fail(`unknown entity &${ref};`);
  });
}

function codePoint(n: number, ref: string, fail: (why: string) => never): string {
  if (!Number.isInteger(n) || n < 1 || n > 0x10ffff) fail(`invalid character reference &${ref};`);
  return String.fromCodePoint(n);
}

/**
 * The element as JSON: text-only elements become their trimmed text; others an object of
 * child name to value (repeated names become lists), attributes as `@name`, mixed text as `#text`.
 */
export function xmlToJson(el: XmlElement): unknown {
  const attrs = Object.keys(el.attributes);
  if (!el.children.length && !attrs.length) return el.text.trim();
  const out: Record<string, unknown> = {};
  const set = (key: string, value: unknown): void => {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  };
  for (const a of attrs) set(`@${a}`, el.attributes[a]);
  const counts = new Map<string, number>();
  for (const c of el.children) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  const repeated = new Set([...counts].filter(([, n]) => n > 1).map(([name]) => name));
  for (const child of el.children) {
    const value = xmlToJson(child);
    if (!repeated.has(child.name)) set(child.name, value);
    else if (Object.hasOwn(out, child.name)) (out[child.name] as unknown[]).push(value);
    else set(child.name, [value]);
  }
  if (el.text.trim()) set('#text', el.text.trim());
  return out;
}
