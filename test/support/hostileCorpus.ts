/**
 * Hostile content: strings a platform, a teammate or a caller could put into any text the editor shows, each named
 * with what it tries. The unit tests render the editor's Markdown and text helpers with every entry; the end-to-end
 * suite (test/e2e/hostileContent.spec.mjs) puts them into the local platform's data and looks at every place the
 * workbench shows them.
 *
 * The payloads that would run do one thing only: set `self.__pwned` to their name in the frame they run in (the
 * suite reads it in every frame), and the ones that would load something ask for `remote.invalid`, a host that never
 * resolves (the suite watches every request). Markup carries `data-hostile`, so an element made of it is found in any
 * frame, even where a security policy kept it from running.
 */

/** The global a payload sets when it runs. */
export const SENTINEL = '__pwned';
/** The host every remote reference of the corpus names (RFC 6761: never resolves). */
export const REMOTE_HOST = 'remote.invalid';
/** The attribute every piece of markup of the corpus carries. */
export const MARKUP_ATTRIBUTE = 'data-hostile';

export type HostileKind =
  | 'script'
  | 'style'
  | 'event handler'
  | 'javascript: link'
  | 'markdown'
  | 'entity'
  | 'template'
  | 'control characters'
  | 'right-to-left'
  | 'invalid surrogates'
  | 'emoji'
  | 'size';

export interface HostileEntry {
  /** Its name, short and unique: it names the entry in figures and failures. */
  readonly name: string;
  readonly kind: HostileKind;
  /** What it tries where it is not shown as text. */
  readonly tries: string;
  readonly text: string;
}

const run = (name: string) => `${SENTINEL}='${name}'`;
const remote = (path: string) => `https://${REMOTE_HOST}/${path}`;
const M = MARKUP_ATTRIBUTE;

/**
 * Every entry at most this long, so each fits whole into the shortest name field (a branch name, 100); all of them
 * together fit into the names of the 10 alert rules an account may have (128 characters each).
 */
export const ENTRY_MAX = 100;

export const HOSTILE_CORPUS: readonly HostileEntry[] = [
  {
    name: 'script-tag',
    kind: 'script',
    tries: 'runs a script where text is parsed as HTML',
    text: `<script ${M}>${run('script')}</script>`,
  },
  {
    name: 'style-tag',
    kind: 'style',
    tries: 'imports a remote style sheet and hides everything where text becomes a style sheet',
    text: `<style ${M}>@import '${remote('s.css')}';*{display:none}</style>`,
  },
  {
    name: 'style-attribute',
    kind: 'style',
    tries: 'lays a red box over the whole page where text becomes HTML',
    text: `<b ${M} style=position:fixed;inset:0;background:red>covered</b>`,
  },
  {
    name: 'img-onerror',
    kind: 'event handler',
    tries: 'loads a remote image and runs its error handler where text becomes HTML',
    text: `<img ${M} src=${remote('i.png')} onerror=${run('img')}>`,
  },
  {
    name: 'svg-onload',
    kind: 'event handler',
    tries: 'runs an SVG load handler where text becomes HTML',
    text: `<svg ${M} onload=${run('svg')}>`,
  },
  {
    name: 'attribute-breakout',
    kind: 'event handler',
    tries: 'closes an attribute value where HTML is built from strings, and adds a handler',
    text: `x" ${M} onmouseover="${run('attr')}" title="`,
  },
  {
    name: 'context-breakout',
    kind: 'script',
    tries: 'leaves a comment, text area, title, style or script and starts a script',
    text: `--></textarea></title></style></script><script ${M}>${run('ctx')}</script>`,
  },
  {
    name: 'javascript-link',
    kind: 'javascript: link',
    tries: 'a link that runs script when followed, where text becomes HTML',
    text: `<a ${M} href="javascript:${run('js')}">open</a>`,
  },
  {
    name: 'iframe',
    kind: 'script',
    tries: 'a frame of a remote page where text becomes HTML',
    text: `<iframe ${M} src=${remote('f')}></iframe>`,
  },
  {
    name: 'markdown-link',
    kind: 'markdown',
    tries: 'links (javascript: and remote) where text is read as Markdown',
    text: `[a](javascript:${run('md')}) [b](${remote('l')})`,
  },
  {
    name: 'markdown-image',
    kind: 'markdown',
    tries: 'a remote image and autolinks where text is read as Markdown',
    text: `![p](${remote('m.png')}) <${remote('a')}> www.${REMOTE_HOST}`,
  },
  {
    name: 'markdown-command',
    kind: 'markdown',
    tries: 'a command link, which runs an editor command from a trusted Markdown string or a notification',
    text: '[run](command:workbench.action.terminal.new)',
  },
  {
    name: 'markdown-structure',
    kind: 'markdown',
    tries: 'emphasis, a code span, a heading, a quote, a list and a table where text is read as Markdown',
    text: '**b** _e_ `c` ~~s~~\n# H\n> q\n- i\n1. o\n| a |\n| - |',
  },
  {
    name: 'entities',
    kind: 'entity',
    tries: 'character references decoded where text is read as HTML or Markdown',
    text: '&lt;b&gt; &amp;lt; &#60;i&#62; &copy;',
  },
  {
    name: 'template',
    kind: 'template',
    tries: 'template and icon syntax evaluated where text is put into a template or a label',
    text: `\${${run('tpl')}} {{constructor.constructor('${run('tpl')}')()}} $(alert)`,
  },
  {
    name: 'control-characters',
    kind: 'control characters',
    tries: 'a NUL, a bell, a backspace, escapes that colour and clear a terminal, DEL and a C1 control',
    text: 'nul\u0000 bel\u0007 bs\b esc\u001b[31mred\u001b[2J del\u007F c1\u009B',
  },
  {
    name: 'terminal-escapes',
    kind: 'control characters',
    tries: "a terminal hyperlink to a remote page and the terminal window's title, set by escape sequences",
    text: `\u001b]8;;${remote('o')}\u0007click\u001b]8;;\u0007\u001b]0;PWNED\u0007`,
  },
  {
    name: 'right-to-left',
    kind: 'right-to-left',
    tries: 'right-to-left overrides, embeddings and isolates that make text read backwards',
    text: 'invoice\u202Etxt.exe\u202C \u202Bembed\u202C \u2067isolate\u2069 \u200Fmark\u200E \u061Calm',
  },
  {
    name: 'lone-surrogates',
    kind: 'invalid surrogates',
    tries: 'halves of surrogate pairs alone: invalid UTF-16 that encoders refuse or replace',
    text: 'high\uD800 low\uDC00 swap\uDC00\uD800 end',
  },
  {
    name: 'emoji-sequences',
    kind: 'emoji',
    tries: 'joined, flag, skin-tone and keycap emoji and stacked combining marks, wider than their characters',
    text: '👨‍👩‍👧‍👦 🏳️‍🌈 🇺🇦 👍🏽 1️⃣ e\u0301 Z\u0337\u0327a\u0334l\u0338g\u0335o\u0336 \u200B\uFEFF',
  },
  {
    name: 'line-separators',
    kind: 'control characters',
    tries: 'line and paragraph separators and lone carriage returns that break layouts and line-based formats',
    text: 'first\r\nsecond\rthird\u2028fourth\u2029fifth\n\n\nsixth',
  },
  {
    name: 'prototype-keys',
    kind: 'template',
    tries: "an object's built-in property name, as a key and a value",
    text: '__proto__',
  },
];

