import type * as JsoncParser from 'jsonc-parser';
import type { L10n } from './l10n';

// What is wrong with JSON a person typed, at a line and column and in words, rather than the parser's
// "Unexpected token } in JSON at position 37". Shared by the editor's JSON inputs and the agent folder checks.

/** Where JSON first goes wrong: 1-based line and column, the offset, and what to fix there. */
export interface JsonSyntaxProblem {
  offset: number;
  line: number;
  column: number;
  fix: string;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** Whether the text before an offset is already whole JSON (so what follows is too much). */
function completeBefore(text: string, offset: number): boolean {
  if (!text.slice(0, offset).trim()) return false;
  try {
    JSON.parse(text.slice(0, offset));
    return true;
  } catch {
    return false;
  }
}

/** What to fix for one parse error, said of the text at its place. */
function fixOf(jsonc: typeof JsoncParser, l10n: L10n, text: string, e: JsoncParser.ParseError): string {
  const at = text.slice(e.offset, e.offset + Math.max(1, e.length));
  const previous = text.slice(0, e.offset).trimEnd().slice(-1);
  // The error's name (the enum is const, so read by name).
  const code = jsonc.printParseErrorCode(e.error);
  if ((at.startsWith('}') || at.startsWith(']')) && previous === ',')
    return l10n.t('remove the comma before {0}', at.charAt(0));
  if (code === 'EndOfFileExpected' || completeBefore(text, e.offset))
    return l10n.t('nothing may follow the object: remove what comes after its closing }');
  switch (code) {
    case 'InvalidSymbol':
      if (at.startsWith("'")) return l10n.t('JSON writes text in double quotes ("…"), not single quotes');
      if (/^[A-Za-z_$]/.test(at))
        return l10n.t('write {0} in double quotes ("{0}"), as JSON writes names and text', at);
      return l10n.t('{0} cannot stand here', at);
    case 'PropertyNameExpected':
      return l10n.t('a name in double quotes is expected here, such as "campaign"');
    case 'ValueExpected':
      return l10n.t('a value is expected here, such as "spring", 7, true or {}');
    case 'ColonExpected':
      return l10n.t('a colon is expected after the name');
    case 'CommaExpected':
      return l10n.t('a comma is expected between two entries');
    case 'CloseBraceExpected':
      return l10n.t('a closing } is missing');
    case 'CloseBracketExpected':
      return l10n.t('a closing ] is missing');
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return l10n.t('JSON has no comments: remove it');
    case 'UnexpectedEndOfString':
      return l10n.t('a text is not closed: add its closing double quote');
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return l10n.t('{0} is not a number JSON can read', at);
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
      return l10n.t('a backslash starts an escape JSON does not know: write \\\\ for a backslash');
    case 'InvalidCharacter':
      return l10n.t('a line break or tab inside a text: write it as \\n or \\t');
    default:
      return l10n.t('the text here cannot be read as JSON');
  }
}

/**
 * Where JSON that failed to parse first goes wrong and what to fix there. Undefined when the text parses (or is
 * empty, which the caller says in its own words). `jsonc` is jsonc-parser, passed in so that a caller can load it
 * on first use.
 */
export function jsonSyntaxProblem(jsonc: typeof JsoncParser, l10n: L10n, text: string): JsonSyntaxProblem | undefined {
  const errors: JsoncParser.ParseError[] = [];
  jsonc.parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return undefined;
  return { offset: first.offset, ...lineAndColumn(text, first.offset), fix: fixOf(jsonc, l10n, text, first) };
}
