import type { AnswerChecks, HandoffExpectation } from './format';

/** An answer of the agent as a turn's checks see it. */
export interface Answer {
  readonly response: string;
  readonly endConversation: boolean;
  readonly handoff?: { readonly destination?: string; readonly reason?: string };
  readonly latencyMs: number;
}

/** One check that did not hold: what it wanted and what came, as texts a diff can show side by side. */
export interface CheckFailure {
  readonly check: string;
  /** The check that did not hold, in words: `The answer does not contain "open around the clock".` */
  readonly message: string;
  readonly expected: string;
  readonly actual: string;
  /**
   * Whether `expected` is a text to set beside `actual` in a diff: the recorded answer when it differs from the
   * answer, the handoff or end wanted. Not so when the turn has no recorded answer, or the answer is the same.
   */
  readonly comparable: boolean;
}

/** Every check of the turn that does not hold for the answer (none: the turn passed). */
export function checkAnswer(checks: AnswerChecks, answer: Answer): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const text = answer.response;
  // Lowered once per answer: the text checks are case-insensitive and a turn may have many.
  const lower = text.toLowerCase();

  const contains = checks.contains ?? [];
  const missing = those(lower, contains, false);
  if (missing.length > 0)
    failures.push(
      textFailure(checks, text, 'contains', `The answer does not contain ${quoteAll(missing)}.`, listed(contains)),
    );
  if (checks.containsAny && !containsSome(lower, checks.containsAny))
    failures.push(
      textFailure(
        checks,
        text,
        'contains_any',
        `The answer contains none of ${quoteAll(checks.containsAny)}.`,
        listed(checks.containsAny, 'one of'),
      ),
    );
  const present = checks.notContains ? those(lower, checks.notContains, true) : [];
  if (present.length > 0)
    failures.push(
      textFailure(
        checks,
        text,
        'not_contains',
        `The answer contains ${quoteAll(present)}, which it must not.`,
        withoutAll(present),
      ),
    );
  if (checks.notContainsAll && containsEvery(lower, checks.notContainsAll))
    failures.push(
      textFailure(
        checks,
        text,
        'not_contains_all',
        `The answer contains all of ${quoteAll(checks.notContainsAll)}, which must not all appear.`,
        withoutAll(checks.notContainsAll),
      ),
    );
  if (checks.matches && !compiled(checks.matches).test(text))
    failures.push(
      textFailure(
        checks,
        text,
        'matches',
        `The answer does not match /${checks.matches.source}/${checks.matches.flags}.`,
        `an answer matching /${checks.matches.source}/${checks.matches.flags}`,
      ),
    );
  const handoff = checks.handoff ? handoffFailure(checks.handoff, answer.handoff) : undefined;
  if (handoff) failures.push(handoff);
  if (checks.end !== undefined && checks.end !== answer.endConversation)
    failures.push({
      check: 'end',
      message: checks.end
        ? 'The agent did not end the conversation with this answer.'
        : 'The agent ended the conversation with this answer.',
      expected: `end_conversation: ${checks.end}`,
      actual: `end_conversation: ${answer.endConversation}`,
      comparable: true,
    });
  if (checks.maxLatencyMs !== undefined && answer.latencyMs > checks.maxLatencyMs)
    failures.push({
      check: 'max_latency_ms',
      message: `The answer took ${Math.round(answer.latencyMs)} ms, over the budget of ${checks.maxLatencyMs} ms.`,
      expected: `at most ${checks.maxLatencyMs} ms`,
      actual: `${Math.round(answer.latencyMs)} ms`,
      comparable: true,
    });
  return failures;
}

/**
 * The answer's side of a text check; its expected side is the recorded answer when there is one, and a diff is worth
 * showing only when that differs from the answer (else the message alone says what did not hold).
 */
function textFailure(checks: AnswerChecks, text: string, check: string, message: string, wanted: string): CheckFailure {
  const reference = checks.reference;
  return {
    check,
    message,
    expected: reference ?? wanted,
    actual: text,
    comparable: reference !== undefined && reference !== text,
  };
}

/** The texts the answer contains (`contained`), or those it lacks. */
function those(lower: string, needles: readonly string[], contained: boolean): string[] {
  const out: string[] = [];
  for (const needle of needles) if (lower.includes(needle.toLowerCase()) === contained) out.push(needle);
  return out;
}

function containsSome(lower: string, needles: readonly string[]): boolean {
  for (const needle of needles) if (lower.includes(needle.toLowerCase())) return true;
  return false;
}

function containsEvery(lower: string, needles: readonly string[]): boolean {
  for (const needle of needles) if (!lower.includes(needle.toLowerCase())) return false;
  return true;
}

/** A `matches:` pattern compiled once per case as read, not once per answer. */
const patterns = new WeakMap<object, RegExp>();

function compiled(matches: { readonly source: string; readonly flags: string }): RegExp {
  let pattern = patterns.get(matches);
  if (!pattern) {
    pattern = new RegExp(matches.source, matches.flags);
    patterns.set(matches, pattern);
  }
  // A global or sticky pattern remembers where it last matched; each answer is matched from its start.
  pattern.lastIndex = 0;
  return pattern;
}

function handoffFailure(
  want: HandoffExpectation,
  got: { destination?: string; reason?: string } | undefined,
): CheckFailure | undefined {
  const actual = describeHandoff(got);
  if (want.kind === 'none')
    return got
      ? {
          check: 'handoff',
          message: `The agent handed off (${actual}).`,
          expected: 'no handoff',
          actual,
          comparable: true,
        }
      : undefined;
  const expected =
    want.kind === 'any' ? 'a handoff' : describeHandoff({ destination: want.destination, reason: want.reason });
  if (!got) return { check: 'handoff', message: 'The agent did not hand off.', expected, actual, comparable: true };
  if (want.kind === 'to') {
    const wrong =
      (want.destination !== undefined && want.destination !== got.destination) ||
      (want.reason !== undefined && want.reason !== got.reason);
    if (wrong)
      return { check: 'handoff', message: `The agent handed off, but ${actual}.`, expected, actual, comparable: true };
  }
  return undefined;
}

function describeHandoff(h: { destination?: string | undefined; reason?: string | undefined } | undefined): string {
  if (!h) return 'no handoff';
  const parts = [
    h.destination !== undefined ? `to ${h.destination}` : undefined,
    h.reason !== undefined ? `for "${h.reason}"` : undefined,
  ].filter(Boolean);
  return `handoff ${parts.join(' ') || '(no destination or reason given)'}`;
}

function quoteAll(texts: readonly string[]): string {
  return texts.map((t) => `"${t}"`).join(', ');
}

function listed(texts: readonly string[], how = 'all of'): string {
  return `an answer containing ${how}:\n${texts.map((t) => `  ${t}`).join('\n')}`;
}

function withoutAll(texts: readonly string[]): string {
  return `an answer without:\n${texts.map((t) => `  ${t}`).join('\n')}`;
}
