/** `numbers` of `perturb:`: numbers, ordinals, times, dates, amounts and percentages written in digits, said in words. */
import type { LanguageWords } from './languages/types';
import type { Random } from './random';
import type { Token } from './tokens';

const HAS_DIGIT = /\d/;
const TIME = /^(\d{1,2}):(\d{2})(?:\s?([ap])\.?m)?$/i;
const HOUR_SUFFIX = /^(\d{1,2})([ap])m$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INTEGER = /^\d{1,3}(?:,\d{3})+$|^\d+$/;
const DECIMAL = /^(\d+)\.(\d+)$/;

/** Each number, ordinal, time or date written in digits is said in words, with chance `rate`. */
export function speakNumbers(tokens: Token[], words: LanguageWords, random: Random, rate: number): boolean {
  let changed = false;
  for (const token of tokens) {
    if (!HAS_DIGIT.test(token.core)) continue;
    // Drawn for every number, taken or not, so the numbers after it get the same draws whatever this one is.
    if (random.next() >= rate) continue;
    const spoken = spokenNumber(token, words);
    if (spoken === undefined) continue;
    token.core = spoken.core;
    token.pre = spoken.pre;
    token.post = spoken.post;
    changed = true;
  }
  return changed;
}

function spokenNumber(token: Token, words: LanguageWords): Token | undefined {
  const { core } = token;
  let m = TIME.exec(core);
  if (m) {
    const hours = Number(m[1]);
    const minutes = Number(m[2]);
    if (hours > 24 || minutes > 59) return undefined;
    const suffix = m[3] ? `${m[3].toLowerCase()}m` : undefined;
    return { ...token, core: words.time(hours, minutes, suffix) };
  }
  m = HOUR_SUFFIX.exec(core);
  if (m) return { ...token, core: words.time(Number(m[1]), 0, `${(m[2] ?? '').toLowerCase()}m`) };
  m = ISO_DATE.exec(core);
  if (m) {
    const [y, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
    return { ...token, core: words.date(y, month, day) };
  }
  m = words.ordinalWritten.exec(core);
  if (m) return { ...token, core: words.ordinal(Number(m[1])) };
  m = DECIMAL.exec(core);
  const currency = words.currency[token.pre.slice(-1)];
  if (m && currency !== undefined && m[2]?.length === 2) {
    // An amount with cents: "$45.50" is "forty five dollars fifty".
    const cents = Number(m[2]);
    const said = `${words.cardinal(Number(m[1]))} ${currency}${cents ? ` ${words.cardinal(cents)}` : ''}`;
    return { pre: token.pre.slice(0, -1), core: said, post: token.post };
  }
  if (m) {
    const decimals = [...(m[2] ?? '')].map((d) => words.digits[Number(d)] ?? d).join(' ');
    return withUnits(token, `${words.cardinal(Number(m[1]))} ${words.point} ${decimals}`, words);
  }
  if (!INTEGER.test(core)) return undefined;
  const digits = core.replace(/,/g, '');
  // A phone number or a reference is read out digit by digit; a number that long is not said as one.
  if ((digits.length >= 5 && digits.startsWith('0')) || digits.length > 9)
    return { ...token, core: [...digits].map((d) => words.digits[Number(d)] ?? d).join(' ') };
  const n = Number(digits);
  // Four digits from 1900 to 2099 are most often a year ("in 2026"), said as one; an amount ("$1950") is not.
  const said = digits.length === 4 && !token.pre && n >= 1900 && n <= 2099 ? words.year(n) : words.cardinal(n);
  return withUnits(token, said, words);
}

/** A currency symbol before the amount or a percent sign after it, said after the number. */
function withUnits(token: Token, said: string, words: LanguageWords): Token {
  let { pre, post } = token;
  const units: string[] = [];
  const currency = words.currency[pre.slice(-1)];
  if (currency !== undefined) {
    units.push(currency);
    pre = pre.slice(0, -1);
  }
  if (post.startsWith('%')) {
    units.push(words.percent);
    post = post.slice(1);
  }
  return { pre, core: units.length ? `${said} ${units.join(' ')}` : said, post };
}
