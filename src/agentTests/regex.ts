/**
 * A `matches:` value: a pattern as written (`open (daily|every day)`), or a literal with flags (`/opening hours/i`).
 * Returns the pattern, or what is wrong with it in JavaScript's words.
 */
export function parseRegex(text: string): { source: string; flags: string } | { error: string } {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(text);
  const source = literal ? literal[1]! : text;
  const flags = literal ? literal[2]! : '';
  try {
    new RegExp(source, flags);
    return { source, flags };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
