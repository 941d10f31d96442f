import type { ConversationTurn } from '../../../contract/conversations';
import type { SearchSnippet, SnippetPart } from '../../../protocol/transcripts';

// The piece of a conversation a search matched, so a result says why it is listed. No 'vscode' here.

/** Characters kept before the first match and after it. */
const BEFORE = 40;
const AFTER = 80;

function wordsOf(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
}

/** The text cut to a window around `at` (on spaces where it can), with an ellipsis where it was cut. */
function windowAround(text: string, at: number, length: number): { start: number; end: number } {
  let start = Math.max(0, at - BEFORE);
  let end = Math.min(text.length, at + length + AFTER);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space >= 0 && space < at) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > at + length) end = space;
  }
  return { start, end };
}

/** The window's text in parts, each occurrence of a word marked. */
function partsOf(text: string, words: readonly string[]): SnippetPart[] {
  const lower = text.toLowerCase();
  const parts: SnippetPart[] = [];
  let at = 0;
  for (;;) {
    let next = -1;
    let len = 0;
    for (const w of words) {
      const i = lower.indexOf(w, at);
      if (i >= 0 && (next < 0 || i < next || (i === next && w.length > len))) [next, len] = [i, w.length];
    }
    if (next < 0) break;
    if (next > at) parts.push({ text: text.slice(at, next), match: false });
    parts.push({ text: text.slice(next, next + len), match: true });
    at = next + len;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}

/**
 * The turn text that best matches a search (most of its words, the earliest turn first), cut to a short
 * window around the first match with every word marked; undefined when no word is found in the turns (a
 * semantic search matches by meaning). `mask` hides phone numbers before the text is searched and cut.
 */
export function snippetOf(
  turns: readonly ConversationTurn[],
  query: string,
  side: 'both' | 'user' | 'agent',
  mask: (text: string) => string,
): SearchSnippet | undefined {
  const words = wordsOf(query);
  if (words.length === 0) return undefined;
  let best: { turn: number; who: 'user' | 'agent'; text: string; found: number } | undefined;
  turns.forEach((t, i) => {
    const said: Array<['user' | 'agent', string]> = [];
    // As the platform searches: the text said and its translation.
    if (side !== 'agent') said.push(['user', t.user_input], ['user', t.translated_user_input ?? '']);
    if (side !== 'user') said.push(['agent', t.agent_response], ['agent', t.english_agent_response ?? '']);
    for (const [who, raw] of said) {
      if (!raw) continue;
      const text = mask(raw);
      const lower = text.toLowerCase();
      const found = words.filter((w) => lower.includes(w)).length;
      if (found > (best?.found ?? 0)) best = { turn: i + 1, who, text, found };
    }
  });
  if (!best) return undefined;
  const { turn, who, text } = best;
  const lower = text.toLowerCase();
  const first = Math.min(...words.map((w) => lower.indexOf(w)).filter((i) => i >= 0));
  const firstLength = words.find((w) => lower.indexOf(w) === first)!.length;
  const { start, end } = windowAround(text, first, firstLength);
  const parts = partsOf(text.slice(start, end).replace(/\s+/g, ' '), words);
  if (start > 0) parts.unshift({ text: '…', match: false });
  if (end < text.length) parts.push({ text: '…', match: false });
  return { turn, who, parts };
}
