import { appendFileSync } from 'node:fs';
import { visibleControls } from '../../core/shownText';
import {
  caseName,
  type ComparisonLabels,
  comparisonMarkdown,
  msText,
  rateText,
} from '../../agentTests/compare/markdown';
import type { CaseComparison, SuiteComparison, TurnChange, Verdict } from '../../agentTests/compare/comparison';
import { xml } from '../../agentTests/junit';
import type { WordDiffPart } from '../../core/wordDiff';
import { colourFor, type Paint, paint } from './colour';
import type { ProblemRecord } from './records';
import { problemLine } from './line';
import { type ReporterName, type ReporterSpec, writeReports } from './runReport';

/** What the comparison's records carry, so a reader of the JSON knows which shape it reads. */
export const COMPARE_REPORT_VERSION = 1;

const MARK: Record<Verdict, string> = {
  'significant regression': '✗',
  'significant improvement': '✓',
  'no significant change': '=',
  'not enough runs to tell': '?',
  'not compared': '-',
};
const rate = rateText;
const ms = msText;
const signedMs = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(Math.round(n))} ms`;

/** The words a side has that the other has not, as `[-removed-]{+added+}` in plain text. */
export function inlineDiff(parts: readonly WordDiffPart[], colours: Paint): string {
  return parts
    .map((p) =>
      p.kind === 'same'
        ? visibleControls(p.text)
        : p.kind === 'removed'
          ? colours.red(`[-${visibleControls(p.text)}-]`)
          : colours.green(`{+${visibleControls(p.text)}+}`),
    )
    .join('');
}

/** What changed in a case beyond its verdict, a line each. */
function changeLines(c: CaseComparison, colours: Paint): string[] {
  const lines: string[] = [];
  for (const check of c.checks)
    lines.push(
      `${check.turn !== undefined ? `turn ${check.turn + 1} ` : ''}${visibleControls(check.check)}: ${check.passToFail} pass→fail, ${check.failToPass} fail→pass`,
    );
  for (const t of c.turns) lines.push(...turnLines(t, colours));
  // A change of a few ms is the machine's noise, not the agent's: said from a quarter, and 20 ms, up.
  const notable = (change: number) => Math.abs(change) >= Math.max(20, 0.25 * (c.base.latencyMs ?? 0));
  if (c.latencyChangeMs !== undefined && notable(c.latencyChangeMs))
    lines.push(`latency ${ms(c.base.latencyMs)} → ${ms(c.candidate.latencyMs)} (${signedMs(c.latencyChangeMs)})`);
  return lines;
}

function turnLines(t: TurnChange, colours: Paint): string[] {
  const name = `turn ${t.index + 1}${t.user ? ` ("${visibleControls(t.user)}")` : ''}`;
  const out: string[] = [];
  if (t.answerChanged > 0)
    out.push(`${name}: answer changed in ${t.answerChanged} runs: ${inlineDiff(t.diff, colours)}`);
  if (t.handoff)
    out.push(
      `${name}: handoff ${t.handoff.base ?? 'none'} → ${t.handoff.candidate ?? 'none'} in ${t.handoff.pairs} runs`,
    );
  if (t.end)
    out.push(
      `${name}: ${t.end.candidate ? 'ends the conversation now' : 'no longer ends the conversation'} in ${t.end.pairs} runs`,
    );
  return out;
}

/** A compared case as the line reporter prints it. */
export function comparedCaseLines(c: CaseComparison, colours: Paint): string {
  const v = c.verdict.verdict;
  const mark = MARK[v];
  const painted =
    v === 'significant regression'
      ? colours.red(mark)
      : v === 'significant improvement'
        ? colours.green(mark)
        : v === 'not enough runs to tell'
          ? colours.yellow(mark)
          : mark;
  const head = `${painted} ${visibleControls(caseName(c))}: ${v}, ${rate(c.base)} → ${rate(c.candidate)}`;
  const details = [visibleControls(c.verdict.reason), ...changeLines(c, colours)].map((l) => `    ${l}`);
  return `${[head, ...details].join('\n')}\n`;
}

function summaryText(s: SuiteComparison): string {
  const counts = Object.entries(s.counts)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`)
    .join(', ');
  return `Suite: ${s.verdict.verdict} (${s.verdict.reason}). ${s.cases.length} cases: ${counts || 'none'}; ${s.flipped.passToFail} flipped pass→fail, ${s.flipped.failToPass} fail→pass, ${s.handoffChanged} with changed handoffs; median latency ${ms(s.latencyMs.base)} → ${ms(s.latencyMs.candidate)}.`;
}

/** The JSON record of a compared case: stable field names, the numbers behind its verdict. */
export function comparedCaseRecord(c: CaseComparison) {
  return {
    type: 'case' as const,
    file: c.testCase.file,
    name: c.testCase.name,
    verdict: c.verdict.verdict,
    reason: c.verdict.reason,
    pairs: c.verdict.pairs,
    passToFail: c.verdict.passToFail,
    failToPass: c.verdict.failToPass,
    pValue: c.verdict.pValue,
    base: c.base,
    candidate: c.candidate,
    checks: c.checks,
    turns: c.turns,
    handoffChanged: c.handoffChanged,
    endChanged: c.endChanged,
    ...(c.latencyChangeMs !== undefined ? { latencyChangeMs: c.latencyChangeMs } : {}),
  };
}

