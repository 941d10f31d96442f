import * as vscode from 'vscode';
import { iconText, markdownText } from '../../core/shownText';
import { caseItemId } from './testIds';
import type { TestCase, TestFile, TextRange } from '../../agentTests/format';
import { agentTestsRuntime } from '../agentTestsRuntime';

/** What a test item of the controller stands for: a file, a case, or one turn of a case. */
export type TestItemData =
  | { readonly kind: 'file'; readonly file: TestFile }
  | { readonly kind: 'case'; readonly file: TestFile; readonly testCase: TestCase }
  | { readonly kind: 'turn'; readonly file: TestFile; readonly testCase: TestCase; readonly index: number };

export function toRange(r: TextRange): vscode.Range {
  return new vscode.Range(r.startLine, r.startCharacter, r.endLine, r.endCharacter);
}

/** The first line of a turn, as its label: the user's message, or the greeting. */
function turnLabel(testCase: TestCase, index: number): string {
  const user = testCase.turns[index]!.user;
  return user === undefined
    ? vscode.l10n.t('greeting')
    : vscode.l10n.t('turn {0}: {1}', index + 1, iconText(user.length > 60 ? `${user.slice(0, 59)}…` : user));
}

/**
 * What a case's row says beside its name: how often it runs, that it checks nothing (so it never runs as a pass),
 * that a model judges it or plays its caller, and
 * after a run whose repeats both passed and failed, that it is flaky.
 */
export function caseDescription(
  testCase: TestCase,
  flaky?: { readonly passed: number; readonly runs: number },
): string | undefined {
  const parts = [
    ...(testCase.repeat > 1 ? [vscode.l10n.t('× {0}', testCase.repeat)] : []),
    ...(agentTestsRuntime().hasChecks(testCase) ? [] : [vscode.l10n.t('no checks')]),
    // A case that calls a model says so where it is listed: its run is estimated and confirmed first.
    ...(testCase.scenario
      ? [vscode.l10n.t('simulated caller')]
      : agentTestsRuntime().isJudged(testCase)
        ? [vscode.l10n.t('judged')]
        : []),
    ...(flaky ? [vscode.l10n.t('flaky: {0} of {1} runs passed', flaky.passed, flaky.runs)] : []),
  ];
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

/**
 * Puts a file's cases and turns under its item, each with its range so the gutter runs one case; a file with
 * problems says what to fix in the item's error. Items are replaced by id, so a running view keeps what it shows.
 */
export function fillFileItem(
  controller: vscode.TestController,
  item: vscode.TestItem,
  file: TestFile,
  data: WeakMap<vscode.TestItem, TestItemData>,
): void {
  data.set(item, { kind: 'file', file });
  const errors = file.problems.filter((p) => p.severity === 'error');
  item.error =
    errors.length === 0
      ? undefined
      : new vscode.MarkdownString(
          [
            vscode.l10n.t('This file has problems to fix before all its cases can run:'),
            ...errors.map((p) => `- ${vscode.l10n.t('line {0}', p.range.startLine + 1)}: ${markdownText(p.message)}`),
          ].join('\n'),
        );
  const cases = file.cases.map((testCase) => {
    // A label draws $(name) as an icon: the case's name is shown as written.
    const caseItem = controller.createTestItem(caseItemId(item.id, testCase.name), iconText(testCase.name), item.uri);
    caseItem.range = toRange(testCase.range);
    caseItem.tags = testCase.tags.map((t) => new vscode.TestTag(t));
    caseItem.description = caseDescription(testCase);
    data.set(caseItem, { kind: 'case', file, testCase });
    caseItem.children.replace(
      testCase.turns.map((turn, index) => {
        const turnItem = controller.createTestItem(`${caseItem.id}#${index}`, turnLabel(testCase, index), item.uri);
        turnItem.range = toRange(turn.range);
        data.set(turnItem, { kind: 'turn', file, testCase, index });
        return turnItem;
      }),
    );
    return caseItem;
  });
  item.children.replace(cases);
}
