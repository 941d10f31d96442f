import { findPhoneNumbersInText } from 'libphonenumber-js';
import type { Finding } from '../problem';
import { type FileRule, wholeLine } from '../rule';

const EMAIL = /\b[A-Za-z0-9._%+-]+@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})\b/g;
/** Domains kept for examples (RFC 2606): an address there belongs to nobody. */
const EXAMPLE_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|example|invalid|test|localhost)$/i;

/** The comment that marks a line of a topic as meant to be public (a restaurant's own phone and e-mail). */
export const PUBLIC_MARK = '<!-- agent-workbench: public -->';
const MARKED = /<!--\s*agent-workbench:\s*public\s*-->/i;

/**
 * Phone numbers and e-mail addresses in knowledge: retrieval can read them out to any caller. Phone numbers are
 * found by libphonenumber-js, written internationally (+44 ...) or in the North American national form. A line
 * that carries {@link PUBLIC_MARK} is meant to be public and is not reported; the quick fix adds the mark.
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
    const say = (start: number, end: number, what: string): void => {
      const line = wholeLine(file, at + start);
      const text = file.text.slice(line.start, line.end);
      if (MARKED.test(text)) return;
      // The mark goes at the end of the line, before a Windows line end.
      const markAt = text.endsWith('\r') ? line.end - 1 : line.end;
      out.push({
        path: file.path,
        start: at + start,
        end: at + end,
        message: `${what} in knowledge: the agent can read it out to any caller; keep personal data out of topics, or mark the line as meant to be public (${PUBLIC_MARK})`,
        fix: {
          title: 'Mark this line as meant to be public',
          edits: [
            {
              path: file.path,
              start: markAt,
              end: markAt,
              newText: `${/\s$/.test(text.slice(0, markAt - line.start)) ? '' : ' '}${PUBLIC_MARK}`,
            },
          ],
        },
      });
    };
    EMAIL.lastIndex = 0;
    if (topic.content.includes('@'))
      for (let m = EMAIL.exec(topic.content); m; m = EMAIL.exec(topic.content))
        if (!EXAMPLE_DOMAIN.test(m[1] ?? '')) say(m.index, m.index + m[0].length, 'An e-mail address');
    // Only where digits are: the search costs far more than this test.
    if (/\d{3}/.test(topic.content))
      for (const found of findPhoneNumbersInText(topic.content, { defaultCountry: 'US' }))
        if (found.number.isValid()) say(found.startsAt, found.endsAt, 'A phone number');
    return out;
  },
};
