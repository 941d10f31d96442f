import type { ModelSpend } from '../../agentTests/model/types';
import { visibleControls } from '../../core/shownText';
import { caseLine, criterionLines, failureLines, summaryLine } from '../../agentTests/report';
import type { CaseResult } from '../../agentTests/runner';
import type { Paint } from './colour';
import type { ProblemRecord, SummaryRecord } from './records';

/** The line reporter (the default): a line per problem and per case as it finishes, the counts last. */
export function problemLine(p: ProblemRecord): string {
  return `${visibleControls(`${p.file}:${p.line}:${p.column}: ${p.severity}: ${p.message}`)}\n`;
}

export function caseLines(r: CaseResult, colours: Paint): string {
  // What the platform and the test file said is shown, never obeyed: an answer's escape sequence cannot clear
  // the terminal or recolour the log (the colours are added after).
  const line = visibleControls(caseLine(r));
  const mark = line.slice(0, 1);
  const painted =
    r.outcome === 'passed' ? colours.green(mark) : r.outcome === 'failed' ? colours.red(mark) : colours.yellow(mark);
  return (
    [
      `${painted}${line.slice(1)}`,
      ...failureLines(r)
        .slice(1)
        .map((l) => `    ${visibleControls(l)}`),
      ...criterionLines(r).map((l) => `    ${visibleControls(l)}`),
    ].join('\n') + '\n'
  );
}

export function summaryLines(
  results: readonly CaseResult[],
  summary: SummaryRecord,
  colours: Paint,
  spend?: ModelSpend,
): string {
  const shard = summary.shard ? ` (shard ${summary.shard.index}/${summary.shard.total})` : '';
  const merged = summary.shards ? ` (${summary.shards.length} shards merged)` : '';
  const problems = summary.problems ? `, ${summary.problems} problems in test files` : '';
  const text = `${summaryLine(results, spend)}${problems}`;
  return `${summary.ok ? text : colours.bold(text)}${shard}${merged}\n`;
}