/** 1 MB (1,048,576 characters). */
export const ONE_MB = 1024 * 1024;

/**
 * A 1 MB string: markup at both ends around one unbreakable word, the worst case for a layout (nothing to wrap at)
 * and for anything that copies, escapes or measures text.
 */
export const ONE_MEGABYTE: HostileEntry = {
  name: 'one-megabyte',
  kind: 'size',
  tries: 'a string of 1 MB without a space: a layout with nothing to wrap at, and work on every copy',
  text: sized(ONE_MB),
};

/** A string of exactly `length` characters as ONE_MEGABYTE is made: `<b data-hostile>START`, x..., `END</b>`. */
export function sized(length: number): string {
  const head = `<b ${MARKUP_ATTRIBUTE}>START`;
  const tail = 'END</b>';
  if (length < head.length + tail.length) return 'x'.repeat(length);
  return `${head}${'x'.repeat(length - head.length - tail.length)}${tail}`;
}

/** Every entry, the 1 MB one last. */
export const ALL_ENTRIES: readonly HostileEntry[] = [...HOSTILE_CORPUS, ONE_MEGABYTE];

/** The entry of that name. */
export function entry(name: string): HostileEntry {
  const found = ALL_ENTRIES.find((e) => e.name === name);
  if (!found) throw new Error(`no hostile entry is named ${name}`);
  return found;
}

/** Every entry of the corpus (not the 1 MB one) joined by a space, cut at `max` characters where given. */
export function joined(max = Infinity): string {
  return cut(HOSTILE_CORPUS.map((e) => e.text).join(' '), max);
}

/** The text cut at `max` UTF-16 units, never between the halves of a pair the text had whole. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const next = text.charCodeAt(max);
  const splitsPair = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
  return text.slice(0, splitsPair ? max - 1 : max);
}

/**
 * Text as a check compares it: whitespace, control and format characters, replacement characters and lone
 * surrogates dropped (and `⏎`, which a one-line label shows for a line break), and the `⟦U+XXXX⟧` codes the editor shows for acting characters read back as the characters
 * (then dropped where they are controls). What is left is what a person reads; markup rendered as markup loses its
 * brackets and names, so it no longer matches.
 */
export function comparable(text: string): string {
  return text
    .replace(/⟦U\+([0-9A-F]{4,6})⟧/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/[\s\p{Cc}\p{Cf}\u2028\u2029\uFFFD⏎]/gu, '');
}

/** True when `shown` (what a person sees) holds the entry's text as text. */
export function showsAsText(shown: string, text: string): boolean {
  return comparable(shown).includes(comparable(text));
}

/** Field limits of the local platform that the corpus meets: the spec's where it has one, else the platform's own. */
export { AGENT_NAME_MAX } from '../../src/contract/agents';
export { LOCAL_LIMITS } from '../../src/localPlatform/ownLimits';
