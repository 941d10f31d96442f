import { findPhoneNumbersInText } from 'libphonenumber-js';
import type { Finding } from '../problem';
import type { FileRule } from '../rule';

const EMAIL = /\b[A-Za-z0-9._%+-]+@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})\b/g;
/** Domains kept for examples (RFC 2606): an address there belongs to nobody. */
const EXAMPLE_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|example|invalid|test|localhost)$/i;

/**
 * Phone numbers and e-mail addresses in knowledge: retrieval can read them out to any caller. Phone numbers are
 * found by libphonenumber-js, written internationally (+44 ...) or in the North American national form.
 */
export const personalData: FileRule = {
  id: 'personal-data',
  severity: 'warning',
  summary: 'a phone number or e-mail address in a knowledge topic',
  scope: 'file',
  check(file) {
    const topic = file.topic;
    if (!topic || file.unreadable) return [];
    const out: Finding[] = [];
    const at = topic.contentStart;
    const say = (start: number, end: number, what: string): void =>
      void out.push({
        path: file.path,
        start: at + start,
        end: at + end,
        message: `${what} in knowledge: the agent can read it out to any caller; keep personal data out of topics, or make sure it is meant to be public`,
      });
    EMAIL.lastIndex = 0;
    if (topic.content.includes('@'))
      for (let m = EMAIL.exec(topic.content); m; m = EMAIL.exec(topic.content))
        if (!EXAMPLE_DOMAIN.test(m[1]!)) say(m.index, m.index + m[0].length, 'An e-mail address');
    // Only where digits are: the search costs far more than this test.
    if (/\d{3}/.test(topic.content))
      for (const found of findPhoneNumbersInText(topic.content, { defaultCountry: 'US' }))
        if (found.number.isValid()) say(found.startsAt, found.endsAt, 'A phone number');
    return out;
  },
};
