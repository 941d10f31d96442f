import type { CriterionResult, ModelSpend } from './model/types';
import { distributionWords } from './records/latency';
import { recordCheckName } from './records/report';
import type { RecordCheckResult } from './records/types';
import { criterionName, erroredLines, failureLines } from './report';
import { type CaseResult, type CaseRun, totalSpend } from './runner';

/**
 * JUnit XML of a run, the form CI servers read: one `<testsuite>` per test file, one `<testcase>` per case with
 * `<failure>` (every failing run's checks), `<error>` (a judgement that could not be used), `<skipped>` (the reason),
 * and the conversations in `<system-out>`; each judged criterion is a `<testcase>` of its own, named after its case.
 * Model calls, tokens and cost are `<properties>` of each judged case and of the whole run.
 */
export function junitXml(
  results: readonly CaseResult[],
  suiteName = 'Agent Workbench conversation tests',
  spend: ModelSpend = totalSpend(results),
): string {
  const byFile = new Map<string, CaseResult[]>();
  for (const r of results) byFile.set(r.testCase.file, [...(byFile.get(r.testCase.file) ?? []), r]);
  const all: CaseXml[] = [];
  const suites = [...byFile.entries()].map(([file, list]) => {
    const cases = list.flatMap((r) => [caseXml(r, file), ...criteriaXml(r, file), ...recordsXml(r, file)]);
    all.push(...cases);
    const counts = countOf(cases);
    return [
      `  <testsuite name="${xml(file)}" tests="${cases.length}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${seconds(list)}">`,
      ...cases.map((c) => c.text),
      '  </testsuite>',
    ].join('\n');
  });
  const counts = countOf(all);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suiteName)}" tests="${all.length}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${seconds(results)}">`,
    ...(spend.calls + spend.replayed > 0 ||
    results.some((r) => r.testCase.scenario || r.runs.some((run) => run.criteria.length > 0))
      ? [`  ${properties(spend)}`]
      : []),
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

interface CaseXml {
  readonly text: string;
  readonly state: 'passed' | 'failure' | 'error' | 'skipped';
}

function countOf(cases: readonly CaseXml[]) {
  return {
    failures: cases.filter((c) => c.state === 'failure').length,
    errors: cases.filter((c) => c.state === 'error').length,
    skipped: cases.filter((c) => c.state === 'skipped').length,
  };
}

const seconds = (list: readonly CaseResult[]) => (list.reduce((sum, r) => sum + r.durationMs, 0) / 1000).toFixed(3);

