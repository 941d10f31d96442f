/** Spanish number words, as speech recognition writes what a caller says ("veinticinco", "nueve y media"). */
import words from '../words/es.json';
import type { LanguageWords, WordFile } from './types';
import { fromWordFile } from './wordFile';

const file: WordFile = words;

const UNDER_THIRTY = [
  'cero',
  'uno',
  'dos',
  'tres',
  'cuatro',
  'cinco',
  'seis',
  'siete',
  'ocho',
  'nueve',
  'diez',
  'once',
  'doce',
  'trece',
  'catorce',
  'quince',
  'dieciséis',
  'diecisiete',
  'dieciocho',
  'diecinueve',
  'veinte',
  'veintiuno',
  'veintidós',
  'veintitrés',
  'veinticuatro',
  'veinticinco',
  'veintiséis',
  'veintisiete',
  'veintiocho',
  'veintinueve',
];
const TENS = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];
const HUNDREDS = [
  '',
  'ciento',
  'doscientos',
  'trescientos',
  'cuatrocientos',
  'quinientos',
  'seiscientos',
  'setecientos',
  'ochocientos',
  'novecientos',
];
const ORDINALS = [
  '',
  'primero',
  'segundo',
  'tercero',
  'cuarto',
  'quinto',
  'sexto',
  'séptimo',
  'octavo',
  'noveno',
  'décimo',
];

function underHundred(n: number): string {
  if (n < 30) return UNDER_THIRTY[n] ?? '';
  const ones = n % 10;
  return `${TENS[Math.floor(n / 10)] ?? ''}${ones ? ` y ${UNDER_THIRTY[ones] ?? ''}` : ''}`;
}

function underThousand(n: number): string {
  if (n === 100) return 'cien';
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 0) return underHundred(rest);
  return `${HUNDREDS[hundreds] ?? ''}${rest ? ` ${underHundred(rest)}` : ''}`;
}

/** "uno" before "mil" or "millones" is "un" ("veintiún mil", "treinta y un mil"). */
function beforeScale(n: number): string {
  return cardinal(n)
    .replace(/veintiuno$/, 'veintiún')
    .replace(/uno$/, 'un');
}

function cardinal(n: number): string {
  if (n >= 1e6) {
    const millions = Math.floor(n / 1e6);
    const rest = n % 1e6;
    const said = millions === 1 ? 'un millón' : `${beforeScale(millions)} millones`;
    return rest ? `${said} ${cardinal(rest)}` : said;
  }
  if (n >= 1000) {
    const thousands = Math.floor(n / 1000);
    const rest = n % 1000;
    const said = thousands === 1 ? 'mil' : `${beforeScale(thousands)} mil`;
    return rest ? `${said} ${underThousand(rest)}` : said;
  }
  return underThousand(n);
}

/** Ordinals past the tenth are said as cardinals in speech ("el veinticinco"). */
function ordinal(n: number): string {
  return ORDINALS[n] ?? cardinal(n);
}

function time(hours: number, minutes: number, suffix?: string): string {
  const m =
    minutes === 0
      ? suffix
        ? ''
        : ' en punto'
      : minutes === 15
        ? ' y cuarto'
        : minutes === 30
          ? ' y media'
          : ` y ${underHundred(minutes)}`;
  const part =
    suffix === undefined ? '' : suffix === 'am' ? ' de la mañana' : hours < 8 ? ' de la tarde' : ' de la noche';
  return `${hours === 1 ? 'una' : cardinal(hours)}${m}${part}`;
}

function date(y: number, month: number, day: number): string {
  return `${day === 1 ? 'primero' : cardinal(day)} de ${file.months[month - 1] ?? cardinal(month)} de ${cardinal(y)}`;
}

export const spanish: LanguageWords = {
  code: 'es',
  cardinal,
  ordinal,
  year: cardinal,
  time,
  date,
  ordinalWritten: /^(\d+)\.?[ºª°]$/,
  ...fromWordFile(file),
};
