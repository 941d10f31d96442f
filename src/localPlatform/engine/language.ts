/** Words and their roots: the small amount of language the deterministic agent needs. */

const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves please tell know like want need get got let us hi hello hey thanks ' +
    'thank ok okay yes yeah also much many really still may might must shall im ive id youre dont cant isnt whats'
  ).split(' '),
);

/** True for words that carry no topic (articles, pronouns, auxiliaries, politeness). */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/**
 * Lower-cased words of a text, apostrophes folded (`what's` -> `whats`), split on anything
 * that is not a letter or digit.
 */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * A light suffix stemmer, so `returns`, `returning` and `returned` meet `return`. Short words
 * are left alone; it only has to be consistent between questions and topics.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return word.slice(0, -3) + 'y';
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith('es') && /(?:ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;
}

/** The terms a text is indexed and searched by: words without stopwords, stemmed. */
export function terms(text: string): string[] {
  return words(text)
    .filter((w) => !isStopword(w))
    .map(stem);
}

/** A URL-style slug of a name: `Opening hours` -> `opening-hours`. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'topic';
}
