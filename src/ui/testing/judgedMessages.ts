import * as vscode from 'vscode';
import { markdownText } from '../../core/shownText';
import type { CriterionResult } from '../../agentTests/model/types';
import { Command, TestMessageValue } from '../ids';
import { quoteLink } from './runTranscripts';
import { toRange } from './testItems';

/** The context value of a judged verdict's message: its menu labels the verdict right or wrong. */
export const JUDGED_MESSAGE = TestMessageValue.judged;

const VERDICT_MARK = { pass: '✔', fail: '✖', unsure: '?' } as const;

/** How a criterion's result reads in one line, as the run's output shows it. */
export function criterionLine(c: CriterionResult): string {
  const where = c.scope === 'turn' && c.turnIndex !== undefined ? ` (turn ${c.turnIndex + 1})` : '';
  const advisory = c.advisory ? ` [advisory]` : '';
  const labelled = c.labelled
    ? ` [${c.labelled.labels} label${c.labelled.labels === 1 ? '' : 's'}, judge agreed ${Math.round(c.labelled.agreement * 100)}%${c.labelled.kappa !== undefined ? `, kappa ${c.labelled.kappa.toFixed(2)}` : ''}]`
    : '';
  const o = c.outcome;
  switch (o.kind) {
    case 'judged':
      return `  judged ${VERDICT_MARK[o.verdict]} ${o.verdict}${where}${advisory}${labelled}: "${c.text}": ${o.reason}`;
    case 'error':
      return `  judge error${where}: "${c.text}": ${o.message}`;
    case 'skipped':
      return `  not judged${where}: "${c.text}": ${o.reason}`;
  }
}

/**
 * What a criterion's result means for its item, as the runner counts it: passed; failed (a fail verdict, a model that
 * could not be asked, a cassette miss); errored (unsure, a judge error: neither passed nor failed); skipped.
 */
export function criterionState(c: CriterionResult): 'passed' | 'failed' | 'errored' | 'skipped' {
  const o = c.outcome;
  if (o.kind === 'skipped') return 'skipped';
  if (o.kind === 'error') return o.cassetteMiss || o.modelFailure ? 'failed' : 'errored';
  return o.verdict === 'pass' ? 'passed' : o.verdict === 'fail' ? 'failed' : 'errored';
}

/**
 * One Testing view message for a criterion: the criterion, the verdict and the reason, and each quote linked to its
 * turn in the run's conversation (`transcript`, see RunTranscripts), at the criterion's line. A judged verdict's
 * message can be labelled right or wrong from its context menu.
 */
export function criterionMessage(
  c: CriterionResult,
  uri: vscode.Uri,
  transcript: string | undefined,
  prefix = '',
): vscode.TestMessage {
  const o = c.outcome;
  const lines: string[] = [];
  const criterion = escape(c.text);
  if (o.kind === 'judged') {
    lines.push(`${prefix}**${VERDICT_MARK[o.verdict]} ${o.verdict}**: ${criterion}`, '', escape(o.reason));
    if (o.quotes.length > 0) {
      lines.push('', vscode.l10n.t('Quotes:'));
      for (const q of o.quotes) {
        const label = vscode.l10n.t('turn {0}', q.turn);
        const turn = transcript ? `[${label}](${quoteLink({ transcript, turn: q.turn, text: q.text })})` : label;
        lines.push(`- ${turn}: “${escape(q.text)}”`);
      }
    }
  } else if (o.kind === 'error') {
    const what = o.cassetteMiss
      ? vscode.l10n.t('re-record needed')
      : o.modelFailure
        ? vscode.l10n.t('model failed')
        : vscode.l10n.t('judge error');
    lines.push(`${prefix}**${what}**: ${criterion}`, '', escape(o.message));
    if (o.cassetteMiss)
      lines.push(
        '',
        vscode.l10n.t(
          'To record it: set agentWorkbench.tests.model.cassette to record and run the test again (this calls the model).',
        ),
      );
  } else lines.push(`${prefix}**${vscode.l10n.t('not judged')}**: ${criterion}`, '', escape(o.reason));
  if (c.advisory) {
    const pct = Math.round(c.advisory.agreement * 100);
    lines.push(
      '',
      vscode.l10n.t(
        'Advisory: the judge agreed with {0} labels {1}% of the time{2}, below the agreement setting; the promotion gate reports it and does not block on it.',
        c.advisory.labels,
        pct,
        c.advisory.kappa !== undefined ? ` (kappa ${c.advisory.kappa.toFixed(2)})` : '',
      ),
    );
  }
  const md = new vscode.MarkdownString(lines.join('\n'));
  md.isTrusted = { enabledCommands: [Command.showJudgedQuote] };
  const message = new vscode.TestMessage(md);
  message.location = new vscode.Location(uri, toRange(c.range));
  if (o.kind === 'judged') message.contextValue = JUDGED_MESSAGE;
  return message;
}

/** The builder's and the model's words are shown as written: nothing in them becomes markup or a link. */
const escape = markdownText;
