/** What a user's message asks for, before any knowledge is searched. */
export type UserAct = 'silence' | 'handoff' | 'goodbye' | 'greeting' | 'question';

const HANDOFF =
  /\b(?:person|people|human|humans|agent|agents|representative|rep|operator|someone real|real someone|staff member|member of (?:staff|your team)|live chat)\b/i;
const GOODBYE =
  /\b(?:good ?bye|bye|bye-bye|see you|that(?:'|\u2019)?s all|that is all|nothing else|end (?:the )?(?:chat|conversation))\b/i;
const GREETING =
  /^\s*(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening)|greetings)\b[\s!,.]*(?:there|sam|team)?[\s!,.]*$/i;

/** Classifies a message by rule: empty is silence, asking for a person is a handoff, and so on. */
export function classify(message: string): UserAct {
  if (message.trim() === '') return 'silence';
  if (HANDOFF.test(message)) return 'handoff';
  if (GOODBYE.test(message)) return 'goodbye';
  if (GREETING.test(message)) return 'greeting';
  return 'question';
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const DATE = new RegExp(
  [
    String.raw`\b\d{4}-\d{2}-\d{2}\b`,
    String.raw`\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b`,
    String.raw`\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:${MONTHS})\b(?:\s+\d{4})?`,
    String.raw`\b(?:${MONTHS})\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4})?`,
    String.raw`\b(?:today|tomorrow|yesterday)\b`,
  ].join('|'),
  'gi',
);
const NUMBER = /(?<![\w.])\d+(?:[.,]\d+)?(?![\w])/g;

/**
 * Simple entities found by pattern: emails, dates and numbers. Repeated kinds are numbered
 * (`number`, `number_2`); a number that is part of a date or an email is not counted again.
 */
export function extractEntities(message: string): Record<string, string> {
  const entities: Record<string, string> = {};
  const put = (kind: string, value: string): void => {
    let name = kind;
    for (let i = 2; name in entities; i++) name = `${kind}_${i}`;
    entities[name] = value;
  };
  let rest = message;
  for (const m of message.match(EMAIL) ?? []) {
    put('email', m);
    rest = rest.replace(m, ' ');
  }
  for (const m of rest.match(DATE) ?? []) {
    put('date', m);
    rest = rest.replace(m, ' ');
  }
  for (const m of rest.match(NUMBER) ?? []) put('number', m);
  return entities;
}