export type { ComparisonLabels };

/** The summary record that ends the JSON report. */
export function comparisonSummaryRecord(
  s: SuiteComparison,
  labels: ComparisonLabels,
  problems: number,
  durationMs: number,
  ok: boolean,
) {
  return {
    type: 'summary' as const,
    version: COMPARE_REPORT_VERSION,
    base: labels.base,
    candidate: labels.candidate,
    verdict: s.verdict.verdict,
    reason: s.verdict.reason,
    pairs: s.verdict.pairs,
    passToFail: s.verdict.passToFail,
    failToPass: s.verdict.failToPass,
    pValue: s.verdict.pValue,
    cases: s.cases.length,
    counts: s.counts,
    flipped: s.flipped,
    handoffChanged: s.handoffChanged,
    latencyMs: s.latencyMs,
    alpha: s.settings.alpha,
    minimumDiscordant: s.minimumDiscordant,
    problems,
    durationMs: Math.round(durationMs),
    ok,
  };
}

/** JUnit: a test case per compared case, failed on a significant regression, skipped when not compared. */
export function comparisonJunit(s: SuiteComparison, labels: ComparisonLabels, durationMs: number): string {
  const failures = s.counts['significant regression'];
  const skipped = s.counts['not compared'];
  const cases = s.cases.map((c) => {
    const attrs = `name="${xml(c.testCase.name)}" classname="${xml(c.testCase.file)}"`;
    const body =
      c.verdict.verdict === 'significant regression'
        ? `<failure message="${xml(`${c.verdict.verdict}: ${c.verdict.reason}`)}">${xml(changeLines(c, paint(false)).join('\n'))}</failure>`
        : c.verdict.verdict === 'not compared'
          ? `<skipped message="${xml(c.verdict.reason)}"/>`
          : `<system-out>${xml(`${c.verdict.verdict}: ${c.verdict.reason}`)}</system-out>`;
    return `    <testcase ${attrs}>${body}</testcase>`;
  });
  const name = xml(`comparison: ${labels.candidate} against ${labels.base}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" tests="${s.cases.length}" failures="${failures}" skipped="${skipped}" time="${(durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${name}" tests="${s.cases.length}" failures="${failures}" skipped="${skipped}" time="${(durationMs / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * A comparison's reports: the reporter on standard output writes each case as it is compared, the others are
 * written to their files at the end; with GITHUB_STEP_SUMMARY set, the Markdown report is appended to the job's page.
 */
export class ComparisonReport {
  private readonly problems: ProblemRecord[] = [];
  private readonly live: ReporterName;
  private readonly colours: Paint;

  constructor(
    private readonly specs: readonly ReporterSpec[],
    private readonly labels: ComparisonLabels,
    private readonly options: { env: NodeJS.ProcessEnv; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream },
  ) {
    this.live = specs.find((s) => s.file === undefined)?.name ?? 'line';
    this.colours = paint(colourFor(options.stdout, options.env));
  }

  problem(p: ProblemRecord): void {
    this.problems.push(p);
    if (this.live === 'json') this.options.stdout.write(`${JSON.stringify(p)}\n`);
    else (this.live === 'line' ? this.options.stdout : this.options.stderr).write(problemLine(p));
  }

  caseCompared(c: CaseComparison): void {
    if (this.live === 'line') this.options.stdout.write(comparedCaseLines(c, this.colours));
    else if (this.live === 'json') this.options.stdout.write(`${JSON.stringify(comparedCaseRecord(c))}\n`);
  }

  /** Writes the summary and the files; `ok` is what the exit code says. */
  finish(s: SuiteComparison, durationMs: number, ok: boolean): void {
    const errors = this.problems.filter((p) => p.severity === 'error').length;
    const text = (name: ReporterName, live: boolean): string => {
      switch (name) {
        case 'line':
          return live
            ? `${summaryText(s)}\n`
            : [
                ...this.problems.map(problemLine),
                ...s.cases.map((c) => comparedCaseLines(c, paint(false))),
                `${summaryText(s)}\n`,
              ].join('');
        case 'json': {
          const summary = comparisonSummaryRecord(s, this.labels, errors, durationMs, ok);
          return live
            ? `${JSON.stringify(summary)}\n`
            : [...this.problems, ...s.cases.map(comparedCaseRecord), summary]
                .map((r) => `${JSON.stringify(r)}\n`)
                .join('');
        }
        case 'junit':
          return comparisonJunit(s, this.labels, durationMs);
        case 'markdown':
          return comparisonMarkdown(s, this.labels, this.problems, durationMs);
      }
    };
    writeReports(this.specs, text, this.options.stdout);
    const stepSummary = this.options.env.GITHUB_STEP_SUMMARY;
    if (stepSummary) appendFileSync(stepSummary, comparisonMarkdown(s, this.labels, this.problems, durationMs));
  }
}
