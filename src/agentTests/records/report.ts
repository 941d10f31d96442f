/** Record checks and latency distributions in the words of the reports: the command line, the Testing view, JUnit. */
import type { CaseResult, CaseRun } from '../results';
import { distributionWords } from './latency';
import type { TextRange } from '../textRange';
import type { RecordCheckResult } from './types';

/** The check as reports name it, with its line in the file: `state.booking_reference (line 12)`. */
export function recordCheckName(c: RecordCheckResult): string {
  return `record ${c.name} (line ${c.range.startLine + 1})`;
}

/** Each failed record check of a failing run, and each turn slower than its p95 budget. */
export function recordFailureLines(r: CaseResult, run: CaseRun | undefined, prefix: string): string[] {
  if (run === undefined) return recordFindings(r, undefined).map((f) => f.message);
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

/** A finding of a run's record checks or of the case's latency, where it is written: the Testing view's messages. */
export interface RecordFinding {
  readonly message: string;
  readonly range: TextRange;
  readonly turnIndex?: number;
}

/** The failed record checks of a run (or, without one, the turns over their p95 budget), each at its line. */
export function recordFindings(r: CaseResult, run: CaseRun | undefined): RecordFinding[] {
  if (run === undefined)
    return (r.latency ?? [])
      .filter((d) => !d.passed)
      .map((d) => ({ message: `${distributionWords(d)}: over the budget`, range: d.range, turnIndex: d.turnIndex }));
  return (run.records ?? []).flatMap((c) =>
    c.outcome.kind === 'failed'
      ? [
          {
            message: c.outcome.message,
            range: c.range,
            ...(c.turnIndex !== undefined ? { turnIndex: c.turnIndex } : {}),
          },
        ]
      : [],
  );
}
