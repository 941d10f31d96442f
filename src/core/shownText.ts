/**
 * Text from the platform or a file, made safe to show where it could otherwise act: in Markdown (tree tooltips,
 * Testing view messages, reports opened in the Markdown preview) and in the terminal of a test run's output. The text
 * is shown as written, never as markup, and the characters that would act on the display (bidirectional controls,
 * control characters, a lone half of a surrogate pair) are shown as their code.
 */

/**
 * Bidirectional controls (ALM, LRM, RLM, embeddings, overrides, isolates), C0 controls but tab and line breaks, DEL,
 * C1 controls, and a lone half of a surrogate pair.
 */
const ACTING =
  /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A character as its code, `⟦U+202E⟧`: seen, never obeyed. */
function codeOf(c: string): string {
  return `⟦U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`;
}

/**
 * The text with every character that acts on the display shown as its code: text cannot be made to read backwards
 * (`invoice\u202Etxt.exe`), rewrite a terminal (`\u001b[2J`) or hide a half character. Tabs and line breaks stay.
 */
export function visibleControls(text: string): string {
  return text.replace(ACTING, codeOf);
}

/**
 * A line break: CR LF, CR, LF, and the Unicode line and paragraph separators, which editors warn of in a file and
 * renderers treat apart.
 */
const LINE_BREAK = /\r\n?|\n|\u2028|\u2029/g;

/**
 * The characters that start markup anywhere in a line: escapes, code, emphasis, links and images (a `!` or a `(` does
 * nothing without a `[`), HTML and entities, tables, strikethrough, and VS Code's `$(icon)`.
 */
const INLINE_MARKUP = /[\\`*_[\]<>&|~$]/g;
/** What starts a block at the start of a line: a heading, a list item, a setext underline (`>` is inline above). */
const BLOCK_START = /^([ \t]*)([#+=-])/gm;
const ORDERED_ITEM = /^([ \t]*\d{1,9})([.)])/gm;
/** What a renderer makes a link of by itself: `https://…`, `www.…`, an e-mail address. */
const AUTOLINK = /:(?=\/\/)|(?<=\bwww)\.|@/gi;

/**
 * Text as Markdown that shows it as written: no emphasis, link, image, HTML, entity, autolink, heading, list or table
 * comes of it, whatever it holds. Only what could start markup is escaped (with a backslash, which CommonMark allows
 * before any ASCII punctuation), so a report stays readable as a file. Each line break is a line break of the
 * rendering.
 */
export function markdownText(text: string): string {
  return visibleControls(text)
    .replace(INLINE_MARKUP, '\\$&')
    .replace(AUTOLINK, '\\$&')
    .replace(BLOCK_START, '$1\\$2')
    .replace(ORDERED_ITEM, '$1\\$2')
    .replace(LINE_BREAK, '\\\n');
}

/**
 * Text as a Markdown code span (for ids): shown as written in a monospace font, on one line. The fence is longer
 * than any run of backticks in the text, so none closes it early.
 */
export function markdownCode(text: string): string {
  const shown = visibleControls(text).replace(LINE_BREAK, ' ');
  if (shown === '') return '';
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || (shown.startsWith(' ') && shown.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** Text for one cell of a Markdown table: as markdownText, on one line (a line break would end the table). */
export function markdownCell(text: string): string {
  return markdownText(text.replace(LINE_BREAK, ' '));
}

/**
 * Text inside an HTML element of a Markdown document (`<summary>`, where Markdown's escapes do not apply): on one
 * line, its markup characters as character references.
 */
export function htmlText(text: string): string {
  return visibleControls(text.replace(LINE_BREAK, ' ')).replace(/[&<>"']/g, (c) => HTML_REFERENCES[c] ?? c);
}

const HTML_REFERENCES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text of a notification: VS Code makes a link of `[label](https:…)`, `[label](command:…)` or `[label](file:…)` in one,
 * and a command link runs the command with the arguments it names when clicked. Each `](` is broken apart (a space
 * between), so a name can never make one, and acting characters show as their code.
 */
export function notificationText(text: string): string {
  return visibleControls(text).replace(/\]\(/g, '] (');
}

/**
 * Text in bold, shown as written. A bold run cannot start or end at a space (`** x**` shows its asterisks), so the
 * spaces at either end (zero-width ones too) stay outside it.
 */
export function markdownStrong(text: string): string {
  const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text) ?? [];
  return core ? `${markdownText(lead)}**${markdownText(core)}**${markdownText(trail)}` : markdownText(text);
}

/**
 * Text where VS Code draws `$(name)` as an icon (a status bar item, a test's label): each `$(` escaped, which VS Code
 * shows as written, and acting characters as their code.
 */
export function iconText(text: string): string {
  return visibleControls(text).replace(/\$\(/g, '\\$(');
}
