import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Range, type YAMLMap } from 'yaml';
import {
  type AnswerChecks,
  type Criterion,
  type HandoffExpectation,
  CHECKS_TO_ADD,
  type Scenario,
  type TestCase,
  type TestFile,
  type TestFileProblem,
  type TestTurn,
  type TextRange,
  turnChecks,
} from './format';
import { parseRegex } from './regex';
import {
  percentileWithoutRepeat,
  RECORD_CASE_KEYS,
  RECORD_TURN_KEYS,
  readRecordCaseChecks,
  readRecordTurnChecks,
} from './records/parse';
import { checkCasePerturb, readCasePerturb, readPerturb } from './perturb/parse';

/** The keys each level of a test file may have; anything else is reported, so a misspelt check never passes silently. */
export const FILE_KEYS = ['agent', 'description', 'cases'] as const;
export const CASE_KEYS = [
  'name',
  'description',
  'agent',
  'environment',
  'tags',
  'variant',
  'integration_attributes',
  'asr_lang_code',
  'tts_lang_code',
  'repeat',
  'required_pass_rate',
  'turns',
  'criteria',
  'scenario',
  ...RECORD_CASE_KEYS,
  'perturb',
] as const;
const CHECK_KEYS = [
  'contains',
  'contains_any',
  'not_contains',
  'not_contains_all',
  'matches',
  'handoff',
  'end',
  'max_latency_ms',
  'reference',
] as const;
export const TURN_KEYS = ['user', 'metadata', ...CHECK_KEYS, 'expect', ...RECORD_TURN_KEYS, 'perturb'] as const;
export const SCENARIO_KEYS = ['goal', 'persona', 'facts', 'first_line', 'max_turns', 'success'] as const;

/** A simulated caller's turn budget: the default, and the most a file may ask for. */
export const DEFAULT_MAX_TURNS = 8;
export const MAX_TURNS_LIMIT = 50;

/** A language code such as `en` or `en-GB`, as the Chat API takes it. */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

/** A mapping of the `yaml` library's document: the checks read its nodes as the library composed them. */
type YMap = YAMLMap<unknown, unknown>;

/** Where a node of the document is: a scalar, mapping, list or alias has a place; anything else (a pair) has none. */
function placeOf(node: unknown): Range | undefined {
  return (isMap(node) || isSeq(node) || isScalar(node) || isAlias(node)) && node.range ? node.range : undefined;
}

/** Reads a test file's text; never throws: whatever is wrong is a problem with its place. */
export function parseTestFile(path: string, text: string): TestFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const reader = new Reader(lines, text.length);
  for (const err of doc.errors) reader.problemAt(err.pos, yamlMessage(err.message));
  for (const warning of doc.warnings) reader.problemAt(warning.pos, yamlMessage(warning.message), 'warning');
  const root = doc.contents;
  if (isMap(root)) return readFile(path, root, reader);
  if (doc.errors.length === 0)
    reader.problem(
      root ?? undefined,
      'A conversation test file is a YAML mapping with a list of `cases:` (each with a `name:` and `turns:`).',
    );
  return { path, cases: [], problems: reader.problems };
}

/** The value of the first pair whose key is the scalar `key`, as `YAMLMap.get(key, true)` finds it. */
function valueOf(map: YMap, key: string): unknown {
  for (const pair of map.items) if (isScalar(pair.key) && pair.key.value === key) return pair.value ?? undefined;
  return undefined;
}

function readFile(path: string, root: YMap, reader: Reader): TestFile {
  reader.unknownKeys(root, FILE_KEYS, 'the file');
  const agent = reader.text(root, 'agent');
  const casesNode = valueOf(root, 'cases');
  const cases: TestCase[] = [];
  if (!isSeq(casesNode) || casesNode.items.length === 0) {
    reader.problem(casesNode ?? root, 'Add `cases:`, a list of cases, each with a `name:` and `turns:`.');
  } else {
    const names = new Set<string>();
    for (const item of casesNode.items) {
      const before = reader.errorCount;
      const testCase = readCase(reader, item, path, agent);
      if (testCase && names.has(testCase.name))
        reader.problem(
          item ?? undefined,
          `Another case is named "${testCase.name}": give each case a name of its own.`,
        );
      if (testCase) names.add(testCase.name);
      // A case with a problem of its own does not run: it would not test what it says.
      if (testCase && reader.errorCount === before) cases.push(testCase);
    }
  }
  return { path, ...(agent !== undefined ? { agent } : {}), cases, problems: reader.problems };
}

