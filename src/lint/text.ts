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

/** Each line of a text with the offset it starts at (without its line break). */
export function* linesOf(text: string): Generator<{ line: string; offset: number }> {
  let offset = 0;
  while (offset <= text.length) {
    const next = text.indexOf('\n', offset);
    const end = next === -1 ? text.length : next;
    yield { line: text.slice(offset, end).replace(/\r$/, ''), offset };
    if (next === -1) return;
    offset = next + 1;
  }
}
