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
  return LANGUAGES.get(code.split(/[-_]/, 1)[0]?.toLowerCase() ?? '');
}