function readCase(reader: Reader, node: unknown, file: string, fileAgent: string | undefined): TestCase | undefined {
  if (!isMap(node)) {
    reader.problem(node, 'A case is a mapping with a `name:` and `turns:`.');
    return undefined;
  }
  const errorsBefore = reader.errorCount;
  reader.unknownKeys(node, CASE_KEYS, 'a case');
  const name = reader.text(node, 'name');
  if (!name) reader.problem(valueOf(node, 'name') ?? node, 'Give the case a `name:`.');
  const repeat = reader.number(node, 'repeat', { integer: true, min: 1 }) ?? 1;
  const requiredPassRate = reader.number(node, 'required_pass_rate', { min: 0, max: 1 }) ?? 1;
  const asr = reader.languageCode(node, 'asr_lang_code');
  const tts = reader.languageCode(node, 'tts_lang_code');
  const turnsNode = valueOf(node, 'turns');
  const scenarioNode = valueOf(node, 'scenario');
  const turns: TestTurn[] = [];
  let scenario: Scenario | undefined;
  if (turnsNode !== undefined && scenarioNode !== undefined) {
    reader.problem(
      scenarioNode,
      'A case has either `turns:` (scripted) or `scenario:` (a simulated caller), not both: make two cases.',
    );
  } else if (scenarioNode !== undefined) {
    scenario = readScenario(reader, scenarioNode);
  } else if (!isSeq(turnsNode) || turnsNode.items.length === 0) {
    reader.problem(
      turnsNode ?? node,
      'Add `turns:`, a list of turns, each with a `user:` message and its checks (or a `scenario:` for a simulated caller).',
    );
  } else {
    turnsNode.items.forEach((item, i) => {
      const turn = readTurn(reader, item, i);
      if (turn) turns.push(turn);
    });
  }
  const criteria = reader.criteria(node, 'criteria');
  const perturb = readCasePerturb(reader, valueOf(node, 'perturb'));
  checkCasePerturb(reader, perturb, turns, turnsNode, { node: valueOf(node, 'asr_lang_code'), code: asr });
  const variant = reader.text(node, 'variant');
  const environment = reader.text(node, 'environment');
  const agent = reader.text(node, 'agent') ?? fileAgent;
  const attributes = reader.mapping(node, 'integration_attributes');
  const record = readRecordCaseChecks(reader, node);
  percentileWithoutRepeat(reader, node, repeat);
  if (!name) return undefined;
  // Said of a case whose turns read well: a check misspelt or malformed is reported as itself.
  if (
    reader.errorCount === errorsBefore &&
    turns.length > 0 &&
    !turns.some(
      (t) =>
        turnChecks(t.checks) || (t.expect?.length ?? 0) > 0 || t.record !== undefined || t.p95LatencyMs !== undefined,
    ) &&
    (criteria?.length ?? 0) === 0 &&
    record === undefined
  )
    reader.problem(
      valueOf(node, 'name'),
      `The case "${name}" checks nothing, so it would pass whatever the agent says: ${CHECKS_TO_ADD}.`,
      'warning',
    );
  return {
    file,
    name,
    tags: reader.texts(node, 'tags') ?? [],
    repeat,
    requiredPassRate,
    turns,
    range: reader.range(node),
    nameRange: reader.range(valueOf(node, 'name')),
    ...(agent !== undefined ? { agent } : {}),
    ...(environment !== undefined ? { environment } : {}),
    ...(variant !== undefined ? { variant } : {}),
    ...(attributes !== undefined ? { integrationAttributes: attributes } : {}),
    ...(asr !== undefined ? { asrLangCode: asr } : {}),
    ...(tts !== undefined ? { ttsLangCode: tts } : {}),
    ...(criteria !== undefined ? { criteria } : {}),
    ...(scenario !== undefined ? { scenario } : {}),
    ...(record !== undefined ? { record } : {}),
    ...(perturb !== undefined ? { perturb } : {}),
  };
}

