/** What `perturb:` needs of a language: its words for numbers, fillers and mishearings (one module per language). */
export interface LanguageWords {
  /** The primary language subtag the words are for: `en` serves en-GB and en-US alike. */
  readonly code: string;
  readonly cardinal: (n: number) => string;
  readonly ordinal: (n: number) => string;
  /** A year as it is said ("twenty twenty six"). */
  readonly year: (n: number) => string;
  /** A clock time; `suffix` is am or pm when written. */
  readonly time: (hours: number, minutes: number, suffix?: string) => string;
  /** A date written as 2026-12-25. */
  readonly date: (year: number, month: number, day: number) => string;
  /** The digits 0 to 9 as read out one by one (a phone number, a reference). */
  readonly digits: readonly string[];
  /** The word between the whole and the decimal part ("point"). */
  readonly point: string;
  readonly percent: string;
  /** A currency symbol's word, said after the amount ("$5" is "five dollars"). */
  readonly currency: Readonly<Record<string, string>>;
  /** How an ordinal is written with digits (25th): the number is group 1. */
  readonly ordinalWritten: RegExp;
  /** "um", "uh": said at the start of a clause. */
  readonly fillers: readonly string[];
  /** A word (lower case) and what recognition hears instead. */
  readonly mishearings: ReadonlyMap<string, readonly string[]>;
}

/** The bundled word file of a language (words/<code>.json). */
export interface WordFile {
  readonly fillers: readonly string[];
  readonly mishearings: Readonly<Record<string, readonly string[]>>;
  readonly months: readonly string[];
  readonly digits: readonly string[];
  readonly point: string;
  readonly percent: string;
  readonly currency: Readonly<Record<string, string>>;
}
