/**
 * Reads the record checks of a case (`state:`, `handoff_reason:`, `handoff_destination:`, `num_ood:`,
 * `num_silences:`, `metrics:`) and of a turn (`intents:`, `entities:`, `ood:`, `record_latency_ms:`,
 * `p95_latency_ms:`); parse.ts calls these with its reader, so each problem is reported at its node.
 */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { TextRange } from '../textRange';
import { parseRegex } from '../regex';
import type { MetricCheck, RecordCaseChecks, RecordTurnChecks, StateCheck, StateExpectation } from './types';

export const RECORD_CASE_KEYS = [
  'state',
  'handoff_reason',
  'handoff_destination',
  'num_ood',
  'num_silences',
  'metrics',
] as const;
export const RECORD_TURN_KEYS = ['intents', 'entities', 'ood', 'record_latency_ms', 'p95_latency_ms'] as const;
/** The conditions a `state:` key may have instead of a value. */
export const STATE_CONDITIONS = ['matches', 'exists', 'absent'] as const;

type YMap = YAMLMap<unknown, unknown>;

/** What these readers need of parse.ts's reader: its checks of values, each reporting a problem where it is. */
export interface FieldReader {
  readonly problems: readonly unknown[];
  problem(node: unknown, message: string, severity?: 'error' | 'warning'): void;
  range(node: unknown): TextRange;
  unknownKeys(map: YMap, known: readonly string[], where: string): void;
  text(map: YMap, key: string): string | undefined;
  texts(map: YMap, key: string, single?: boolean): string[] | undefined;
  textMapping(map: YMap, key: string): Record<string, string> | undefined;
  number(map: YMap, key: string, limits: { integer?: boolean; min?: number; max?: number }): number | undefined;
  boolean(map: YMap, key: string): boolean | undefined;
}

/** The node of `key`, as the library composed it (parse.ts's `valueOf`). */
function nodeOf(map: YMap, key: string): unknown {
  return map.get(key, true) ?? undefined;
}

/** The case's record checks, or undefined when it has none. */
export function readRecordCaseChecks(reader: FieldReader, node: YMap): RecordCaseChecks | undefined {
  const checks: Writable<RecordCaseChecks> = {};
  put(checks, 'state', readState(reader, node));
  put(checks, 'handoffReason', reader.text(node, 'handoff_reason'));
  put(checks, 'handoffDestination', reader.text(node, 'handoff_destination'));
  put(checks, 'numOod', reader.number(node, 'num_ood', { integer: true, min: 0 }));
  put(checks, 'numSilences', reader.number(node, 'num_silences', { integer: true, min: 0 }));
  put(checks, 'metrics', readMetrics(reader, node));
  return Object.keys(checks).length > 0 ? checks : undefined;
}

/** A turn's record checks and its latency percentile budget. */
export function readRecordTurnChecks(
  reader: FieldReader,
  node: YMap,
): { record?: RecordTurnChecks; p95LatencyMs?: number } {
  const record: Writable<RecordTurnChecks> = {};
  put(record, 'intents', reader.texts(node, 'intents', true));
  put(record, 'entities', reader.textMapping(node, 'entities'));
  put(record, 'ood', reader.boolean(node, 'ood'));
  put(record, 'recordLatencyMs', reader.number(node, 'record_latency_ms', { min: 0 }));
  const p95 = reader.number(node, 'p95_latency_ms', { min: 0 });
  return {
    ...(Object.keys(record).length > 0 ? { record } : {}),
    ...(p95 !== undefined ? { p95LatencyMs: p95 } : {}),
  };
}

/** A `p95_latency_ms:` over one run is that run's latency: said, so the builder adds `repeat:`. */
export function percentileWithoutRepeat(reader: FieldReader, caseNode: YMap, repeat: number): void {
  if (repeat > 1) return;
  const turns = nodeOf(caseNode, 'turns');
  if (!isSeq(turns)) return;
  for (const turn of turns.items)
    if (isMap(turn) && nodeOf(turn, 'p95_latency_ms') !== undefined)
      reader.problem(
        nodeOf(turn, 'p95_latency_ms'),
        '`p95_latency_ms:` is checked over every run of the case, and this case runs once: give it `repeat:` (20 or more for a percentile that says something), or use `max_latency_ms:`.',
        'warning',
      );
}

