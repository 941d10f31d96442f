/** Bidirectional controls (LRM, RLM, embeddings, overrides, isolates, ALM): shown as their code, so text cannot be made to read backwards. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Text from the platform as it is shown: bidirectional controls made visible. Always set as text, never HTML. */
export function visibleControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `⟦U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟧`);
}
