/**
 * The part of vscode.l10n that wording needs. Modules that build text without touching the editor take
 * it as a parameter (named `l10n`, so `l10n.t('…')` calls read and extract like the editor's), and unit
 * tests pass `plainL10n`.
 */
export interface L10n {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

/** Fills `{0}`, `{1}`… with the arguments, untranslated: what vscode.l10n.t does without a bundle. */
export const plainL10n: L10n = {
  t: (message, ...args) =>
    message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole)),
};