/** `scenario:`: a model plays the caller, with a goal and `success:` criteria judged once it stops. */
function readScenario(reader: Reader, node: unknown): Scenario | undefined {
  if (!isMap(node)) {
    reader.problem(node, "A `scenario:` is a mapping with the caller's `goal:` and the `success:` criteria.");
    return undefined;
  }
  reader.unknownKeys(node, SCENARIO_KEYS, '`scenario:`');
  const goal = reader.text(node, 'goal');
  if (goal === undefined || goal.trim() === '')
    reader.problem(
      valueOf(node, 'goal') ?? node,
      'Give the scenario a `goal:`: what the caller wants, in your words ("change the booking to Friday").',
    );
  const persona = reader.text(node, 'persona');
  const facts = reader.textMapping(node, 'facts');
  const firstLine = reader.text(node, 'first_line');
  if (firstLine !== undefined && firstLine.trim() === '')
    reader.problem(
      valueOf(node, 'first_line'),
      '`first_line:` is empty: write what the caller says first, or leave it out.',
    );
  const maxTurns =
    reader.number(node, 'max_turns', { integer: true, min: 1, max: MAX_TURNS_LIMIT }) ?? DEFAULT_MAX_TURNS;
  const success = reader.criteria(node, 'success');
  if (success === undefined && valueOf(node, 'success') === undefined)
    reader.problem(
      node,
      'Add `success:`, one or more sentences judged on the whole conversation ("the booking is moved to Friday").',
    );
  if (goal === undefined || goal.trim() === '' || success === undefined) return undefined;
  return {
    goal,
    maxTurns,
    success,
    range: reader.range(node),
    ...(persona !== undefined ? { persona } : {}),
    ...(facts !== undefined ? { facts } : {}),
    ...(firstLine !== undefined ? { firstLine } : {}),
  };
}

