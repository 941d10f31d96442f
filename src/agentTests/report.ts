import type { CaseResult } from './runner';

/** One line per case, as the command line prints it and the Testing view's output shows it. */
export function caseLine(r: CaseResult): string {
  const name = `${r.testCase.file} › ${r.testCase.name}`;
  const runs = r.runs.length > 1 ? ` (${r.runs.filter((run) => run.passed).length}/${r.runs.length} runs passed)` : '';
  const flaky = r.flaky ? ' [flaky]' : '';
  const took = ` ${Math.round(r.durationMs)} ms`;
  const note = r.note ? ` (${r.note})` : '';
  switch (r.outcome) {
    case 'passed':
      return `✔ ${name}${runs}${flaky}${took}${note}`;
    case 'failed':
      return `✖ ${name}${runs}${flaky}${took}${note}: ${failureLines(r)[0] ?? ''}`;
    case 'skipped':
      return `- ${name}: skipped, ${r.skipReason ?? ''}`;
    case 'cancelled':
      return `- ${name}: cancelled`;
  }
}

/** What went wrong in each failing run: the platform's message, or each check that did not hold at its turn. */
export function failureLines(r: CaseResult): string[] {
  const lines: string[] = [];
  for (const run of r.runs) {
    if (run.passed || run.cancelled) continue;
    const prefix = r.runs.length > 1 ? `run ${run.attempt}: ` : '';
    for (const turn of run.turns)
      for (const f of turn.failures)
        lines.push(`${prefix}turn ${turn.index + 1} (line ${turn.range.startLine + 1}): ${f.message}`);
    if (run.error) lines.push(`${prefix}${run.error}`);
  }
  return lines;
}

/** The last line of a run: `N passed, N failed` (and the skipped and cancelled, when there are any). */
export function summaryLine(results: readonly CaseResult[]): string {
  const n = (outcome: CaseResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  const extra = [n('skipped') ? `${n('skipped')} skipped` : '', n('cancelled') ? `${n('cancelled')} cancelled` : '']
    .filter(Boolean)
    .map((s) => `, ${s}`)
    .join('');
  return `${n('passed')} passed, ${n('failed')} failed${extra}`;
}
