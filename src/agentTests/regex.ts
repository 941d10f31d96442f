/**
 * A `matches:` value: a pattern as written (`open (daily|every day)`), or a literal with flags (`/opening hours/i`).
 * Returns the pattern, or what is wrong with it in JavaScript's words.
 */
export function parseRegex(text: string): { source: string; flags: string } | { error: string } {
  const [, source = text, flags = ''] = /^\/(.*)\/([a-z]*)$/s.exec(text) ?? [];
  try {
    new RegExp(source, flags);
    return { source, flags };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