function readTurn(reader: Reader, node: unknown, index: number): TestTurn | undefined {
  if (node === null || (isScalar(node) && (node.value === null || node.value === ''))) {
    reader.problem(node, 'This turn is empty: give it a `user:` message, checks, or both.');
    return undefined;
  }
  if (!isMap(node)) {
    reader.problem(node, 'A turn is a mapping: `user:` and the checks of the answer (`contains:`, `matches:` ...).');
    return undefined;
  }
  reader.unknownKeys(node, TURN_KEYS, 'a turn');
  if (node.items.length === 0) {
    reader.problem(node, 'This turn is empty: give it a `user:` message, checks, or both.');
    return undefined;
  }
  const user = reader.text(node, 'user');
  if (user === undefined && index > 0)
    reader.problem(node, 'Only the first turn may leave out `user:` (it then checks the greeting); add the message.');
  if (user !== undefined && user.trim() === '')
    reader.problem(valueOf(node, 'user'), 'The user message is empty: write what the user says.');
  const metadata = reader.mapping(node, 'metadata');
  const checks = readChecks(reader, node);
  const expect = reader.criteria(node, 'expect');
  const record = readRecordTurnChecks(reader, node);
  const perturb = readPerturb(reader, valueOf(node, 'perturb'), 'turn');
  return {
    ...(user !== undefined ? { user } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    checks,
    ...(expect !== undefined ? { expect } : {}),
    ...record,
    ...(perturb !== undefined ? { perturb } : {}),
    range: reader.range(node),
  };
}

function readChecks(reader: Reader, node: YMap): AnswerChecks {
  const matches = reader.regex(node, 'matches');
  // Read in this order, so the problems come in the order of the checks; only the checks written are set.
  const checks: Writable<AnswerChecks> = {};
  put(checks, 'contains', reader.texts(node, 'contains', true));
  put(checks, 'containsAny', reader.texts(node, 'contains_any', true));
  put(checks, 'notContains', reader.texts(node, 'not_contains', true));
  put(checks, 'notContainsAll', reader.texts(node, 'not_contains_all', true));
  put(checks, 'matches', matches);
  put(checks, 'handoff', readHandoff(reader, node));
  put(checks, 'end', reader.boolean(node, 'end'));
  put(checks, 'maxLatencyMs', reader.number(node, 'max_latency_ms', { min: 0 }));
  put(checks, 'reference', reader.text(node, 'reference'));
  return checks;
}

function readHandoff(reader: Reader, node: YMap): HandoffExpectation | undefined {
  const value = valueOf(node, 'handoff');
  if (value === undefined) return undefined;
  if (isScalar(value)) {
    if (value.value === false || value.value === 'none' || value.value === null) return { kind: 'none' };
    if (value.value === true) return { kind: 'any' };
    if (typeof value.value === 'string' && value.value) return { kind: 'to', destination: value.value };
  }
  if (isMap(value)) {
    reader.unknownKeys(value, ['destination', 'reason'], '`handoff:`');
    const destination = reader.text(value, 'destination');
    const reason = reader.text(value, 'reason');
    return {
      kind: 'to',
      ...(destination !== undefined ? { destination } : {}),
      ...(reason !== undefined ? { reason } : {}),
    };
  }
  reader.problem(
    value,
    '`handoff:` is `none` (no handoff), `true` (any handoff), a destination, or `{destination, reason}`.',
  );
  return undefined;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

function put<T, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

/** The yaml library's messages end with a code and a caret picture; the first sentence is what helps. */
function yamlMessage(message: string): string {
  const [first = message] = message.split('\n', 1);
  return `Not valid YAML: ${first.replace(/ at line \d+, column \d+:?$/, '')}`;
}

/** Reads values of a mapping and keeps the problems found, each at its node. */
class Reader {
  readonly problems: TestFileProblem[] = [];
  errorCount = 0;

  constructor(
    private readonly lines: LineCounter,
    private readonly length: number,
  ) {}

  /** Where a node is, from its start to the end of its value (the library's `range[1]`); the file's start if unknown. */
  range(node: unknown): TextRange {
    const [start, end] = placeOf(node) ?? [0, 0];
    return this.span(start, end);
  }

  private span(start: number, end: number): TextRange {
    const a = this.lines.linePos(Math.min(start, this.length));
    const b = this.lines.linePos(Math.min(Math.max(end, start), this.length));
    return { startLine: a.line - 1, startCharacter: a.col - 1, endLine: b.line - 1, endCharacter: b.col - 1 };
  }

  problem(node: unknown, message: string, severity: 'error' | 'warning' = 'error'): void {
    if (severity === 'error') this.errorCount++;
    this.problems.push({ message, range: this.range(node), severity });
  }

  problemAt(pos: [number, number], message: string, severity: 'error' | 'warning' = 'error'): void {
    if (severity === 'error') this.errorCount++;
    this.problems.push({ message, range: this.span(pos[0], pos[1]), severity });
  }

  unknownKeys(map: YMap, known: readonly string[], where: string): void {
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key !== undefined && known.includes(key)) continue;
      const near = key === undefined ? undefined : closest(key, known);
      this.problem(
        pair.key ?? undefined,
        `Unknown key ${key === undefined ? '' : `\`${key}\` `}in ${where}${near ? `: did you mean \`${near}\`?` : ''}. Known keys: ${known.join(', ')}.`,
      );
    }
  }

  text(map: YMap, key: string): string | undefined {
    const node = valueOf(map, key);
    if (node === undefined) return undefined;
    if (isScalar(node) && (typeof node.value === 'string' || typeof node.value === 'number')) return String(node.value);
    this.problem(node, `\`${key}:\` is a text.`);
    return undefined;
  }

  /** A list of texts; `single` also takes one text alone. */
  texts(map: YMap, key: string, single = false): string[] | undefined {
    const node = valueOf(map, key);
    if (node === undefined) return undefined;
    if (single && isScalar(node) && typeof node.value === 'string') return [node.value];
    const values = isSeq(node) ? node.items.map((i) => (isScalar(i) ? i.value : null)) : [];
    if (values.length > 0 && values.every((v) => v !== null && typeof v !== 'object')) return values.map(String);
    this.problem(node, `\`${key}:\` is ${single ? 'a text or ' : ''}a list of texts.`);
    return undefined;
  }

  /** Criteria: one sentence or a list of them; an empty one would judge nothing and is reported. */
  criteria(map: YMap, key: string): Criterion[] | undefined {
    const node = valueOf(map, key);
    if (node === undefined) return undefined;
    const items = isSeq(node) ? node.items : [node];
    const what = `\`${key}:\` is a sentence the answer must bear out, or a list of them`;
    if (items.length === 0) {
      this.problem(node, `${what}: the list is empty.`);
      return undefined;
    }
    const criteria: Criterion[] = [];
    for (const item of items) {
      const value = isScalar(item) ? item.value : undefined;
      if (value === null || (typeof value === 'string' && value.trim() === '')) {
        this.problem(item ?? node, `An empty criterion judges nothing: write what must hold, in your words.`);
        continue;
      }
      if (typeof value !== 'string') {
        this.problem(item ?? node, `${what}.`);
        continue;
      }
      criteria.push({ text: value.trim(), range: this.range(item) });
    }
    return criteria.length === items.length ? criteria : undefined;
  }

  /** A mapping of names to texts (numbers are taken as written). */
  textMapping(map: YMap, key: string): Record<string, string> | undefined {
    const node = valueOf(map, key);
    if (node === undefined) return undefined;
    const entries = isMap(node)
      ? node.items.map((pair) => [
          isScalar(pair.key) ? pair.key.value : undefined,
          isScalar(pair.value) ? pair.value.value : undefined,
        ])
      : undefined;
    if (
      entries?.every(
        ([k, v]) =>
          (typeof k === 'string' || typeof k === 'number') && (typeof v === 'string' || typeof v === 'number'),
      )
    )
      return Object.fromEntries(entries.map(([k, v]) => [String(k), String(v)]));
    this.problem(node, `\`${key}:\` is a mapping of names to texts (name: Ada Lovelace).`);
    return undefined;
  }

  number(map: YMap, key: string, limits: { integer?: boolean; min?: number; max?: number }): number | undefined {
    const node = valueOf(map, key);
    if (node === undefined) return undefined;
    const value = isScalar(node) ? node.value : undefined;
    const ok =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (!limits.integer || Number.isInteger(value)) &&
      (limits.min === undefined || value >= limits.min) &&
      (limits.max === undefined || value <= limits.max);
    if (ok) return value;
    const range =
      limits.max !== undefined ? ` from ${limits.min ?? 0} to ${limits.max}` : limits.min === 1 ? ' of 1 or more' : '';
    this.problem(node, `\`${key}:\` is ${limits.integer ? 'a whole number' : 'a number'}${range}.`);
    return undefined;
  }

  boolean(map: YMap, key: string): boolean | undefined {
    const node = valueOf(map, key);
    if (node === undefined) return undefined;
    if (isScalar(node) && typeof node.value === 'boolean') return node.value;
    this.problem(node, `\`${key}:\` is true or false.`);
    return undefined;
  }

  mapping(map: YMap, key: string): Record<string, unknown> | undefined {
    const node = valueOf(map, key);
    if (node === undefined) return undefined;
    if (isMap(node)) return node.toJSON() as Record<string, unknown>;
    this.problem(node, `\`${key}:\` is a mapping of names to values.`);
    return undefined;
  }

  languageCode(map: YMap, key: string): string | undefined {
    const value = this.text(map, key);
    if (value === undefined || LANGUAGE_CODE.test(value)) return value;
    this.problem(valueOf(map, key), `\`${key}:\` is a language code such as en or en-GB.`);
    return undefined;
  }

  regex(map: YMap, key: string): { source: string; flags: string } | undefined {
    const value = this.text(map, key);
    if (value === undefined) return undefined;
    const parsed = parseRegex(value);
    if ('error' in parsed) {
      this.problem(valueOf(map, key), `\`${key}:\` is not a valid regular expression: ${parsed.error}`);
      return undefined;
    }
    return parsed;
  }
}

/** The known key a misspelt one was most likely meant to be, if any is close. */
function closest(key: string, known: readonly string[]): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const word of known) {
    const distance = editDistance(key.toLowerCase(), word);
    if (!best || distance < best.distance) best = { word, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(key.length / 3)) ? best.word : undefined;
}

/** Levenshtein's distance, a row at a time: `diagonal`, `above` and `left` are the three cells the next one comes from. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  let distance = b.length;
  for (let i = 0; i < a.length; i++) {
    let diagonal = i;
    let left = i + 1;
    const next = [left];
    for (const [j, above] of row.slice(1).entries()) {
      left = Math.min(above + 1, left + 1, diagonal + (a[i] === b[j] ? 0 : 1));
      next.push(left);
      diagonal = above;
    }
    row = next;
    distance = left;
  }
  return distance;
}
