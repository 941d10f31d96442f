/** A message as words with the punctuation around each, and back: what every kind of `perturb:` works on. */

/** A word with the punctuation around it: `(25th),` is `(`, `25th` and `),`. */
export interface Token {
  pre: string;
  core: string;
  post: string;
}

const EDGES = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/su;
const OTHER_SPACE = /[^\S ]| {2}/;

/** The words again as one message, a space between each. */
export function joined(tokens: readonly Token[]): string {
  let text = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    text += `${i === 0 ? '' : ' '}${t.pre}${t.core}${t.post}`;
  }
  return text;
}

/** The words of a message, whatever whitespace is between them. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  // Most messages are words between single spaces: split on them, and on any whitespace only when there is other.
  const words = OTHER_SPACE.test(text) ? text.split(/\s+/) : text.split(' ');
  for (const word of words) {
    if (word === '') continue;
    // Most words have nothing around them: only those with a mark at either end are taken apart.
    if (plain(word.charCodeAt(0)) && plain(word.charCodeAt(word.length - 1))) {
      tokens.push({ pre: '', core: word, post: '' });
      continue;
    }
    const m = EDGES.exec(word);
    tokens.push(m ? { pre: m[1] ?? '', core: m[2] ?? '', post: m[3] ?? '' } : { pre: '', core: word, post: '' });
  }
  return tokens;
}

/** An ASCII letter or digit. */
function plain(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
}
