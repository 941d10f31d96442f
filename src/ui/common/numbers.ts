/**
 * Whole numbers as a person types them: plain digits, or grouped the way this extension shows them
 * ("1,500" in English, "1.500" in German, "1 500" in French). Returns the number, or undefined when the
 * text is not a whole number of 0 or more (a sign, a fraction or a misplaced separator).
 */
export function parseWholeNumber(text: string, locale?: string): number | undefined {
  const t = text.trim();
  if (/^\d+$/.test(t)) return safe(Number(t));
  const group = groupSeparator(locale);
  // Spaces of any width group digits in many languages; accept them with the locale's own separator.
  const separators = new Set([group, ' ', '\u00a0', '\u202f']);
  const escaped = [...separators].map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const m = new RegExp(`^\\d{1,3}((?:${escaped})\\d{3})+$`).exec(t);
  if (!m) return undefined;
  // One kind of separator throughout.
  const used = new Set(t.replace(/\d/g, ''));
  if (used.size !== 1) return undefined;
  return safe(Number(t.replace(/\D/g, '')));
}

function safe(n: number): number | undefined {
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** The digit-group separator of a locale: "," for English, "." for German. */
export function groupSeparator(locale?: string): string {
  try {
    return new Intl.NumberFormat(locale).formatToParts(10000).find((p) => p.type === 'group')?.value ?? ',';
  } catch {
    return ',';
  }
}
