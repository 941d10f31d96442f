import { createRequire } from 'node:module';

/**
 * Markdown rendered as a CommonMark renderer does (markdown-it, a development dependency), in its most
 * permissive setting: raw HTML allowed and bare addresses made links. Text escaped for Markdown must come out as text
 * even there, since a renderer of another make (VS Code's hovers, its Markdown preview, a pull request page) may
 * allow either.
 */
interface MarkdownIt {
  render(source: string): string;
}
type MarkdownItFactory = (options: { html: boolean; linkify: boolean }) => MarkdownIt;

let renderer: MarkdownIt | undefined;

export function renderMarkdown(source: string): string {
  renderer ??= (createRequire(__filename)('markdown-it') as MarkdownItFactory)({ html: true, linkify: true });
  return renderer.render(source);
}

/** The names of the elements of rendered HTML, in order (closing tags left out). */
export function tagsOf(html: string): string[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.toLowerCase());
}

/** The elements of rendered HTML that are not among `allowed`: what text would have made of itself. */
export function strayTags(html: string, allowed: readonly string[]): string[] {
  return tagsOf(html).filter((t) => !allowed.includes(t));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: '\u00a0', '#39': "'" };

/** The text of rendered HTML, as a person reads it: tags dropped, character references decoded. */
export function textOf(html: string): string {
  return html
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#') && name !== '#39') return String.fromCodePoint(parseInt(name.slice(1), 10));
      return ENTITIES[name] ?? m;
    });
}
