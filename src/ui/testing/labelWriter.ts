import * as vscode from 'vscode';
import { agentTestsRuntime } from '../agentTestsRuntime';
import type { JudgedVerdict, LabelWritten } from './judgedVerdicts';

/** Writes a person's label of a judged verdict into the labels file beside its test file. */
export async function writeLabel(v: JudgedVerdict, right: boolean): Promise<LabelWritten> {
  const written = await agentTestsRuntime().recordLabel({
    testFile: v.file.fsPath,
    caseName: v.testCase.name,
    criterion: v.criterion.text,
    verdict: v.verdict,
    right,
    ...(v.conversationId !== undefined ? { conversationId: v.conversationId } : {}),
  });
  return { labelsFile: vscode.Uri.file(written.labelsFile), labels: written.labels, agreement: written.agreement };
}
