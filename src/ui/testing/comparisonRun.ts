import * as vscode from 'vscode';
import type { CaseComparison, SuiteComparison } from '../../agentTests/compare/comparison';
import type { SideTarget } from '../../agentTests/compare/runComparison';
import type { RunModel } from '../../agentTests/judging';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { prompts } from '../common/prompts';
import type { ComparisonSide } from './compareSides';
import { noModelReason } from './modelSettings';
import type { TestItemData } from './testItems';
import { type JudgedSupport, type RunRecord, runReporter, selectedCases, spendLine } from './testRun';

/** What a comparison in the editor found, with its report. */
export interface EditorComparison {
  readonly suite: SuiteComparison;
  /** The report in Markdown, fit for a pull request comment, kept with the deployment a promotion made. */
  readonly markdown: string;
  readonly base: string;
  readonly candidate: string;
}

/** A sentence of what the comparison changes for callers: flips, significant changes and changed handoffs. */
export function comparisonSummary(s: SuiteComparison): string {
  const regressions = s.counts['significant regression'];
  const improvements = s.counts['significant improvement'];
  return vscode.l10n.t(
    '{0} cases: {1} went from passing to failing, {2} from failing to passing; {3} significant regressions, {4} significant improvements; {5} with changed handoffs. Suite: {6} ({7}).',
    s.cases.length,
    s.flipped.passToFail,
    s.flipped.failToPass,
    regressions,
    improvements,
    s.handoffChanged,
    s.verdict.verdict,
    s.verdict.reason,
  );
}

/** A compared case's messages: why its verdict, the checks that flipped, and each changed turn as a diff. */
function caseMessages(c: CaseComparison, uri: vscode.Uri | undefined): vscode.TestMessage[] {
  const at = (line: number | undefined) =>
    uri && line !== undefined ? new vscode.Location(uri, new vscode.Position(line, 0)) : undefined;
  const messages: vscode.TestMessage[] = [];
  const head = new vscode.TestMessage(
    vscode.l10n.t(
      '{0}: {1}. Passed {2} of {3} runs before, {4} of {5} now.',
      c.testCase.name,
      c.verdict.reason,
      c.base.passed,
      c.base.runs,
      c.candidate.passed,
      c.candidate.runs,
    ),
  );
  messages.push(head);
  for (const check of c.checks)
    messages.push(
      new vscode.TestMessage(
        vscode.l10n.t(
          '{0}: {1} held before and not now in {2} pairs, the other way in {3}.',
          check.turn === undefined ? check.check : vscode.l10n.t('turn {0}, {1}', check.turn + 1, check.check),
          c.testCase.name,
          check.passToFail,
          check.failToPass,
        ),
      ),
    );
  for (const t of c.turns) {
    const parts = [
      t.answerChanged > 0 ? vscode.l10n.t('the answer differs in {0} pairs', t.answerChanged) : '',
      t.handoff
        ? vscode.l10n.t(
            'handoff {0} → {1} in {2} pairs',
            t.handoff.base ?? vscode.l10n.t('none'),
            t.handoff.candidate ?? vscode.l10n.t('none'),
            t.handoff.pairs,
          )
        : '',
      t.end ? vscode.l10n.t('the end changed in {0} pairs', t.end.pairs) : '',
    ].filter(Boolean);
    const m = new vscode.TestMessage(
      vscode.l10n.t('{0}, turn {1}: {2}', c.testCase.name, t.index + 1, parts.join('; ') || vscode.l10n.t('latency')),
    );
    if (t.base !== undefined && t.candidate !== undefined && t.base !== t.candidate) {
      m.expectedOutput = t.base;
      m.actualOutput = t.candidate;
    }
    const turn = c.testCase.turns[t.index];
    const location = at(turn?.range.startLine);
    if (location) m.location = location;
    messages.push(m);
  }
  return messages;
}

/**
 * Runs the selected cases against two environments, paired repeat by repeat (the shared comparison), and reports
 * each case in the Testing view: a significant regression fails, a case not compared is skipped with why, any other
 * verdict passes with what changed in its messages. Resolves with the comparison, or undefined when nothing ran.
 */
