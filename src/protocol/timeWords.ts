// Times and lengths of time in one wording, for the editor and the panels alike (no 'vscode', no DOM).

/** A length of time as a person reads it: "45 s", "1 min 5 s", "1 h 40 min 2 s" (larger parts left out when zero). */
export function durationWords(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${m} min ${s} s`;
  if (m > 0) return `${m} min ${s} s`;
  return `${s} s`;
}

const UNITS: ReadonlyArray<[number, Intl.RelativeTimeFormatUnit]> = [
  [31_536_000_000, 'year'],
  [2_592_000_000, 'month'],
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
];

/**
 * How long ago (or from now) an instant is, in whole units counted down, so every place that shows the same
 * instant says the same: "12 seconds ago", "2 minutes ago", "3 hours ago", "yesterday" (in the locale's words).
 */
export function relativeWords(atMs: number, nowMs: number, locale?: string): string {
  const diff = nowMs - atMs;
  const abs = Math.abs(diff);
  const fmt = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [ms, unit] of UNITS) {
    if (abs >= ms) return fmt.format(-Math.sign(diff) * Math.floor(abs / ms), unit);
  }
  return fmt.format(-Math.sign(diff) * Math.floor(abs / 1000), 'second');
}

/** Where and how an instant is written: the reader's locale and time zone unless given (tests give both). */
export interface ClockOptions {
  locale?: string;
  timeZone?: string;
  /** Writes the date too ("5 Jan 2026, 08:00:01"), for an instant read without a day around it. */
  withDate?: boolean;
}

/** An instant as a time of day ("08:00:01"), with its date when asked; "" for a time that cannot be read. */
export function clockWords(atMs: number, opts: ClockOptions = {}): string {
  if (!Number.isFinite(atMs)) return '';
  return new Intl.DateTimeFormat(opts.locale, {
    ...(opts.timeZone ? { timeZone: opts.timeZone } : {}),
    ...(opts.withDate ? { dateStyle: 'medium' } : {}),
    timeStyle: 'medium',
  }).format(atMs);
}

/** Whether two instants fall on the same calendar day where they are read. */
export function sameDay(aMs: number, bMs: number, opts: ClockOptions = {}): boolean {
  const day = new Intl.DateTimeFormat('en-CA', {
    ...(opts.timeZone ? { timeZone: opts.timeZone } : {}),
    dateStyle: 'short',
  });
  return day.format(aMs) === day.format(bMs);
}
