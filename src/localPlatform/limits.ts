/**
 * Limits on what a request may carry before it is used or stored. The specification's deepest
 * shape nests a handful of levels; 64 leaves room for any real metadata while keeping every later
 * save, replay and answer (JSON.stringify and friends recurse) far from the end of the stack.
 */
export const MAX_NESTING = 64;

/** Why a body or message was refused, in words a person can act on. */
export const TOO_DEEP = `nests deeper than ${MAX_NESTING} levels`;

/**
 * True when JSON text nests deeper than `max`. Counted on the text, without parsing, so a hostile
 * body costs one pass and no stack.
 */
export function jsonTooDeep(text: string, max = MAX_NESTING): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

/** True when a parsed value nests deeper than `max` (walked without recursion). */
export function valueTooDeep(value: unknown, max = MAX_NESTING): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
