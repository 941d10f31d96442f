/**
 * A comparison as Markdown: the report fit for a pull request comment or a job's summary page, the one the editor
 * keeps with the deployment a promotion made. Text from the platform or the test files is escaped: nothing in it
 * becomes markup.
 */
import type { CaseComparison, SideSummary, SuiteComparison, Verdict } from './comparison';
import { htmlText, markdownCell, markdownCode } from '../../core/shownText';
import type { WordDiffPart } from '../../core/wordDiff';

/** Who is compared with whom, as the report names them. */
export interface ComparisonLabels {
  readonly base: string;
  readonly candidate: string;
}

/** A problem of a test file, as the report lists it. */
export interface ReportedProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

export const VERDICT_ICON: Record<Verdict, string> = {
  'significant regression': '❌',
  'significant improvement': '✅',
  'no significant change': '➖',
  'not enough runs to tell': '❔',
  'not compared': '⏭️',
};
const ICON = VERDICT_ICON;

const pct = (n: number) => `${Math.round(n * 100)}%`;
/** A side's pass rate with its runs and interval. */
export const rateText = (s: SideSummary) =>
  s.runs === 0
    ? 'no runs'
    : `${pct(s.passRate)} (${s.passed}/${s.runs}, ${pct(s.interval.low)}–${pct(s.interval.high)})`;
const rate = rateText;
/** Milliseconds, rounded, or a dash. */
export const msText = (n: number | undefined) => (n === undefined ? '—' : `${Math.round(n)} ms`);
const ms = msText;
/** A case as the reports name it: its file and its name. */
export const caseName = (c: CaseComparison) => `${c.testCase.file} › ${c.testCase.name}`;

/**
 * Text of the report (a table cell, a list line): on one line, shown as written. A name or an answer such as
 * `![x](https://...)` or `<script>` stays text in a pull request comment and in the editor's Markdown preview.
 */
export const cell = markdownCell;

/** A word diff in Markdown: removed words struck, added ones underlined. */
export function markdownDiff(parts: readonly WordDiffPart[]): string {
  return parts
    .map((p) =>
      p.kind === 'same'
        ? cell(p.text)
        : p.kind === 'removed'
          ? `<del>${cell(p.text)}</del>`
          : `<ins>${cell(p.text)}</ins>`,
    )
    .join('');
}

const WHAT_IT_MEANS: Record<Verdict, string> = {
  'significant regression': 'fails more often on the candidate, by more than chance',
  'significant improvement': 'passes more often on the candidate, by more than chance',
  'no significant change': 'any difference is within noise',
  'not enough runs to tell': 'too few runs differ for an exact test to tell: run more repeats',
  'not compared': 'skipped or unreachable on a side',
};

/** The Markdown report, fit for a pull request comment or a job's summary page. */
export function comparisonMarkdown(
  s: SuiteComparison,
  labels: ComparisonLabels,
  problems: readonly ReportedProblem[],
  durationMs: number,
): string {
  const out = [
    `## ${ICON[s.verdict.verdict]} Comparison: ${cell(labels.candidate)} against ${cell(labels.base)}: ${s.verdict.verdict}`,
    '',
    `${cell(s.verdict.reason)}.`,
    '',
    '| Cases | Regressions | Improvements | No significant change | Not enough runs | Not compared | Flipped pass→fail | Flipped fail→pass | Changed handoffs | Median latency | Time |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${s.cases.length} | ${s.counts['significant regression']} | ${s.counts['significant improvement']} | ${s.counts['no significant change']} | ${s.counts['not enough runs to tell']} | ${s.counts['not compared']} | ${s.flipped.passToFail} | ${s.flipped.failToPass} | ${s.handoffChanged} | ${ms(s.latencyMs.base)} → ${ms(s.latencyMs.candidate)} | ${(durationMs / 1000).toFixed(1)} s |`,
    '',
  ];
  const changed = s.cases.filter(
    (c) =>
      c.verdict.passToFail + c.verdict.failToPass > 0 || c.turns.length > 0 || c.verdict.verdict === 'not compared',
  );
  if (changed.length > 0) {
    out.push(
      '### What changed',
      '',
      `| | Case | Verdict | ${cell(labels.base)} | ${cell(labels.candidate)} | p |`,
      '| --- | --- | --- | ---: | ---: | ---: |',
    );
    for (const c of changed)
      out.push(
        `| ${ICON[c.verdict.verdict]} | ${cell(caseName(c))} | ${c.verdict.verdict} | ${rate(c.base)} | ${rate(c.candidate)} | ${c.verdict.pValue.toFixed(4)} |`,
      );
    out.push('');
    for (const c of changed) {
      const lines = [
        cell(c.verdict.reason),
        ...c.checks.map(
          (k) =>
            `${k.turn !== undefined ? `turn ${k.turn + 1} ` : ''}${markdownCode(k.check)}: ${k.passToFail} pass→fail, ${k.failToPass} fail→pass`,
        ),
        ...c.turns.flatMap((t) => [
          ...(t.answerChanged > 0
            ? [
                `turn ${t.index + 1}${t.user ? ` (“${cell(t.user)}”)` : ''}, answer changed in ${t.answerChanged} runs: ${markdownDiff(t.diff)}`,
              ]
            : []),
          ...(t.handoff
            ? [
                `turn ${t.index + 1}: handoff ${markdownCode(t.handoff.base ?? 'none')} → ${markdownCode(t.handoff.candidate ?? 'none')} in ${t.handoff.pairs} runs`,
              ]
            : []),
          ...(t.end
            ? [`turn ${t.index + 1}: end of conversation ${t.end.base} → ${t.end.candidate} in ${t.end.pairs} runs`]
            : []),
        ]),
      ];
      out.push(
        `<details><summary>${htmlText(caseName(c))}: ${c.verdict.verdict}</summary>`,
        '',
        ...lines.map((l) => `- ${l}`),
        '',
        '</details>',
        '',
      );
    }
  }
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    out.push('### Problems in test files', '');
    for (const p of errors) out.push(`- ${markdownCode(`${p.file}:${p.line}:${p.column}`)} ${cell(p.message)}`);
    out.push('');
  }
  out.push(
    `<sub>Verdicts: an exact McNemar test on the runs paired repeat by repeat, at ${s.settings.alpha}; at least ${s.minimumDiscordant} paired runs must differ before a change can be significant. ${Object.entries(
      WHAT_IT_MEANS,
    )
      .map(([v, m]) => `“${v}”: ${m}`)
      .join('; ')}.</sub>`,
    '',
  );
  return `${out.join('\n')}\n`;
}
