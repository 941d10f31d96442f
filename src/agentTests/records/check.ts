/**
 * The record checks of a case on its conversation's record: each check a result of its own, passed, failed, or
 * not checked with the exact reason (the transcript is hidden, no metrics are enabled, the record is not there).
 */
import type { ConversationRecord, ConversationTurn } from '../../contract/conversations';
import type { TestCase, TextRange } from '../format';
import type { TurnResult } from '../results';
import type { RecordCheckOutcome, RecordCheckResult, StateExpectation } from './types';

/** One check before it is made: its name, where it is, and how it reads the record (or its turn). */
interface PendingCheck {
  readonly name: string;
  readonly range: TextRange;
  readonly turnIndex?: number;
  /** Metrics checks are not checked when the record's metrics are empty. */
  readonly metrics?: boolean;
  check(record: ConversationRecord, turn: ConversationTurn | undefined): RecordCheckOutcome;
}

/** Whether the case checks anything on the record (a `p95_latency_ms:` alone is checked on the answers). */
export function checksRecord(testCase: TestCase): boolean {
  return testCase.record !== undefined || testCase.turns.some((t) => t.record !== undefined);
}

/** Whether a record check reads the turns' latency: the listing then asks for it (`include_latency=true`). */
export function readsLatency(testCase: TestCase): boolean {
  return testCase.turns.some((t) => t.record?.recordLatencyMs !== undefined);
}

/** Every record check of the case, none made, each with `reason`. */
export function notChecked(testCase: TestCase, reason: string): RecordCheckResult[] {
  return pendingChecks(testCase).map((c) => result(c, { kind: 'not-checked', reason }));
}

/** Every record check of the case, made on the record; `turns` are the run's, to find each turn's record turn. */
export function checkRecord(
  testCase: TestCase,
  record: ConversationRecord,
  turns: readonly TurnResult[],
): RecordCheckResult[] {
  const aligned = alignTurns(turns, record.turns);
  const hidden =
    record.turns.length === 0
      ? record.num_turns > 0
        ? `transcript visibility is off for the project: the record has no turns, though num_turns is ${record.num_turns}`
        : 'the record has no turns'
      : undefined;
  const noMetrics = Object.keys(record.metrics).length === 0;
  return pendingChecks(testCase).map((c) => {
    if (c.metrics && noMetrics)
      return result(c, { kind: 'not-checked', reason: 'the record has no metrics: the project enables none' });
    if (c.turnIndex === undefined) return result(c, c.check(record, undefined));
    if (hidden !== undefined) return result(c, { kind: 'not-checked', reason: hidden });
    const turn = aligned.get(c.turnIndex);
    if (!turn) return result(c, { kind: 'not-checked', reason: `the record has no turn for turn ${c.turnIndex + 1}` });
    return result(c, c.check(record, turn));
  });
}

function result(c: PendingCheck, outcome: RecordCheckOutcome): RecordCheckResult {
  return { name: c.name, range: c.range, ...(c.turnIndex !== undefined ? { turnIndex: c.turnIndex } : {}), outcome };
}

