/** The most characters one answer carries: enough for a page of records, small enough for a model's context. */
export const MAX_ANSWER_CHARS = 12_000;

/** A page of a list and a line saying what was left out and how to get it. */
export function pageOf<T>(
  items: readonly T[],
  offset: number,
  limit: number,
  what: string,
): { shown: readonly T[]; note: string | undefined } {
  const shown = items.slice(offset, offset + limit);
  const after = items.length - offset - shown.length;
  if (items.length === 0) return { shown, note: undefined };
  if (shown.length === 0)
    return {
      shown,
      note: `No ${what} at offset ${offset}: there are ${items.length}. Call again with a smaller offset.`,
    };
  if (after <= 0 && offset === 0) return { shown, note: undefined };
  const range = `${what} ${offset + 1}–${offset + shown.length} of ${items.length}`;
  return {
    shown,
    note:
      after > 0
        ? `Showing ${range}; ${after} more left out: call again with offset ${offset + shown.length}.`
        : `Showing ${range}.`,
  };
}

/**
 * The text cut at a line end to at most `max` characters, with a note of how much was left out. Cut at a line, a
 * record is never shown half.
 */
export function bounded(text: string, max = MAX_ANSWER_CHARS): string {
  if (text.length <= max) return text;
  const room = max - 200;
  const cut = text.lastIndexOf('\n', room);
  const kept = text.slice(0, cut > room / 2 ? cut : room);
  const leftLines = text.slice(kept.length).split('\n').filter(Boolean).length;
  return `${kept}\n… ${text.length - kept.length} more characters (${leftLines} lines) left out of this answer: ask for fewer items (limit), the next page (offset or cursor), or a narrower range.`;
}

/** A text shortened to `max` characters with an ellipsis, for one field of a line. */
export function clip(text: string, max: number): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length <= max ? single : `${single.slice(0, max - 1)}…`;
}