function readState(reader: FieldReader, node: YMap): StateCheck[] | undefined {
  const value = nodeOf(node, 'state');
  if (value === undefined) return undefined;
  if (!isMap(value) || value.items.length === 0) {
    reader.problem(
      value,
      '`state:` is a mapping of state keys to what each must be: a value, `{ matches: "^BT-" }`, `{ exists: true }` or `{ absent: true }`.',
    );
    return undefined;
  }
  const checks: StateCheck[] = [];
  let bad = false;
  for (const pair of value.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof key !== 'string' && typeof key !== 'number') {
      reader.problem(pair.key ?? value, 'A `state:` key is a name, as the agent sets it in `conv.state`.');
      bad = true;
      continue;
    }
    const expect = readStateExpectation(reader, String(key), pair.value);
    if (expect === undefined) bad = true;
    else checks.push({ key: String(key), expect, range: reader.range(pair.value ?? pair.key) });
  }
  return bad ? undefined : checks;
}

function readStateExpectation(reader: FieldReader, key: string, node: unknown): StateExpectation | undefined {
  if (isScalar(node)) {
    if (node.value === null) {
      reader.problem(
        node,
        `\`state.${key}:\` has no value: write the value it must have, or \`{ exists: true }\` or \`{ absent: true }\`.`,
      );
      return undefined;
    }
    return { kind: 'equals', value: node.value };
  }
  if (isSeq(node)) return { kind: 'equals', value: node.toJSON() as unknown };
  if (!isMap(node)) {
    reader.problem(
      node,
      `\`state.${key}:\` is a value, \`{ matches: ... }\`, \`{ exists: true }\` or \`{ absent: true }\`.`,
    );
    return undefined;
  }
  const where = `\`state.${key}:\``;
  const before = reader.problems.length;
  reader.unknownKeys(node, STATE_CONDITIONS, where);
  if (reader.problems.length > before) return undefined;
  if (node.items.length !== 1) {
    reader.problem(node, `${where} takes one condition: \`matches:\`, \`exists: true\` or \`absent: true\`.`);
    return undefined;
  }
  const matches = reader.text(node, 'matches');
  if (matches !== undefined) {
    const parsed = parseRegex(matches);
    if ('error' in parsed) {
      reader.problem(
        nodeOf(node, 'matches'),
        `${where} \`matches:\` is not a valid regular expression: ${parsed.error}`,
      );
      return undefined;
    }
    return { kind: 'matches', ...parsed };
  }
  for (const condition of ['exists', 'absent'] as const) {
    if (nodeOf(node, condition) === undefined) continue;
    const flag = reader.boolean(node, condition);
    if (flag === true) return { kind: condition };
    if (flag === false)
      reader.problem(
        nodeOf(node, condition),
        `${where} \`${condition}: false\` is \`${condition === 'exists' ? 'absent' : 'exists'}: true\`: write that.`,
      );
    return undefined;
  }
  return undefined;
}

function readMetrics(reader: FieldReader, node: YMap): MetricCheck[] | undefined {
  const value = nodeOf(node, 'metrics');
  if (value === undefined) return undefined;
  const what =
    '`metrics:` is a list of metric keys that must be present (`[CALL_DURATION, HANDOFF_TO]`), or a mapping of keys to the value each must have.';
  if (isSeq(value) && value.items.length > 0 && value.items.every((i) => isScalar(i) && typeof i.value === 'string'))
    return value.items.map((i) => ({ key: String(isScalar(i) ? i.value : ''), range: reader.range(i) }));
  if (isMap(value) && value.items.length > 0) {
    const mapping = reader.textMapping(node, 'metrics');
    if (mapping === undefined) return undefined;
    return value.items.map((pair) => {
      const key = String(isScalar(pair.key) ? pair.key.value : '');
      return { key, value: mapping[key] ?? '', range: reader.range(pair.value ?? pair.key) };
    });
  }
  reader.problem(value, what);
  return undefined;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

function put<T, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}
