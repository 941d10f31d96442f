import { english } from './en';
import { spanish } from './es';
import type { LanguageWords } from './types';

/** The languages `perturb:` has word lists for, by primary subtag. */
const LANGUAGES: ReadonlyMap<string, LanguageWords> = new Map([
  [english.code, english],
  [spanish.code, spanish],
]);

export const LANGUAGE_CODES: readonly string[] = [...LANGUAGES.keys()];

/** The words for a language code such as en, en-GB or en_US; undefined when the project has none for it. */
export function wordsFor(code: string): LanguageWords | undefined {
  // Asked once per perturbed turn: the few codes of a run are looked up once each.
  if (seen.has(code)) return seen.get(code);
  const words = LANGUAGES.get(code.split(/[-_]/, 1)[0]?.toLowerCase() ?? '');
  if (seen.size < 64) seen.set(code, words);
  return words;
}

const seen = new Map<string, LanguageWords | undefined>();
