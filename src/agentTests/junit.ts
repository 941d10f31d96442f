import type { CaseResult } from './runner';
import { failureLines } from './report';

/**
 * JUnit XML of a run, the form CI servers read: one `<testsuite>` per test file, one `<testcase>` per case with
 * `<failure>` (every failing run's checks), `<skipped>` (the reason), and the conversations in `<system-out>`.
 */
export function junitXml(results: readonly CaseResult[], suiteName = 'Agent Workbench conversation tests'): string {
  const byFile = new Map<string, CaseResult[]>();
  for (const r of results) byFile.set(r.testCase.file, [...(byFile.get(r.testCase.file) ?? []), r]);
  const count = (list: readonly CaseResult[], outcome: CaseResult['outcome']) =>
    list.filter((r) => r.outcome === outcome).length;
  const seconds = (list: readonly CaseResult[]) => (list.reduce((sum, r) => sum + r.durationMs, 0) / 1000).toFixed(3);
  const suites = [...byFile.entries()].map(([file, list]) => {
    const cases = list.map((r) => {
      const attrs = `name="${xml(r.testCase.name)}" classname="${xml(file)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
      const body: string[] = [];
      if (r.outcome === 'failed')
        body.push(
          `<failure message="${xml(failureSummary(r))}" type="ConversationTestFailure">${xml(failureLines(r).join('\n'))}</failure>`,
        );
      if (r.outcome === 'skipped') body.push(`<skipped message="${xml(r.skipReason ?? '')}"/>`);
      if (r.outcome === 'cancelled') body.push('<skipped message="cancelled"/>');
      const transcript = r.runs.map((run) => `run ${run.attempt}:\n${run.transcript.join('\n')}`).join('\n\n');
      if (transcript) body.push(`<system-out>${xml(transcript)}</system-out>`);
      return body.length === 0
        ? `    <testcase ${attrs}/>`
        : `    <testcase ${attrs}>\n      ${body.join('\n      ')}\n    </testcase>`;
    });
    return [
      `  <testsuite name="${xml(file)}" tests="${list.length}" failures="${count(list, 'failed')}" errors="0" skipped="${count(list, 'skipped') + count(list, 'cancelled')}" time="${seconds(list)}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suiteName)}" tests="${results.length}" failures="${count(results, 'failed')}" errors="0" skipped="${count(results, 'skipped') + count(results, 'cancelled')}" time="${seconds(results)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function failureSummary(r: CaseResult): string {
  const passed = r.runs.filter((run) => run.passed).length;
  return r.runs.length > 1
    ? `${passed} of ${r.runs.length} runs passed; ${Math.round(r.testCase.requiredPassRate * 100)}% required`
    : (failureLines(r)[0] ?? 'failed');
}

/** Text for an XML attribute or element; characters XML 1.0 cannot hold at all are dropped. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
