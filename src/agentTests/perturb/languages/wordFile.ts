import type { LanguageWords, WordFile } from './types';

/** What a language takes from its word file as it is: the words that need no rules of the language to be said. */
export function fromWordFile(
  file: WordFile,
): Pick<LanguageWords, 'digits' | 'point' | 'percent' | 'currency' | 'fillers' | 'mishearings'> {
  return {
    digits: file.digits,
    point: file.point,
    percent: file.percent,
    currency: file.currency,
    fillers: file.fillers,
    mishearings: new Map(Object.entries(file.mishearings)),
  };
}
