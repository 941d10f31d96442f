/**
 * Labels of judged verdicts as the editor uses them: a person's "the judge was right / wrong" written beside the
 * test file, and a run's criteria marked advisory where the judge agrees too rarely with those labels.
 */
import {
  addLabel,
  agreementOf,
  criterionAgreement,
  criterionIdentity,
  type CriterionLabels,
  isAdvisory,
  labelsPath,
  readLabels,
} from './model/labels';
import { nodeTextFiles } from './model/textFiles';
import type { CriterionResult, Verdict } from './model/types';
import type { CaseResult } from './results';

/** The labels of each test file, by the file's path on disk. */
export type RunLabels = ReadonlyMap<string, ReadonlyMap<string, CriterionLabels>>;

/** Writes one label and says what the criterion's labels say now. */
export async function recordLabel(label: {
  readonly testFile: string;
  readonly caseName: string;
  readonly criterion: string;
  readonly verdict: Verdict;
  readonly right: boolean;
  readonly conversationId?: string;
}): Promise<{ labelsFile: string; labels: number; agreement: number }> {
  await addLabel(nodeTextFiles, label.testFile, {
    caseName: label.caseName,
    criterion: label.criterion,
    verdict: label.verdict,
    label: label.right ? 'right' : 'wrong',
    conversationId: label.conversationId ?? '',
  });
  const criteria = await readLabels(nodeTextFiles, label.testFile);
  const agreement = agreementOf(criteria.get(criterionIdentity(label.caseName, label.criterion))?.labels ?? []);
  return { labelsFile: labelsPath(label.testFile), labels: agreement.labels, agreement: agreement.agreement };
}

/** The labels beside each of these test files (none where a file has no labels file). */
export async function readRunLabels(testFiles: readonly string[]): Promise<RunLabels> {
  const out = new Map<string, ReadonlyMap<string, CriterionLabels>>();
  for (const file of new Set(testFiles)) out.set(file, await readLabels(nodeTextFiles, file));
  return out;
}

/**
 * The result with each labelled criterion's agreement (how many labels, how often the judge agreed, Cohen's kappa
 * from 20), and each whose judge agrees with its labels less often than `threshold` marked advisory: it is still
 * reported, and the promotion gate does not block on it.
 */
export function withAdvisory(
  result: CaseResult,
  labels: ReadonlyMap<string, CriterionLabels> | undefined,
  threshold: number,
): CaseResult {
  if (!labels || labels.size === 0) return result;
  const mark = (c: CriterionResult): CriterionResult => {
    const agreement = criterionAgreement(labels, result.testCase.name, c.text);
    if (agreement.labels === 0) return c;
    const said = {
      agreement: agreement.agreement,
      labels: agreement.labels,
      ...(agreement.kappa !== undefined ? { kappa: agreement.kappa } : {}),
    };
    return { ...c, labelled: said, ...(isAdvisory(agreement, threshold) ? { advisory: said } : {}) };
  };
  return {
    ...result,
    runs: result.runs.map((run) => ({
      ...run,
      criteria: run.criteria.map(mark),
      turns: run.turns.map((t) => (t.criteria ? { ...t, criteria: t.criteria.map(mark) } : t)),
    })),
  };
}