function pendingChecks(testCase: TestCase): PendingCheck[] {
  const checks: PendingCheck[] = [];
  const r = testCase.record;
  for (const s of r?.state ?? [])
    checks.push({
      name: `state.${s.key}`,
      range: s.range,
      check: (record) => stateOutcome(record.state, s.key, s.expect),
    });
  const text = (name: string, wanted: string | undefined, read: (record: ConversationRecord) => string) => {
    if (wanted !== undefined)
      checks.push({ name, range: testCase.range, check: (record) => equalText(name, wanted, read(record)) });
  };
  text('handoff_reason', r?.handoffReason, (record) => record.handoff_reason);
  text('handoff_destination', r?.handoffDestination, (record) => record.handoff_destination);
  const count = (name: string, wanted: number | undefined, read: (record: ConversationRecord) => number) => {
    if (wanted !== undefined)
      checks.push({
        name,
        range: testCase.range,
        check: (record) => equalText(name, String(wanted), String(read(record))),
      });
  };
  count('num_ood', r?.numOod, (record) => record.num_ood);
  count('num_silences', r?.numSilences, (record) => record.num_silences);
  for (const m of r?.metrics ?? [])
    checks.push({
      name: `metrics.${m.key}`,
      range: m.range,
      metrics: true,
      check: (record) => metricOutcome(record, m.key, m.value),
    });
  for (const [turnIndex, t] of testCase.turns.entries()) {
    const c = t.record;
    if (!c) continue;
    const at = { range: t.range, turnIndex };
    const name = (what: string) => `turn ${turnIndex + 1} ${what}`;
    if (c.intents) {
      const wanted = c.intents;
      checks.push({ ...at, name: name('intents'), check: (_r, turn) => intentsOutcome(wanted, turn?.intents ?? []) });
    }
    if (c.entities) {
      const wanted = c.entities;
      checks.push({ ...at, name: name('entities'), check: (_r, turn) => entitiesOutcome(wanted, entitiesOf(turn)) });
    }
    if (c.ood !== undefined) {
      const wanted = c.ood;
      checks.push({
        ...at,
        name: name('ood'),
        check: (_r, turn) => equalText('is_ood', String(wanted), String(turn?.is_ood ?? false)),
      });
    }
    if (c.recordLatencyMs !== undefined) {
      const budget = c.recordLatencyMs;
      checks.push({
        ...at,
        name: name('record_latency_ms'),
        check: (_r, turn) => latencyOutcome(budget, turn?.latency),
      });
    }
  }
  return checks;
}

/**
 * The record's turn of each of the run's turns, by index of the case's turns: the greeting is the first record turn
 * without user input; each user turn is the next record turn whose user input is the message sent, else the next
 * record turn in order (speech recognition, or the platform, may have written the words differently).
 */
export function alignTurns(
  turns: readonly TurnResult[],
  recorded: readonly ConversationTurn[],
): Map<number, ConversationTurn> {
  const out = new Map<number, ConversationTurn>();
  let next = 0;
  for (const t of turns) {
    if (t.user === undefined) {
      const first = recorded[0];
      if (first && first.user_input.trim() === '') {
        out.set(t.index, first);
        next = Math.max(next, 1);
      }
      continue;
    }
    // The greeting's record turn, when the run did not check it, is not a user turn.
    while (next === 0 && recorded[next] !== undefined && recorded[next]?.user_input.trim() === '') next++;
    const said = t.user.trim().toLowerCase();
    let at = recorded.findIndex((r, i) => i >= next && r.user_input.trim().toLowerCase() === said);
    if (at < 0) at = next;
    const turn = recorded[at];
    if (!turn) break;
    out.set(t.index, turn);
    next = at + 1;
  }
  return out;
}

function stateOutcome(
  state: Readonly<Record<string, unknown>>,
  key: string,
  expect: StateExpectation,
): RecordCheckOutcome {
  const has = Object.hasOwn(state, key);
  const actual = has ? describe(state[key]) : 'not set';
  if (expect.kind === 'absent')
    return has
      ? {
          kind: 'failed',
          message: `The record's state has ${key} = ${actual}, which must not be set.`,
          expected: `${key} not set`,
          actual: `${key}: ${actual}`,
        }
      : { kind: 'passed', actual: 'not set' };
  if (!has) {
    const keys = Object.keys(state);
    return {
      kind: 'failed',
      message: `The record's state has no key ${key}; it has ${keys.length === 0 ? 'no keys' : keys.join(', ')}.`,
      expected: `${key}: ${expectWords(expect)}`,
      actual: keys.length === 0 ? 'no state keys' : keys.join(', '),
    };
  }
  const value = state[key];
  const holds =
    expect.kind === 'exists' ||
    (expect.kind === 'matches' && new RegExp(expect.source, expect.flags).test(textOf(value))) ||
    (expect.kind === 'equals' && sameValue(value, expect.value));
  return holds
    ? { kind: 'passed', actual }
    : {
        kind: 'failed',
        message: `The record's state has ${key} = ${actual}, not ${expectWords(expect)}.`,
        expected: `${key}: ${expectWords(expect)}`,
        actual: `${key}: ${actual}`,
      };
}

