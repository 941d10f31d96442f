/**
 * Labels: a person's word on judged verdicts (right or wrong), kept beside the tests (`tests/returns.labels.json`,
 * reviewed in git), per criterion identity: the case's name and a hash of the criterion's text, so rewording a
 * criterion starts its labels afresh. From them: how often the judge agreed, Cohen's kappa once there are 20
 * labels, and whether a criterion is advisory (reported, not blocking the promotion gate).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { besideTestFile, type TextFiles } from './textFiles';
import type { Verdict } from './types';

export const LABELS_VERSION = 1;
/** Cohen's kappa is shown from this many labels on. */
export const KAPPA_MIN_LABELS = 20;

export interface Label {
  /** The verdict the judge gave. */
  readonly verdict: Verdict;
  /** The person's word on it. */
  readonly label: 'right' | 'wrong';
  /** The conversation judged (its id on the platform), to look it up again. */
  readonly conversationId: string;
  /** ISO time the label was given. */
  readonly time: string;
}

export interface CriterionLabels {
  readonly case: string;
  readonly criterion: string;
  readonly labels: readonly Label[];
}

export interface Agreement {
  readonly labels: number;
  /** The share of labels saying the judge was right, 0 to 1 (0 with no labels). */
  readonly agreement: number;
  /** Cohen's kappa of the judge against the person (pass against not pass), from 20 labels; undefined before. */
  readonly kappa?: number;
}

/** The labels file's path for a test file. */
export function labelsPath(testFile: string): string {
  return besideTestFile(testFile, '.labels.json');
}

/** A criterion's identity in the labels file: `<case name>#<hash of its text>`. */
export function criterionIdentity(caseName: string, criterionText: string): string {
  const hash = createHash('sha256').update(criterionText.trim()).digest('hex').slice(0, 12);
  return `${caseName}#${hash}`;
}

const labelSchema = z.object({
  verdict: z.enum(['pass', 'fail', 'unsure']),
  label: z.enum(['right', 'wrong']),
  conversationId: z.string(),
  time: z.string(),
});
const fileSchema = z.object({
  version: z.literal(LABELS_VERSION),
  criteria: z.record(z.string(), z.object({ case: z.string(), criterion: z.string(), labels: z.array(labelSchema) })),
});

/** Every criterion's labels in a labels file's text; throws with the file named when it is not one. */
export function parseLabels(file: string, text: string): Map<string, CriterionLabels> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(
      `the labels file ${file} is not JSON (${err instanceof Error ? err.message : ''}): fix it or restore it from git`,
    );
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `the labels file ${file} cannot be read (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}): fix it or restore it from git`,
    );
  }
  return new Map(Object.entries(parsed.data.criteria));
}

/** A labels file's text: criteria sorted by identity, labels in the order given, a newline at the end. */
export function formatLabels(criteria: ReadonlyMap<string, CriterionLabels>): string {
  const sorted: Record<string, CriterionLabels> = {};
  for (const id of [...criteria.keys()].sort()) {
    const c = criteria.get(id);
    if (!c) continue;
    sorted[id] = {
      case: c.case,
      criterion: c.criterion,
      labels: c.labels.map((l) => ({
        verdict: l.verdict,
        label: l.label,
        conversationId: l.conversationId,
        time: l.time,
      })),
    };
  }
  return `${JSON.stringify({ version: LABELS_VERSION, criteria: sorted }, null, 2)}\n`;
}

/** The labels of a test file's criteria (none when it has no labels file). */
export async function readLabels(files: TextFiles, testFile: string): Promise<Map<string, CriterionLabels>> {
  const file = labelsPath(testFile);
  const text = await files.read(file);
  return text === undefined ? new Map() : parseLabels(file, text);
}

const writes = new Map<string, Promise<unknown>>();

/**
 * Adds a label and writes the file atomically. A second label of the same conversation's verdict replaces the
 * first (the person changed their mind). Labels of one file are written one after another.
 */
export function addLabel(
  files: TextFiles,
  testFile: string,
  entry: { readonly caseName: string; readonly criterion: string } & Omit<Label, 'time'> & { readonly time?: string },
): Promise<void> {
  const file = labelsPath(testFile);
  const run = (writes.get(file) ?? Promise.resolve())
    .catch(() => undefined)
    .then(async () => {
      const criteria = await readLabels(files, testFile);
      const id = criterionIdentity(entry.caseName, entry.criterion);
      const label: Label = {
        verdict: entry.verdict,
        label: entry.label,
        conversationId: entry.conversationId,
        time: entry.time ?? new Date().toISOString(),
      };
      const old = criteria.get(id)?.labels ?? [];
      const kept = old.filter((l) => !(l.conversationId === label.conversationId && l.verdict === label.verdict));
      criteria.set(id, { case: entry.caseName, criterion: entry.criterion.trim(), labels: [...kept, label] });
      await files.write(file, formatLabels(criteria));
    });
  writes.set(file, run);
  void run
    .finally(() => {
      if (writes.get(file) === run) writes.delete(file);
    })
    .catch(() => undefined);
  return run;
}

/**
 * How often the judge agreed with the person, and Cohen's kappa from 20 labels on, over pass against not pass:
 * the judge said pass or not; the person agrees (right) or says the other (wrong).
 */
export function agreementOf(labels: readonly Label[]): Agreement {
  const n = labels.length;
  if (n === 0) return { labels: 0, agreement: 0 };
  const right = labels.filter((l) => l.label === 'right').length;
  const agreement = right / n;
  if (n < KAPPA_MIN_LABELS) return { labels: n, agreement };
  return {
    labels: n,
    agreement,
    kappa: cohensKappa(labels.map((l) => [l.verdict === 'pass', (l.verdict === 'pass') === (l.label === 'right')])),
  };
}

/** Cohen's kappa of two raters' yes/no ratings: (observed - chance) / (1 - chance); 1 when chance is 1. */
export function cohensKappa(pairs: ReadonlyArray<readonly [boolean, boolean]>): number {
  const n = pairs.length;
  if (n === 0) return 0;
  const observed = pairs.filter(([a, b]) => a === b).length / n;
  const aYes = pairs.filter(([a]) => a).length / n;
  const bYes = pairs.filter(([, b]) => b).length / n;
  const chance = aYes * bYes + (1 - aYes) * (1 - bYes);
  if (chance === 1) return observed === 1 ? 1 : 0;
  return (observed - chance) / (1 - chance);
}

/** The agreement of one criterion of a case, from a test file's labels. */
export function criterionAgreement(
  criteria: ReadonlyMap<string, CriterionLabels>,
  caseName: string,
  criterionText: string,
): Agreement {
  return agreementOf(criteria.get(criterionIdentity(caseName, criterionText))?.labels ?? []);
}

/**
 * Whether a criterion is advisory: it has at least `minLabels` labels (default 1) and its judge agreed with them
 * less often than `threshold` (0 to 1). A criterion without labels is not advisory.
 */
export function isAdvisory(agreement: Agreement, threshold: number, minLabels = 1): boolean {
  return agreement.labels >= Math.max(1, minLabels) && agreement.agreement < threshold;
}
