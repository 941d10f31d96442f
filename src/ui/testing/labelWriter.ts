import * as vscode from 'vscode';
import type { Verdict } from '../../agentTests/model/types';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { UserFacingError } from '../common/commandSupport';
import type { JudgedVerdict, LabelWritten } from './judgedVerdicts';

/** What the editor uses of labels.ts of the conversation tests' bundle. Written down here until it is merged. */
interface LabelRuntime {
  recordLabel(label: {
    testFile: string;
    caseName: string;
    criterion: string;
    verdict: Verdict;
    right: boolean;
  }): Promise<{ labelsFile: string; labels: number; agreement: number }>;
}

/** Writes a person's label of a judged verdict into the labels file beside its test file. */
export async function writeLabel(v: JudgedVerdict, right: boolean): Promise<LabelWritten> {
  const runtime = agentTestsRuntime() as unknown as Partial<LabelRuntime>;
  if (typeof runtime.recordLabel !== 'function')
    throw new UserFacingError(
      vscode.l10n.t('Labels of judged verdicts cannot be written by this version of Agent Workbench yet.'),
    );
  const written = await runtime.recordLabel({
    testFile: v.file.fsPath,
    caseName: v.testCase.name,
    criterion: v.criterion.text,
    verdict: v.verdict,
    right,
  });
  return { labelsFile: vscode.Uri.file(written.labelsFile), labels: written.labels, agreement: written.agreement };
}