function expectWords(expect: StateExpectation): string {
  switch (expect.kind) {
    case 'equals':
      return describe(expect.value);
    case 'matches':
      return `a value matching /${expect.source}/${expect.flags}`;
    case 'exists':
      return 'set';
    case 'absent':
      return 'not set';
  }
}

/** Scalars compare as text (the state's `4` is the file's "4"), lists and mappings as JSON. */
function sameValue(actual: unknown, wanted: unknown): boolean {
  return textOf(actual) === textOf(wanted);
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : textOf(value);
}

function equalText(name: string, wanted: string, actual: string): RecordCheckOutcome {
  return wanted === actual
    ? { kind: 'passed', actual }
    : {
        kind: 'failed',
        message: `The record's ${name} is ${actual === '' ? 'empty' : `"${actual}"`}, not "${wanted}".`,
        expected: `${name}: ${wanted}`,
        actual: `${name}: ${actual}`,
      };
}

function metricOutcome(record: ConversationRecord, key: string, wanted: string | undefined): RecordCheckOutcome {
  if (!Object.hasOwn(record.metrics, key))
    return {
      kind: 'failed',
      message: `The record's metrics have no ${key}; they have ${Object.keys(record.metrics).join(', ')}.`,
      expected: wanted === undefined ? `${key} present` : `${key}: ${wanted}`,
      actual: Object.keys(record.metrics).join(', '),
    };
  const value = record.metrics[key];
  const actual = Array.isArray(value) ? value.join(', ') : (value ?? '');
  if (wanted === undefined || wanted === actual) return { kind: 'passed', actual };
  return equalText(`metric ${key}`, wanted, actual);
}

function intentsOutcome(wanted: readonly string[], recognised: readonly string[]): RecordCheckOutcome {
  const missing = wanted.filter((w) => !recognised.includes(w));
  const actual = recognised.length === 0 ? 'no intents' : recognised.join(', ');
  return missing.length === 0
    ? { kind: 'passed', actual }
    : {
        kind: 'failed',
        message: `The platform did not recognise ${missing.join(', ')} on the turn; it recognised ${actual}.`,
        expected: wanted.join(', '),
        actual,
      };
}

/** Entities as a mapping of name to text, whichever of the spec's two shapes the record has. */
function entitiesOf(turn: ConversationTurn | undefined): Record<string, string> {
  const raw = turn?.entities ?? {};
  if (!Array.isArray(raw)) return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, textOf(v)]));
  const out: Record<string, string> = {};
  for (const item of raw) {
    const o = item as Record<string, unknown>;
    const name = o.name ?? o.entity ?? o.type;
    if (typeof name === 'string') out[name] = textOf(o.value ?? '');
  }
  return out;
}

function entitiesOutcome(
  wanted: Readonly<Record<string, string>>,
  recognised: Record<string, string>,
): RecordCheckOutcome {
  const wrong = Object.entries(wanted).filter(([k, v]) => recognised[k] !== v);
  const actual =
    Object.keys(recognised).length === 0
      ? 'no entities'
      : Object.entries(recognised)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ');
  if (wrong.length === 0) return { kind: 'passed', actual };
  const words = wrong
    .map(([k, v]) => (k in recognised ? `${k} is "${recognised[k] ?? ''}", not "${v}"` : `no ${k}`))
    .join('; ');
  return {
    kind: 'failed',
    message: `The platform recognised ${words} on the turn.`,
    expected: Object.entries(wanted)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', '),
    actual,
  };
}

function latencyOutcome(budget: number, latency: number | undefined): RecordCheckOutcome {
  if (latency === undefined)
    return { kind: 'not-checked', reason: 'the record gives no latency for the turn (include_latency=true was sent)' };
  const actual = `${Math.round(latency)} ms`;
  return latency <= budget
    ? { kind: 'passed', actual }
    : {
        kind: 'failed',
        message: `The record's latency of the turn is ${actual}, over the budget of ${budget} ms.`,
        expected: `at most ${budget} ms`,
        actual,
      };
}
