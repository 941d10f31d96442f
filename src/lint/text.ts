import type { Position, Range } from './problem';

/** Offsets of the start of each line of a text, found once per text. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  position(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo]! };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }
}

/** The lines of a text, each without its line break (nor a `\r` before it), and the offset each starts at. */
export interface Lines {
  texts: string[];
  offsets: number[];
}

/** A text's lines in one pass, looking for line breaks only (no pattern per line). */
export function splitLines(text: string): Lines {
  const texts: string[] = [];
  const offsets: number[] = [];
  for (let offset = 0; ;) {
    const next = text.indexOf('\n', offset);
    const end = next === -1 ? text.length : next;
    // One `\r` before the break is part of it (a Windows line end), not of the line.
    texts.push(text.slice(offset, end > offset && text.charCodeAt(end - 1) === 13 ? end - 1 : end));
    offsets.push(offset);
    if (next === -1) return { texts, offsets };
    offset = next + 1;
  }
}
