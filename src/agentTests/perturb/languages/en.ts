/** English number words, as speech recognition writes what a caller says (US style: no "and" in "one hundred five"). */
import words from '../words/en.json';
import type { LanguageWords, WordFile } from './types';
import { fromWordFile } from './wordFile';

const file: WordFile = words;

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: readonly [number, string][] = [
  [1e9, 'billion'],
  [1e6, 'million'],
  [1e3, 'thousand'],
];
const ORDINAL_ENDS: Readonly<Record<string, string>> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

function underHundred(n: number): string {
  if (n < 20) return ONES[n] ?? '';
  const ones = n % 10;
  return `${TENS[Math.floor(n / 10)] ?? ''}${ones ? ` ${ONES[ones] ?? ''}` : ''}`;
}

function underThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 0) return underHundred(rest);
  return `${ONES[hundreds] ?? ''} hundred${rest ? ` ${underHundred(rest)}` : ''}`;
}

function cardinal(n: number): string {
  if (n < 1000) return underThousand(n);
  const parts: string[] = [];
  let rest = n;
  for (const [size, name] of SCALES) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${cardinal(count)} ${name}`);
    rest %= size;
  }
  if (rest > 0) parts.push(underThousand(rest));
  return parts.join(' ');
}

function ordinal(n: number): string {
  const spoken = cardinal(n);
  const cut = spoken.lastIndexOf(' ') + 1;
  const last = spoken.slice(cut);
  const end = ORDINAL_ENDS[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return spoken.slice(0, cut) + end;
}

function year(n: number): string {
  if (n < 1100 || n > 2099 || (n >= 2000 && n < 2010)) return cardinal(n);
  const high = Math.floor(n / 100);
  const low = n % 100;
  return `${cardinal(high)} ${low === 0 ? 'hundred' : low < 10 ? `oh ${ONES[low] ?? ''}` : underHundred(low)}`;
}

function time(hours: number, minutes: number, suffix?: string): string {
  const m =
    minutes === 0
      ? suffix
        ? ''
        : " o'clock"
      : minutes < 10
        ? ` oh ${ONES[minutes] ?? ''}`
        : ` ${underHundred(minutes)}`;
  return `${cardinal(hours)}${m}${suffix ? ` ${suffix}` : ''}`;
}

function date(y: number, month: number, day: number): string {
  return `${file.months[month - 1] ?? cardinal(month)} ${ordinal(day)} ${year(y)}`;
}

export const english: LanguageWords = {
  code: 'en',
  cardinal,
  ordinal,
  year,
  time,
  date,
  ordinalWritten: /^(\d+)(?:st|nd|rd|th)$/i,
  ...fromWordFile(file),
};
