/**
 * What a caller asks the demo agents to do, recognised by rule as the platform's understanding would: a table
 * booking (Bella Tavola) and a blocked card (Northwind). Each adds an intent and entities to the turn and sets
 * state keys, as a real agent's functions set `conv.state`, so record checks have something real to check.
 */

/** What a message adds to its turn and to the conversation's state. */
export interface Recognised {
  readonly intents: readonly string[];
  readonly entities: Readonly<Record<string, string>>;
  readonly state: Readonly<Record<string, unknown>>;
}

const NOTHING: Recognised = { intents: [], entities: {}, state: {} };

const BOOKING = /\b(?:book(?:ing)?|reserve|reservation|a table)\b/i;
const CARD = /\bcard\b/i;
const CARD_ACTION = /\b(?:block|freeze|cancel|stop|lost|stolen|missing)\b/i;

const UNITS = [
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
];
const TEENS = ['thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
};

/** A number written in digits or spoken words up to 59 ("four", "twenty five", "thirty"), or undefined. */
export function spokenNumber(text: string): number | undefined {
  const words = text
    .trim()
    .toLowerCase()
    .split(/[\s-]+/);
  if (words.length === 1 && /^\d+$/.test(words[0] ?? '')) return Number(words[0]);
  const one = (w: string | undefined) => {
    if (w === undefined) return undefined;
    const unit = UNITS.indexOf(w);
    if (unit >= 0) return unit;
    const teen = TEENS.indexOf(w);
    return teen >= 0 ? 13 + teen : undefined;
  };
  const tens = { twenty: 20, thirty: 30, forty: 40, fifty: 50 } as Record<string, number>;
  const [first, second] = words;
  if (first !== undefined && tens[first] !== undefined) {
    const rest = words.length === 2 ? one(second) : 0;
    return words.length <= 2 && rest !== undefined && rest < 10 ? (tens[first] ?? 0) + rest : undefined;
  }
  return words.length === 1 ? one(first) : undefined;
}

const NUMBER_WORDS = String.raw`(?:\d{1,2}|(?:twenty|thirty|forty|fifty)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)`;
const PARTY = new RegExp(
  String.raw`\b(?:for|party of|table of)\s+(${NUMBER_WORDS})(?:\s+(?:people|persons|guests|of us))?\b`,
  'i',
);
const ORDINAL_WORDS = String.raw`(?:(?:twenty|thirty)[\s-])?(?:${Object.keys(ORDINALS).join('|')})|\d{1,2}(?:st|nd|rd|th)`;
const DAY = new RegExp(String.raw`\b(?:on\s+)?the\s+(${ORDINAL_WORDS})\b`, 'i');
const TIME = new RegExp(
  String.raw`\bat\s+(\d{1,2}(?::\d{2})?\s*(?:am|pm)?|${NUMBER_WORDS}(?:\s+(?:thirty|fifteen|forty[\s-]five|o'?clock))?(?:\s*(?:am|pm))?)\b`,
  'i',
);

/** The day of the month of "the twenty fifth", "the 25th", "the third". */
function dayOf(text: string): number | undefined {
  const t = text.toLowerCase();
  const digits = /^(\d{1,2})/.exec(t);
  if (digits) return Number(digits[1]);
  const words = t.split(/[\s-]+/);
  const last = ORDINALS[words[words.length - 1] ?? ''];
  if (last === undefined) return undefined;
  return words.length === 2 ? (words[0] === 'twenty' ? 20 : 30) + last : last;
}

/** "nine thirty" → 09:30, "7pm" → 19:00, "half past" is left alone. */
function timeOf(text: string): string | undefined {
  const t = text.trim().toLowerCase();
  const pm = /pm$/.test(t);
  const digits = /^(\d{1,2})(?::(\d{2}))?\s*(?:am|pm)?$/.exec(t);
  let hour: number | undefined;
  let minute = 0;
  if (digits) {
    hour = Number(digits[1]);
    minute = Number(digits[2] ?? 0);
  } else {
    const m = /^(.+?)(?:\s+(thirty|fifteen|forty[\s-]five|o'?clock))?\s*(?:am|pm)?$/.exec(t);
    hour = m?.[1] !== undefined ? spokenNumber(m[1]) : undefined;
    const spoken = m?.[2];
    minute = spoken === 'thirty' ? 30 : spoken === 'fifteen' ? 15 : spoken?.startsWith('forty') ? 45 : 0;
  }
  if (hour === undefined || hour > 23 || minute > 59) return undefined;
  if (pm && hour < 12) hour += 12;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** A short reference that is the same for the same conversation: `BT-4F2A9C`. */
function referenceOf(prefix: string, conversationId: string): string {
  let h = 2166136261;
  for (let i = 0; i < conversationId.length; i++) h = Math.imul(h ^ conversationId.charCodeAt(i), 16777619);
  return `${prefix}-${(h >>> 0).toString(16).toUpperCase().padStart(8, '0').slice(0, 6)}`;
}

/**
 * What the message asks for, given the state so far (a booking's details may come over several turns): a booking
 * is made, with a `booking_reference`, once it has a party size and a day or a time.
 */
export function recognise(
  message: string,
  state: Readonly<Record<string, unknown>>,
  conversationId: string,
): Recognised {
  const booking = BOOKING.test(message) || state.requested === 'book_table';
  if (CARD.test(message) && CARD_ACTION.test(message)) {
    const last = /\b(?:ending(?: in)?|last four(?: digits)?(?: are)?)\s+(\d{4})\b/i.exec(message)?.[1];
    return {
      intents: ['block_card'],
      entities: last ? { card_last_four: last } : {},
      state: {
        requested: 'block_card',
        card_blocked: true,
        card_block_reference: referenceOf('CB', conversationId),
        ...(last ? { card_last_four: last } : {}),
      },
    };
  }
  if (!booking) return NOTHING;
  const entities: Record<string, string> = {};
  const party = PARTY.exec(message)?.[1];
  const size = party !== undefined ? spokenNumber(party) : undefined;
  if (size !== undefined) entities.party_size = String(size);
  const day = DAY.exec(message)?.[1];
  const date = day !== undefined ? dayOf(day) : undefined;
  if (date !== undefined && date >= 1 && date <= 31) entities.booking_day = String(date);
  const at = TIME.exec(message)?.[1];
  const time = at !== undefined ? timeOf(at) : undefined;
  if (time !== undefined) entities.booking_time = time;
  if (!BOOKING.test(message) && Object.keys(entities).length === 0) return NOTHING;
  const details = {
    ...(typeof state.party_size === 'string' ? { party_size: state.party_size } : {}),
    ...(typeof state.booking_day === 'string' ? { booking_day: state.booking_day } : {}),
    ...(typeof state.booking_time === 'string' ? { booking_time: state.booking_time } : {}),
    ...entities,
  };
  const made =
    details.party_size !== undefined && (details.booking_day !== undefined || details.booking_time !== undefined);
  return {
    intents: ['book_table'],
    entities,
    state: {
      requested: 'book_table',
      ...details,
      booking_confirmed: made,
      ...(made ? { booking_reference: referenceOf('BT', conversationId) } : {}),
    },
  };
}
