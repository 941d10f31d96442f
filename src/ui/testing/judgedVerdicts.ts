import * as vscode from 'vscode';
import type { TestCase } from '../../agentTests/format';
import type { CriterionResult, Verdict } from '../../agentTests/model/types';
import { DisposableStore } from '../../core/disposable';
import { runCommand } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { Command } from '../ids';

/** A judged verdict of the last run of a case, as the person may label it. */
export interface JudgedVerdict {
  readonly file: vscode.Uri;
  readonly testCase: TestCase;
  readonly criterion: CriterionResult;
  readonly verdict: Verdict;
  readonly reason: string;
  /** The run's conversation, where its quotes are. */
  readonly transcript?: string;
  /** The conversation judged, on the platform: kept with the label. */
  readonly conversationId?: string;
}

/** What labelling a verdict wrote: the file it is in, and what the labels of the criterion say now. */
export interface LabelWritten {
  readonly labelsFile: vscode.Uri;
  readonly labels: number;
  readonly agreement: number;
}

/** Writes one label beside the test file (labels.ts of the conversation tests' bundle). */
export type WriteLabel = (verdict: JudgedVerdict, right: boolean) => Promise<LabelWritten>;

/**
 * The judged verdicts of each case's last run, for the label commands: from a verdict's message in the Testing view
 * (its context menu, `testing/message/context`), or from a case's item (a pick of its verdicts).
 */
export class JudgedVerdicts {
  private readonly byCase = new Map<string, JudgedVerdict[]>();
  private readonly runOf = new Map<string, number>();
  private run = 0;

  /** A new run began: each case's verdicts are replaced by those of this run as it reports them. */
  startRun(): void {
    this.run++;
  }

  add(
    caseItem: vscode.TestItem,
    testCase: TestCase,
    c: CriterionResult,
    transcript: string | undefined,
    conversationId?: string,
  ): void {
    if (c.outcome.kind !== 'judged' || !caseItem.uri) return;
    if (this.runOf.get(caseItem.id) !== this.run) {
      this.runOf.set(caseItem.id, this.run);
      this.byCase.set(caseItem.id, []);
    }
    this.byCase.get(caseItem.id)?.push({
      file: caseItem.uri,
      testCase,
      criterion: c,
      verdict: c.outcome.verdict,
      reason: c.outcome.reason,
      ...(transcript !== undefined ? { transcript } : {}),
      ...(conversationId !== undefined ? { conversationId } : {}),
    });
  }

  /** The verdicts of a case item's last run (a turn's item: those of its turn). */
  of(item: vscode.TestItem): JudgedVerdict[] {
    const own = this.byCase.get(item.id);
    if (own) return own;
    const parent = item.parent && this.byCase.get(item.parent.id);
    if (!parent || !item.range) return [];
    return parent.filter((v) => v.criterion.scope === 'turn' && item.range?.contains(rangeStart(v.criterion)));
  }

  /** The verdict a Testing view message shows: the one of its item at the message's line with its verdict. */
  ofMessage(item: vscode.TestItem, message: vscode.TestMessage): JudgedVerdict | undefined {
    const text = typeof message.message === 'string' ? message.message : message.message.value;
    const line = message.location?.range.start.line;
    const candidates = [...this.of(item), ...(item.parent ? this.of(item.parent) : [])].filter(
      (v) => line === undefined || v.criterion.range.startLine === line,
    );
    return candidates.find((v) => text.includes(`${v.verdict}**`)) ?? candidates[0];
  }
}

function rangeStart(c: CriterionResult): vscode.Position {
  return new vscode.Position(c.range.startLine, c.range.startCharacter);
}

/** What the label commands are given: a message of the Testing view (its context menu), or a test item. */
type LabelArgs = { readonly test: vscode.TestItem; readonly message: vscode.TestMessage } | vscode.TestItem | undefined;

/**
 * The Judge Was Right / Wrong: writes the label of a judged verdict into the labels file beside the test file (for
 * review in git), and says how often the judge of that criterion now agrees with its labels.
 */
export function registerLabelCommands(verdicts: JudgedVerdicts, write: () => WriteLabel): DisposableStore {
  const store = new DisposableStore();
  const label = (right: boolean) => (args: LabelArgs) =>
    runCommand(async () => {
      const verdict = await verdictOf(verdicts, args);
      if (!verdict) return undefined;
      const written = await write()(verdict, right);
      void prompts.info(
        vscode.l10n.t(
          'Labelled the judge {0} on "{1}" in {2}: it agrees with {3}% of its {4} labels.',
          right ? vscode.l10n.t('right') : vscode.l10n.t('wrong'),
          verdict.criterion.text,
          vscode.workspace.asRelativePath(written.labelsFile),
          Math.round(written.agreement * 100),
          written.labels,
        ),
      );
      return written;
    });
  store.add(vscode.commands.registerCommand(Command.labelVerdictRight, label(true)));
  store.add(vscode.commands.registerCommand(Command.labelVerdictWrong, label(false)));
  return store;
}

async function verdictOf(verdicts: JudgedVerdicts, args: LabelArgs): Promise<JudgedVerdict | undefined> {
  if (args && 'message' in args) {
    const found = verdicts.ofMessage(args.test, args.message);
    if (!found) void prompts.warn(vscode.l10n.t('This verdict is no longer kept: run the test again to label it.'));
    return found;
  }
  const all = args ? verdicts.of(args) : [];
  if (all.length === 0) {
    void prompts.warn(vscode.l10n.t('No judged verdict to label: run a judged test first, then label its verdicts.'));
    return undefined;
  }
  if (all.length === 1) return all[0];
  const picked = await prompts.pick(
    all.map((v) => ({
      label: `${v.verdict}: ${v.criterion.text}`,
      description: v.criterion.scope === 'turn' ? vscode.l10n.t('turn {0}', (v.criterion.turnIndex ?? 0) + 1) : '',
      detail: v.reason,
      v,
    })),
    { title: vscode.l10n.t('Label the judge: which verdict') },
  );
  return picked?.v;
}
