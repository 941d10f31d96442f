import type { CriterionResult, ModelSpend } from './model/types';
import { type CaseResult, totalSpend } from './runner';
import { recordFailureLines, recordLines } from './records/report';
import { stopWords } from './simulated';
import { failureNote } from './perturb/turns';

/** One line per case, as the command line prints it and the Testing view's output shows it. */
export function caseLine(r: CaseResult): string {
  const name = `${r.testCase.file} › ${r.testCase.name}`;
  const runs = r.runs.length > 1 ? ` (${r.runs.filter((run) => run.passed).length}/${r.runs.length} runs passed)` : '';
  const flaky = r.flaky ? ' [flaky]' : '';
  const took = ` ${Math.round(r.durationMs)} ms`;
  const note = r.note ? ` (${r.note})` : '';
  const spend = r.spend.calls + r.spend.replayed > 0 ? ` [${spendWords(r.spend)}]` : '';
  switch (r.outcome) {
    case 'passed':
      return `✔ ${name}${runs}${flaky}${took}${spend}${note}`;
    case 'failed':
      return `✖ ${name}${runs}${flaky}${took}${spend}${note}: ${failureLines(r)[0] ?? ''}`;
    case 'errored':
      return `! ${name}${runs}${took}${spend}${note}: neither passed nor failed: ${erroredLines(r)[0] ?? ''}`;
    case 'skipped':
      return `- ${name}: skipped, ${r.skipReason ?? ''}${spend}`;
    case 'cancelled':
      return `- ${name}: cancelled${spend}`;
  }
}

/** What went wrong in each failing run: the platform's message, each check that did not hold, each criterion failed. */
export function failureLines(r: CaseResult): string[] {
  const lines: string[] = [];
  for (const run of r.runs) {
    if (run.passed || run.cancelled) continue;
    const prefix = r.runs.length > 1 ? `run ${run.attempt}: ` : '';
    for (const turn of run.turns)
      for (const f of turn.failures)
        lines.push(
          `${prefix}turn ${turn.index + 1} (line ${turn.range.startLine + 1}): ${f.message}${failureNote(turn)}`,
        );
    for (const c of run.criteria) {
      const o = c.outcome;
      if (o.kind === 'judged' && o.verdict === 'fail')
        lines.push(`${prefix}${criterionName(c)}: judged not to hold: ${o.reason}`);
      if (o.kind === 'error' && (o.cassetteMiss || o.modelFailure))
        lines.push(`${prefix}${criterionName(c)}: ${o.message}`);
    }
    lines.push(...recordFailureLines(r, run, prefix));
    if (run.error) lines.push(`${prefix}${run.error}`);
  }
  lines.push(...recordFailureLines(r, undefined, ''));
  return lines;
}

/** Why an errored case is neither passed nor failed: each judgement that could not be used. */
export function erroredLines(r: CaseResult): string[] {
  const lines: string[] = [];
  for (const run of r.runs) {
    const prefix = r.runs.length > 1 ? `run ${run.attempt}: ` : '';
    for (const c of run.criteria) {
      const o = c.outcome;
      if (o.kind === 'judged' && o.verdict === 'unsure')
        lines.push(`${prefix}${criterionName(c)}: the judge is unsure: ${o.reason}`);
      if (o.kind === 'error' && !o.cassetteMiss && !o.modelFailure)
        lines.push(`${prefix}${criterionName(c)}: judge error: ${o.message}`);
    }
  }
  return lines;
}

/** The criterion as reports name it: its words, where it is judged, and its line in the file. */
export function criterionName(c: CriterionResult): string {
  const where =
    c.scope === 'turn' ? `turn ${(c.turnIndex ?? 0) + 1} expect` : c.scope === 'success' ? 'success' : 'criterion';
  return `${where} "${c.text}" (line ${c.range.startLine + 1})`;
}

/** One line per judged criterion of each run, with the verdict, the reason and the quotes it relies on. */
export function criterionLines(r: CaseResult): string[] {
  const lines: string[] = [];
  for (const run of r.runs) {
    const prefix = r.runs.length > 1 ? `run ${run.attempt}: ` : '';
    if (run.stop !== undefined)
      lines.push(
        `${prefix}the simulated caller stopped: ${stopWords(run.stop)}${run.stopReason ? ` (${run.stopReason})` : ''}`,
      );
    for (const c of run.criteria) {
      const o = c.outcome;
      const name = criterionName(c);
      if (o.kind === 'skipped') lines.push(`${prefix}- ${name}: not judged: ${o.reason}`);
      else if (o.kind === 'error')
        lines.push(`${prefix}${o.cassetteMiss || o.modelFailure ? '✖' : '!'} ${name}: ${o.message}`);
      else {
        const mark = o.verdict === 'pass' ? '✔' : o.verdict === 'fail' ? '✖' : '?';
        const quotes = o.quotes.map((q) => `turn ${q.turn}: "${q.text}"`).join('; ');
        lines.push(
          `${prefix}${mark} ${name}: ${o.verdict}: ${o.reason}${quotes ? ` [${quotes}]` : ''}${labelWords(c)}`,
        );
      }
    }
  }
  // The record checks and latency distributions are shown with the criteria, wherever they are shown.
  lines.push(...recordLines(r));
  return lines;
}

/**
 * What the labels of a criterion say of its judge: ` (advisory: 3 labels, the judge agreed 33%)`; nothing when it has
 * none (labelsRuntime.ts marks them).
 */
function labelWords(c: CriterionResult): string {
  const l = c.labelled;
  if (!l) return '';
  const kappa = l.kappa !== undefined ? `, kappa ${l.kappa.toFixed(2)}` : '';
  const said = `${l.labels} label${l.labels === 1 ? '' : 's'}, the judge agreed ${Math.round(l.agreement * 100)}%${kappa}`;
  return ` (${c.advisory ? `advisory: ${said}` : said})`;
}

/**
 * Model calls, tokens and cost in words: `3 model calls, 1200 tokens in, 80 out, cost 0.0042`; calls answered from
 * the cassette are said apart (`0 model calls, 3 replayed`): they call no model and cost nothing.
 */
export function spendWords(s: ModelSpend): string {
  const made = s.calls;
  const replayed = s.replayed > 0 ? `, ${s.replayed} replayed` : '';
  const cost =
    s.cost !== undefined ? `, cost ${roundCost(s.cost)}` : made > 0 ? ', cost unknown (no price for the model)' : '';
  return `${made} model call${made === 1 ? '' : 's'}${replayed}, ${s.inputTokens} tokens in, ${s.outputTokens} out${cost}`;
}

function roundCost(cost: number): string {
  return cost === 0 ? '0' : cost.toPrecision(3).replace(/\.?0+$/, '');
}

/** The last line of a run: `N passed, N failed` (the errored, skipped and cancelled when any, and what models cost). */
export function summaryLine(results: readonly CaseResult[], spend: ModelSpend = totalSpend(results)): string {
  const n = (outcome: CaseResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  const extra = [
    n('errored') ? `${n('errored')} errored` : '',
    n('skipped') ? `${n('skipped')} skipped` : '',
    n('cancelled') ? `${n('cancelled')} cancelled` : '',
    spend.calls + spend.replayed > 0 ? spendWords(spend) : '',
  ]
    .filter(Boolean)
    .map((s) => `, ${s}`)
    .join('');
  return `${n('passed')} passed, ${n('failed')} failed${extra}`;
}