export async function runComparisonInEditor(opts: {
  readonly controller: vscode.TestController;
  readonly data: WeakMap<vscode.TestItem, TestItemData>;
  readonly request: vscode.TestRunRequest;
  readonly token: vscode.CancellationToken;
  readonly base: ComparisonSide;
  readonly candidate: ComparisonSide;
  readonly repeat: number;
  readonly concurrency: number;
  readonly record: RunRecord;
  readonly judged?: JudgedSupport;
}): Promise<EditorComparison | undefined> {
  const { controller, data, request, token, base, candidate, record } = opts;
  const { cases } = selectedCases(controller, request, data);
  const title = vscode.l10n.t('Compare {0} with {1}', candidate.label, base.label);
  const run = controller.createTestRun(request, title, true);
  const { report, output } = runReporter(run, record);
  try {
    if (cases.length === 0) return undefined;
    const conversations = cases.length * opts.repeat * 2;
    if (base.real || candidate.real) {
      const go = vscode.l10n.t('Compare');
      const answer = await prompts.ask(
        vscode.l10n.t(
          'This comparison makes {0} real conversations: {1} cases, {2} times each, on {3} and on {4}. They are recorded like any other conversation.',
          conversations,
          cases.length,
          opts.repeat,
          base.label,
          candidate.label,
        ),
        { severity: 'warning' },
        go,
      );
      if (answer !== go) {
        for (const c of cases) report(c.caseItem, 'skipped');
        output(vscode.l10n.t('Not compared: real conversations were not confirmed.') + '\n');
        return undefined;
      }
    }
    const runtime = agentTestsRuntime();
    let model: RunModel | undefined;
    const judgedCases = cases.flatMap((c) =>
      c.caseItem.uri && runtime.isJudged(c.testCase)
        ? [{ testCase: { ...c.testCase, repeat: opts.repeat * 2 }, uri: c.caseItem.uri }]
        : [],
    );
    if (judgedCases.length > 0) {
      const chosen = opts.judged ? await opts.judged.model(judgedCases, output) : undefined;
      if (chosen === 'declined') {
        for (const c of cases) report(c.caseItem, 'skipped');
        output(vscode.l10n.t('Not compared: the model calls were not confirmed.') + '\n');
        return undefined;
      }
      model = chosen ?? { none: noModelReason() };
    }
    let sides: { base: SideTarget; candidate: SideTarget };
    try {
      sides = { base: await base.reach(), candidate: await candidate.reach() };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      for (const c of cases) report(c.caseItem, 'errored', [new vscode.TestMessage(message)]);
      output(`${message}\n`);
      return undefined;
    }
    const byCase = new Map(cases.map((c) => [c.testCase, c.caseItem]));
    for (const c of cases) report(c.caseItem, 'started');
    output(
      vscode.l10n.t(
        'Comparing {0} cases, {1} runs each on {2} (the base) and on {3} (the candidate), paired run by run.',
        cases.length,
        opts.repeat,
        base.label,
        candidate.label,
      ) + '\n',
    );
    const abort = new AbortController();
    const cancelled = token.onCancellationRequested(() => abort.abort());
    const started = Date.now();
    let suite: SuiteComparison;
    try {
      suite = await runtime.runComparison(
        cases.map((c) => c.testCase),
        {
          base: sides.base,
          candidate: sides.candidate,
          concurrency: opts.concurrency,
          repeat: opts.repeat,
          signal: abort.signal,
          ...(model ? { model } : {}),
          listener: {
            caseCompared: (c) => {
              const item = byCase.get(c.testCase);
              if (!item) return;
              const messages = caseMessages(c, item.uri);
              const state =
                c.verdict.verdict === 'not compared'
                  ? 'skipped'
                  : c.verdict.verdict === 'significant regression'
                    ? 'failed'
                    : 'passed';
              report(item, state, messages);
              output(`${c.verdict.verdict}: ${c.testCase.name} (${c.verdict.reason})\n`);
            },
          },
        },
      );
    } finally {
      cancelled.dispose();
    }
    for (const c of cases) if (record.items.get(c.caseItem.id)?.state === 'started') report(c.caseItem, 'skipped');
    output(`${comparisonSummary(suite)}\n`);
    if (model && 'calls' in model) {
      output(`${spendLine(model.calls.modelId, model.calls.spent())}\n`);
      await model.calls.flush().catch(() => undefined);
    }
    const labels = { base: base.label, candidate: candidate.label };
    return {
      suite,
      markdown: runtime.comparisonMarkdown(suite, labels, [], Date.now() - started),
      ...labels,
    };
  } finally {
    run.end();
  }
}
