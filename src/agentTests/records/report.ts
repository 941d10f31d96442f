/** Record checks and latency distributions in the words of the reports: the command line, the Testing view, JUnit. */
import type { CaseResult, CaseRun } from '../results';
import { distributionWords } from './latency';
import type { RecordCheckResult } from './types';

/** The check as reports name it, with its line in the file: `state.booking_reference (line 12)`. */
export function recordCheckName(c: RecordCheckResult): string {
  return `record ${c.name} (line ${c.range.startLine + 1})`;
}

/** Each failed record check of a failing run, and each turn slower than its p95 budget. */
export function recordFailureLines(r: CaseResult, run: CaseRun | undefined, prefix: string): string[] {
  if (run === undefined)
    return (r.latency ?? []).filter((d) => !d.passed).map((d) => `${distributionWords(d)}: over the budget`);
  return (run.records ?? []).flatMap((c) =>
    c.outcome.kind === 'failed' ? [`${prefix}${recordCheckName(c)}: ${c.outcome.message}`] : [],
  );
}

/** One line per record check of each run (passed, failed, not checked and why), then the latency distributions. */
export function recordLines(r: CaseResult): string[] {
  const lines: string[] = [];
  for (const run of r.runs) {
    const prefix = r.runs.length > 1 ? `run ${run.attempt}: ` : '';
    for (const c of run.records ?? []) {
      const o = c.outcome;
      const name = recordCheckName(c);
      if (o.kind === 'passed') lines.push(`${prefix}✔ ${name}: ${o.actual}`);
      else if (o.kind === 'failed') lines.push(`${prefix}✖ ${name}: ${o.message}`);
      else lines.push(`${prefix}- ${name}: not checked: ${o.reason}`);
    }
  }
  for (const d of r.latency ?? []) lines.push(`${d.passed ? '✔' : '✖'} ${distributionWords(d)}`);
  return lines;
}