function caseXml(r: CaseResult, file: string): CaseXml {
  const attrs = `name="${xml(r.testCase.name)}" classname="${xml(file)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
  const body: string[] = [];
  const judged = r.spend.calls + r.spend.replayed > 0 || r.runs.some((run) => run.criteria.length > 0);
  if (judged) body.push(properties(r.spend));
  let state: CaseXml['state'] = 'passed';
  if (r.outcome === 'failed') {
    state = 'failure';
    body.push(
      `<failure message="${xml(failureSummary(r))}" type="ConversationTestFailure">${xml(failureLines(r).join('\n'))}</failure>`,
    );
  }
  if (r.outcome === 'errored') {
    state = 'error';
    body.push(
      `<error message="${xml(erroredLines(r)[0] ?? 'a judgement could not be used')}" type="JudgeError">${xml(erroredLines(r).join('\n'))}</error>`,
    );
  }
  if (r.outcome === 'skipped' || r.outcome === 'cancelled') {
    state = 'skipped';
    body.push(`<skipped message="${xml(r.outcome === 'cancelled' ? 'cancelled' : (r.skipReason ?? ''))}"/>`);
  }
  const transcript = r.runs.map((run) => `run ${run.attempt}:\n${run.transcript.join('\n')}`).join('\n\n');
  if (transcript) body.push(`<system-out>${xml(transcript)}</system-out>`);
  return { text: testcase(attrs, body), state };
}

/** Each criterion of each run, a test case named after its case, so that CI lists which one failed. */
function criteriaXml(r: CaseResult, file: string): CaseXml[] {
  const many = r.runs.length > 1;
  return r.runs.flatMap((run: CaseRun) =>
    run.criteria.map((c) => {
      const name = `${r.testCase.name} › ${criterionName(c)}${many ? ` (run ${run.attempt})` : ''}`;
      return criterionXml(c, `name="${xml(name)}" classname="${xml(file)}" time="0.000"`);
    }),
  );
}

/**
 * Each record check of each run, and each turn's latency over the runs, a test case named after its case: a check
 * not made is skipped with its reason.
 */
function recordsXml(r: CaseResult, file: string): CaseXml[] {
  const many = r.runs.length > 1;
  const attrs = (name: string) => `name="${xml(`${r.testCase.name} › ${name}`)}" classname="${xml(file)}" time="0.000"`;
  const checks = r.runs.flatMap((run: CaseRun) =>
    (run.records ?? []).map((c) => recordXml(c, attrs(`${recordCheckName(c)}${many ? ` (run ${run.attempt})` : ''}`))),
  );
  const latency = (r.latency ?? []).map((d): CaseXml => {
    const out = `<system-out>${xml(distributionWords(d))}</system-out>`;
    const name = attrs(`turn ${d.turnIndex + 1} p95_latency_ms (line ${d.range.startLine + 1})`);
    return d.passed
      ? { text: testcase(name, [out]), state: 'passed' }
      : {
          text: testcase(name, [
            `<failure message="${xml(`${distributionWords(d)}: over the budget`)}" type="LatencyOverBudget"/>`,
            out,
          ]),
          state: 'failure',
        };
  });
  return [...checks, ...latency];
}

function recordXml(c: RecordCheckResult, attrs: string): CaseXml {
  const o = c.outcome;
  if (o.kind === 'not-checked')
    return { text: testcase(attrs, [`<skipped message="${xml(`not checked: ${o.reason}`)}"/>`]), state: 'skipped' };
  if (o.kind === 'passed')
    return { text: testcase(attrs, [`<system-out>${xml(o.actual)}</system-out>`]), state: 'passed' };
  return {
    text: testcase(attrs, [
      `<failure message="${xml(o.message)}" type="RecordCheckFailed">${xml(`expected: ${o.expected}\nactual: ${o.actual}`)}</failure>`,
    ]),
    state: 'failure',
  };
}

function criterionXml(c: CriterionResult, attrs: string): CaseXml {
  const o = c.outcome;
  if (o.kind === 'skipped')
    return { text: testcase(attrs, [`<skipped message="${xml(`not judged: ${o.reason}`)}"/>`]), state: 'skipped' };
  if (o.kind === 'error') {
    const failed = o.cassetteMiss || o.modelFailure;
    const tag = failed ? 'failure' : 'error';
    const type = o.cassetteMiss ? 'CassetteMiss' : failed ? 'ModelFailure' : 'JudgeError';
    return {
      text: testcase(attrs, [`<${tag} message="${xml(o.message)}" type="${type}"/>`]),
      state: failed ? 'failure' : 'error',
    };
  }
  const quotes = o.quotes.map((q) => `turn ${q.turn}: "${q.text}"`).join('\n');
  const out = `<system-out>${xml(`${o.verdict}: ${o.reason}${quotes ? `\n${quotes}` : ''}`)}</system-out>`;
  if (o.verdict === 'pass') return { text: testcase(attrs, [out]), state: 'passed' };
  if (o.verdict === 'fail')
    return {
      text: testcase(attrs, [`<failure message="${xml(o.reason)}" type="CriterionFailed"/>`, out]),
      state: 'failure',
    };
  return {
    text: testcase(attrs, [`<error message="${xml(`the judge is unsure: ${o.reason}`)}" type="JudgeUnsure"/>`, out]),
    state: 'error',
  };
}

function testcase(attrs: string, body: readonly string[]): string {
  return body.length === 0
    ? `    <testcase ${attrs}/>`
    : `    <testcase ${attrs}>\n      ${body.join('\n      ')}\n    </testcase>`;
}

/** Calls made and replayed, tokens and cost as JUnit properties (a cost only when the model has a price). */
function properties(s: ModelSpend): string {
  const props: [string, number][] = [
    ['model.calls', s.calls],
    ['model.replayed', s.replayed],
    ['model.inputTokens', s.inputTokens],
    ['model.outputTokens', s.outputTokens],
    ...(s.cost !== undefined ? ([['model.cost', s.cost]] as [string, number][]) : []),
  ];
  return `<properties>${props.map(([name, value]) => `<property name="${name}" value="${value}"/>`).join('')}</properties>`;
}

function failureSummary(r: CaseResult): string {
  const passed = r.runs.filter((run) => run.passed).length;
  return r.runs.length > 1
    ? `${passed} of ${r.runs.length} runs passed; ${Math.round(r.testCase.requiredPassRate * 100)}% required`
    : (failureLines(r)[0] ?? 'failed');
}

/** Text for an XML attribute or element; characters XML 1.0 cannot hold at all are dropped. */
export function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
