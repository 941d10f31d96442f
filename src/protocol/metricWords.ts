import { type ClockOptions, clockWords, durationWords, sameDay } from './timeWords';

// Response metrics as a person reads them: names in words, times as times of day, long lists summed up.
// No 'vscode', no DOM: the transcript viewer's page uses it, and its rules are unit-tested.

/** The platform's built-in response metrics (and the usual custom ones), in words. */
const KNOWN_NAMES: Readonly<Record<string, string>> = {
  CALL_DURATION: 'Call duration',
  CALL_TURN: 'Turn times',
  CALL_IN_PROGRESS: 'In progress',
  CALL_COMPLETED: 'Completed',
  HANDOFF_TO: 'Handed off to',
  HANDOFF_REASON: 'Handoff reason',
  CSAT: 'Customer satisfaction (CSAT)',
};

/** Metrics whose value is a number of seconds (as the record's total_duration). */
const SECONDS = new Set(['CALL_DURATION']);

/** A list longer than this is summed up (count, first and last) rather than written out. */
const LIST_WRITTEN_OUT = 3;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const SNAKE = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+$/;

/** A metric's name in words: the known ones by name, any other UPPER_SNAKE or lower_snake as a phrase ("Call turn"). */
export function metricName(name: string): string {
  const known = KNOWN_NAMES[name];
  if (known) return known;
  if (!SNAKE.test(name)) return name;
  const words = name.toLowerCase().split('_').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function instantMs(text: string): number | undefined {
  if (!ISO_INSTANT.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Instants as times of day, with their dates only when they do not all fall on one day. */
function timesText(first: number, others: readonly number[], opts: ClockOptions): string {
  const sorted = [first, ...others].sort((a, b) => a - b);
  const earliest = sorted[0] ?? first;
  const latest = sorted.at(-1) ?? first;
  const at = (ms: number) => clockWords(ms, { ...opts, withDate: !sameDay(earliest, latest, opts) });
  if (sorted.length <= LIST_WRITTEN_OUT) return sorted.map(at).join(', ');
  const count = new Intl.NumberFormat(opts.locale).format(sorted.length);
  return `${count} times, from ${at(earliest)} to ${at(latest)} (${durationWords((latest - earliest) / 1000)})`;
}

/**
 * A metric's value as shown (the platform's text, lists joined with ", "): a list of timestamps as times of day
 * (a long one as its count, first and last), one timestamp with its date, seconds as a duration, true and false
 * as yes and no; anything else as the platform wrote it.
 */
export function metricText(name: string, value: string, opts: ClockOptions = {}): string {
  const parts = value.split(', ');
  const times = parts.map(instantMs).filter((t) => t !== undefined);
  const [first, ...others] = times;
  if (value !== '' && first !== undefined && times.length === parts.length) {
    return others.length === 0 ? clockWords(first, { ...opts, withDate: true }) : timesText(first, others, opts);
  }
  if (SECONDS.has(name) && /^\d+(?:\.\d+)?$/.test(value)) return durationWords(Number(value));
  if (value === 'true') return 'yes';
  if (value === 'false') return 'no';
  return value;
}
