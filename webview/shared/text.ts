import { html, type TemplateResult } from 'lit';

/** Bidirectional controls (LRM, RLM, embeddings, overrides, isolates, ALM): shown as their code, so text cannot be made to read backwards. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export function visibleControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `⟦U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟧`);
}

/**
 * Text with each occurrence of the words marked, as text bindings only (never HTML): the words are
 * matched case-insensitively in the text as shown.
 */
export function marked(text: string, words: readonly string[]): TemplateResult | string {
  const shown = visibleControls(text);
  const wanted = words.map((w) => w.toLowerCase()).filter(Boolean);
  if (wanted.length === 0) return shown;
  const lower = shown.toLowerCase();
  const parts: Array<TemplateResult | string> = [];
  let at = 0;
  while (at < shown.length) {
    let next = -1;
    let len = 0;
    for (const w of wanted) {
      const i = lower.indexOf(w, at);
      if (i >= 0 && (next < 0 || i < next)) [next, len] = [i, w.length];
    }
    if (next < 0) break;
    parts.push(shown.slice(at, next), html`<mark>${shown.slice(next, next + len)}</mark>`);
    at = next + len;
  }
  parts.push(shown.slice(at));
  return html`${parts}`;
}
