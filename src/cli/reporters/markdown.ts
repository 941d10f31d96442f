import { failureLines } from '../../agentTests/report';
import type { CaseResult } from '../../agentTests/runner';
import type { ProblemRecord, SummaryRecord } from './records';
import { markdownCell, markdownCode } from '../../core/shownText';

/** Text of the report (a table cell, a list line): on one line, shown as written, never markup. */
const cell = markdownCell;

const ICON: Record<CaseResult['outcome'], string> = {
  passed: '✅',
  failed: '❌',
  errored: '⚠️',
  skipped: '⏭️',
  cancelled: '⏹️',
};

/**
 * The Markdown report, for a pull request comment or a CI job's summary page (GITHUB_STEP_SUMMARY): the counts, the
 * failing cases with what failed, the problems of test files, and every case in a folded table.
 */
export function markdownReport(
  results: readonly CaseResult[],
  summary: SummaryRecord,
  problems: readonly ProblemRecord[],
): string {
  const where = summary.shard
    ? ` (shard ${summary.shard.index}/${summary.shard.total})`
    : summary.shards
      ? ` (${summary.shards.length} shards merged)`
      : '';
  const out = [
    `## ${summary.ok ? '✅' : '❌'} Conversation tests${where}`,
    '',
    '| Cases | Passed | Failed | Skipped | Cancelled | Flaky | Problems in test files | Time |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${summary.total} | ${summary.passed} | ${summary.failed} | ${summary.skipped} | ${summary.cancelled} | ${summary.flaky} | ${summary.problems} | ${(summary.durationMs / 1000).toFixed(1)} s |`,
    '',
  ];
  const failed = results.filter((r) => r.outcome === 'failed' || r.outcome === 'cancelled');
  if (failed.length > 0) {
    out.push('### Failed', '');
    for (const r of failed) {
      out.push(`- **${cell(r.testCase.file)} › ${cell(r.testCase.name)}**`);
      for (const line of failureLines(r)) out.push(`  - ${cell(line)}`);
    }
    out.push('');
  }
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    out.push('### Problems in test files', '');
    for (const p of errors) out.push(`- ${markdownCode(`${p.file}:${p.line}:${p.column}`)} ${cell(p.message)}`);
    out.push('');
  }
  if (results.length > 0) {
    out.push(
      `<details><summary>All ${results.length} cases</summary>`,
      '',
      '| | Case | Result |',
      '| --- | --- | --- |',
    );
    for (const r of results)
      out.push(`| ${ICON[r.outcome]} | ${cell(`${r.testCase.file} › ${r.testCase.name}`)} | ${cell(resultText(r))} |`);
    out.push('', '</details>', '');
  }
  return `${out.join('\n')}\n`;
}

/** A case's result in a few words: its outcome, runs, time, and the first thing that failed or why it was skipped. */
function resultText(r: CaseResult): string {
  const runs = r.runs.length > 1 ? `, ${r.runs.filter((run) => run.passed).length}/${r.runs.length} runs passed` : '';
  const flaky = r.flaky ? ', flaky' : '';
  const why =
    r.outcome === 'skipped' ? `: ${r.skipReason ?? ''}` : r.outcome === 'failed' ? `: ${failureLines(r)[0] ?? ''}` : '';
  return `${r.outcome}${runs}${flaky}, ${Math.round(r.durationMs)} ms${why}`;
}
