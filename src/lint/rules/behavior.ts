import type { ParsedFile } from '../agentFile';
import type { Finding } from '../problem';
import type { FileRule } from '../rule';
import { perObject } from '../perObject';
import { type Lines, splitLines } from '../text';

/** Every character of the behavior is read on every turn: a long prompt is slower, dearer and harder to follow. */
export const behaviorLengthBudget: FileRule = {
  id: 'behavior-length-budget',
  severity: 'warning',
  summary: 'a behavior prompt longer than its budget',
  scope: 'file',
  check(file, context) {
    const budget = context.options.behaviorBudget;
    if (file.kind !== 'behavior' || file.unreadable || file.text.length <= budget) return [];
    return [
      {
        path: file.path,
        start: budget,
        end: file.text.length,
        message: `The behavior is ${file.text.length} characters, over its budget of ${budget}: move reference material into knowledge topics`,
      },
    ];
  },
};

/** The behavior's lines, split once for both rules that read it line by line. */
const behaviorLines = perObject((file: ParsedFile): Lines => splitLines(file.text));

/** A finding on each line of the behavior that `matches`, from its first non-blank character. */
function lineFindings(file: ParsedFile, matches: (line: string) => boolean, message: string): Finding[] {
  if (file.kind !== 'behavior' || file.unreadable) return [];
  const out: Finding[] = [];
  const { texts, offsets } = behaviorLines(file);
  for (let i = 0; i < texts.length; i++) {
    const line = texts[i]!;
    if (!matches(line)) continue;
    const offset = offsets[i]!;
    out.push({
      path: file.path,
      start: offset + (line.length - line.trimStart().length),
      end: offset + line.length,
      message,
    });
  }
  return out;
}

/** An instruction that only forbids: starts with never, don't, do not, avoid, must not ... */
const PROHIBITION =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:(?:you\s+)?(?:must|should)\s+(?:never|not)|never|don'?t|do\s+not|avoid|under\s+no\s+circumstances)\b/i;
/** What turns a prohibition into guidance: the thing to do instead. */
const ALTERNATIVE = /\b(?:instead|rather|but|unless|except|only|otherwise)\b|[;:→]|->/i;

/** Models follow "do X" better than "don't do Y": a prohibition alone leaves the agent guessing what to do. */
export const behaviorProhibitionOnly: FileRule = {
  id: 'behavior-prohibition-only',
  severity: 'info',
  summary: 'an instruction phrased only as a prohibition, with nothing to do instead',
  scope: 'file',
  check(file) {
    return lineFindings(
      file,
      (line) => PROHIBITION.test(line) && !ALTERNATIVE.test(line),
      'This instruction only says what not to do: say what the agent should do instead',
    );
  },
};

/** A line the agent is told to say word for word: `Say: "..."`, `Say "..."`, `Respond with: "..."`. */
const SCRIPTED =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:(?:always\s+)?(?:say|respond\s+with|reply\s+with|answer\s+with|read\s+out))\s*(?::\s*\S|["“'])/i;

/** A scripted line sounds the same on every call, whatever the caller said; the platform's prompt guidance warns. */
export const behaviorScriptedLine: FileRule = {
  id: 'behavior-scripted-line',
  severity: 'warning',
  summary: 'a scripted line ("Say: ...") the agent would repeat word for word',
  scope: 'file',
  check(file) {
    return lineFindings(
      file,
      (line) => SCRIPTED.test(line),
      'A scripted line is repeated word for word: describe what to convey and let the agent word it',
    );
  },
};
