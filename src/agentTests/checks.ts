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
  readonly message: string;
  readonly expected: string;
  readonly actual: string;
}

/** Every check of the turn that does not hold for the answer (none: the turn passed). */
export function checkAnswer(checks: AnswerChecks, answer: Answer): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const text = answer.response;
  const has = (needle: string) => text.toLowerCase().includes(needle.toLowerCase());
  // The answer's side of a text check; its expected side is the recorded answer when there is one.
  const textFailure = (check: string, message: string, wanted: string): CheckFailure => ({
    check,
    message,
    expected: checks.reference ?? wanted,
    actual: text,
  });

  const missing = (checks.contains ?? []).filter((n) => !has(n));
  if (missing.length > 0)
    failures.push(
      textFailure('contains', `The answer does not contain ${quoteAll(missing)}.`, listed(checks.contains!)),
    );
  if (checks.containsAny && !checks.containsAny.some(has))
    failures.push(
      textFailure(
        'contains_any',
        `The answer contains none of ${quoteAll(checks.containsAny)}.`,
        listed(checks.containsAny, 'one of'),
      ),
    );
  const present = (checks.notContains ?? []).filter(has);
  if (present.length > 0)
    failures.push(
      textFailure('not_contains', `The answer contains ${quoteAll(present)}, which it must not.`, withoutAll(present)),
    );
  if (checks.notContainsAll?.every(has))
    failures.push(
      textFailure(
        'not_contains_all',
        `The answer contains all of ${quoteAll(checks.notContainsAll)}, which must not all appear.`,
        withoutAll(checks.notContainsAll),
      ),
    );
  if (checks.matches && !new RegExp(checks.matches.source, checks.matches.flags).test(text))
    failures.push(
      textFailure(
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
    });
  if (checks.maxLatencyMs !== undefined && answer.latencyMs > checks.maxLatencyMs)
    failures.push({
      check: 'max_latency_ms',
      message: `The answer took ${Math.round(answer.latencyMs)} ms, over the budget of ${checks.maxLatencyMs} ms.`,
      expected: `at most ${checks.maxLatencyMs} ms`,
      actual: `${Math.round(answer.latencyMs)} ms`,
    });
  return failures;
}

function handoffFailure(
  want: HandoffExpectation,
  got: { destination?: string; reason?: string } | undefined,
): CheckFailure | undefined {
  const actual = describeHandoff(got);
  if (want.kind === 'none')
    return got
      ? { check: 'handoff', message: `The agent handed off (${actual}).`, expected: 'no handoff', actual }
      : undefined;
  const expected =
    want.kind === 'any' ? 'a handoff' : describeHandoff({ destination: want.destination, reason: want.reason });
  if (!got) return { check: 'handoff', message: 'The agent did not hand off.', expected, actual };
  if (want.kind === 'to') {
    const wrong =
      (want.destination !== undefined && want.destination !== got.destination) ||
      (want.reason !== undefined && want.reason !== got.reason);
    if (wrong) return { check: 'handoff', message: `The agent handed off, but ${actual}.`, expected, actual };
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
