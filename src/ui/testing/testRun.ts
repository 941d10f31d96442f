import * as vscode from 'vscode';
import type { TestCase } from '../../agentTests/format';
import type { CheckFailure } from '../../agentTests/checks';
import type { CaseResult, CaseTarget } from '../../agentTests/runner';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { prompts } from '../common/prompts';
import { Command } from '../ids';
import { walkthroughStepDone } from '../walkthrough';
import type { Prepared } from './localSandbox';
import { caseDescription, type TestItemData, toRange } from './testItems';

/** Where a run profile sends the cases. */
export interface RunTarget {
  readonly label: string;
  /** The environment its Chat key is for: a case naming another is skipped. */
  readonly environment: string;
  /** Runs against a platform other than the local one make real conversations, and say so first. */
  readonly real: boolean;
  /**
   * Where each case goes: the Chat API that reaches the agent it names, or why it is skipped. Throws why the target
   * cannot be reached at all (the message of an error).
   */
  reach(): Promise<(testCase: TestCase) => Promise<CaseTarget>>;
  /** Asked once before the cases run (the local platform: push and publish first); a thrown error fails them. */
  prepare?(testFiles: readonly vscode.Uri[], output: (text: string) => void): Promise<Prepared>;
}

/** What a run reported of one item, kept for the extension's tests (VS Code offers no reading of results). */
export interface ReportedItem {
  readonly id: string;
  state: 'enqueued' | 'started' | 'passed' | 'failed' | 'skipped' | 'errored';
  messages: Array<{ message: string; expected?: string; actual?: string; line?: number }>;
}

export interface RunRecord {
  readonly profile: string;
  readonly items: Map<string, ReportedItem>;
  output: string;
  readonly done: Promise<void>;
}

interface Selected {
  readonly caseItem: vscode.TestItem;
  readonly testCase: TestCase;
}

/** The cases a request names: a file brings its cases, a turn its case; excluded items are left out. */
function selectedCases(
  controller: vscode.TestController,
  request: vscode.TestRunRequest,
  data: WeakMap<vscode.TestItem, TestItemData>,
): { cases: Selected[]; brokenFiles: vscode.TestItem[] } {
  const excluded = new Set(request.exclude ?? []);
  const cases = new Map<string, Selected>();
  const brokenFiles: vscode.TestItem[] = [];
  const roots: vscode.TestItem[] = [];
  if (request.include) roots.push(...request.include);
  else controller.items.forEach((i) => roots.push(i));
  const addCase = (item: vscode.TestItem) => {
    const d = data.get(item);
    if (d?.kind === 'case' && !excluded.has(item)) cases.set(item.id, { caseItem: item, testCase: d.testCase });
  };
  for (const item of roots) {
    if (excluded.has(item)) continue;
    const d = data.get(item);
    if (d?.kind === 'file') {
      if (item.error) brokenFiles.push(item);
      item.children.forEach(addCase);
    } else if (d?.kind === 'case') addCase(item);
    else if (d?.kind === 'turn' && item.parent) addCase(item.parent);
  }
  return { cases: [...cases.values()], brokenFiles };
}

/** Runs a request's cases against a target and reports each case and turn to the Testing view. */
export async function runConversationTests(opts: {
  controller: vscode.TestController;
  data: WeakMap<vscode.TestItem, TestItemData>;
  request: vscode.TestRunRequest;
  token: vscode.CancellationToken;
  target: RunTarget;
  concurrency: number;
  record: RunRecord;
  /** Told of each conversation the run made. */
  made?: (conversationId: string) => void;
}): Promise<void> {
  const { controller, data, request, token, target, record } = opts;
  const { cases, brokenFiles } = selectedCases(controller, request, data);
  const run = controller.createTestRun(request, target.label, true);
  const report = (item: vscode.TestItem, state: ReportedItem['state'], messages: vscode.TestMessage[] = []) => {
    record.items.set(item.id, {
      id: item.id,
      state,
      messages: messages.map((m) => ({
        message: typeof m.message === 'string' ? m.message : m.message.value,
        ...(m.expectedOutput !== undefined ? { expected: m.expectedOutput } : {}),
        ...(m.actualOutput !== undefined ? { actual: m.actualOutput } : {}),
        ...(m.location ? { line: m.location.range.start.line } : {}),
      })),
    });
    if (state === 'enqueued') run.enqueued(item);
    else if (state === 'started') run.started(item);
    else if (state === 'passed') run.passed(item);
    else if (state === 'skipped') run.skipped(item);
    else if (state === 'errored') run.errored(item, messages);
    else run.failed(item, messages);
  };
  const output = (text: string, item?: vscode.TestItem) => {
    record.output += text;
    run.appendOutput(text.replace(/\r?\n/g, '\r\n'), undefined, item);
  };
  try {
    for (const file of brokenFiles)
      report(file, 'errored', [
        new vscode.TestMessage(typeof file.error === 'string' ? file.error : (file.error?.value ?? '')),
      ]);
    if (cases.length === 0) return;
    if (target.real) {
      const conversations = cases.reduce((n, c) => n + c.testCase.repeat, 0);
      const go = vscode.l10n.t('Run');
      const answer = await prompts.ask(
        conversations === 1
          ? vscode.l10n.t(
              'This run makes 1 real conversation through {0}. It is recorded like any other conversation.',
              target.label,
            )
          : vscode.l10n.t(
              'This run makes {0} real conversations through {1}. They are recorded like any other conversation.',
              conversations,
              target.label,
            ),
        { severity: 'warning' },
        go,
      );
      if (answer !== go) {
        for (const c of cases) report(c.caseItem, 'skipped');
        output(vscode.l10n.t('Not run: real conversations were not confirmed.') + '\n');
        return;
      }
    }
    let reach: (testCase: TestCase) => Promise<CaseTarget>;
    try {
      reach = await target.reach();
      if (target.prepare) {
        const files = [...new Map(cases.map((c) => [c.caseItem.uri!.toString(), c.caseItem.uri!])).values()];
        const prepared = await target.prepare(files, (text) => output(text));
        if (!prepared.go) {
          if (prepared.error) throw new Error(prepared.error);
          for (const c of cases) report(c.caseItem, 'skipped');
          output(vscode.l10n.t('Not run: the question before the run was dismissed.') + '\n');
          return;
        }
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      for (const c of cases) report(c.caseItem, 'errored', [new vscode.TestMessage(message)]);
      return;
    }
    const byCase = new Map(cases.map((c) => [c.testCase, c.caseItem]));
    for (const c of cases) report(c.caseItem, 'enqueued');
    const abort = new AbortController();
    const cancelled = token.onCancellationRequested(() => abort.abort());
    const runtime = agentTestsRuntime();
    try {
      const results = await runtime.runCases(
        cases.map((c) => c.testCase),
        {
          concurrency: opts.concurrency,
          signal: abort.signal,
          target: (testCase): CaseTarget | Promise<CaseTarget> =>
            testCase.environment !== undefined && testCase.environment !== target.environment
              ? {
                  skip: vscode.l10n.t(
                    'the case runs against {0} only; this run is against {1}',
                    testCase.environment,
                    target.environment,
                  ),
                }
              : reach(testCase),
          listener: {
            caseStarted: (testCase) => report(byCase.get(testCase)!, 'started'),
            caseFinished: (result) => {
              for (const r of result.runs) if (r.conversationId) opts.made?.(r.conversationId);
              reportCase(result, byCase.get(result.testCase)!, report, output, target.environment);
            },
          },
        },
      );
      output(`${runtime.summaryLine(results)}\n`);
    } finally {
      cancelled.dispose();
    }
  } finally {
    run.end();
  }
}

/** A case's result on its item and its turns' items, with each failing check at its turn's line. */
function reportCase(
  result: CaseResult,
  caseItem: vscode.TestItem,
  report: (item: vscode.TestItem, state: ReportedItem['state'], messages?: vscode.TestMessage[]) => void,
  output: (text: string, item?: vscode.TestItem) => void,
  environment: string,
): void {
  const runtime = agentTestsRuntime();
  const uri = caseItem.uri!;
  const turnItems: vscode.TestItem[] = [];
  caseItem.children.forEach((t) => turnItems.push(t));
  const many = result.runs.length > 1;
  const name = result.testCase.name;
  const passedRuns = result.runs.filter((r) => r.passed).length;
  // The tree says what only the output said before: the case passed or failed by chance.
  caseItem.description = caseDescription(
    result.testCase,
    result.flaky ? { passed: passedRuns, runs: result.runs.length } : undefined,
  );
  const turnMessages = new Map<number, vscode.TestMessage[]>();
  const caseMessages: vscode.TestMessage[] = [];
  for (const run of result.runs) {
    // A repeated case's messages name it: each is read out on its own, away from the case's row.
    const prefix = many ? vscode.l10n.t('{0}, run {1} of {2}: ', name, run.attempt, result.runs.length) : '';
    for (const turn of run.turns)
      for (const f of turn.failures) {
        const m = checkMessage(`${prefix}${f.message}`, f);
        m.location = new vscode.Location(uri, toRange(turn.range));
        turnMessages.set(turn.index, [...(turnMessages.get(turn.index) ?? []), m]);
        caseMessages.push(m);
      }
    if (run.error) {
      const m = new vscode.TestMessage(`${prefix}${run.error}`);
      m.location = new vscode.Location(uri, caseItem.range ?? new vscode.Range(0, 0, 0, 0));
      caseMessages.push(m);
    }
    const title = many ? vscode.l10n.t('{0}, run {1}', name, run.attempt) : name;
    const id = run.conversationId ? ` (${run.conversationId})` : '';
    output(`── ${title}${id}\n${run.transcript.join('\n')}\n`, caseItem);
    if (!run.passed && !run.cancelled && run.conversationId) {
      const link = conversationLink(run.conversationId, result.testCase.agent, environment);
      output(vscode.l10n.t('Open it: Agent Workbench: Open Conversation {0}', run.conversationId) + '\n', caseItem);
      const m = new vscode.TestMessage(link);
      m.location = new vscode.Location(uri, caseItem.range ?? new vscode.Range(0, 0, 0, 0));
      caseMessages.push(m);
    }
  }
  output(`${runtime.caseLine(result)}\n`, caseItem);
  if (result.outcome === 'passed' || result.outcome === 'failed') walkthroughStepDone('test');
  if (result.outcome === 'skipped' || result.outcome === 'cancelled') {
    if (result.skipReason) output(vscode.l10n.t('Skipped: {0}', result.skipReason) + '\n', caseItem);
    report(caseItem, 'skipped');
    return;
  }
  for (const [index, item] of turnItems.entries()) {
    const messages = turnMessages.get(index);
    if (messages) report(item, 'failed', messages);
    else if (result.runs.some((r) => r.turns.some((t) => t.index === index))) report(item, 'passed');
  }
  if (result.outcome === 'passed') {
    report(caseItem, 'passed');
    return;
  }
  if (many) {
    const rate = Math.round(result.testCase.requiredPassRate * 100);
    caseMessages.unshift(
      new vscode.TestMessage(
        result.flaky
          ? vscode.l10n.t(
              '{0} is flaky: {1} of {2} runs passed; {3}% must pass.',
              name,
              passedRuns,
              result.runs.length,
              rate,
            )
          : vscode.l10n.t('{0}: {1} of {2} runs passed; {3}% must pass.', name, passedRuns, result.runs.length, rate),
      ),
    );
  }
  report(caseItem, 'failed', caseMessages);
}

/**
 * A failed check as the Testing view shows it: a diff where there is an expected text to set beside the answer (the
 * recorded answer when it differs, the handoff or end wanted); else the check that failed, with the answer.
 */
function checkMessage(message: string, f: CheckFailure): vscode.TestMessage {
  if (f.comparable) return vscode.TestMessage.diff(message, f.expected, f.actual);
  return new vscode.TestMessage(vscode.l10n.t('{0}\n\nThe answer: {1}', message, f.actual));
}

/**
 * A failing run's conversation, a link that opens it in the transcript viewer: a Chat API conversation is recorded
 * under its `conversation_id` (docs/api-assumptions.md); the chat playground cannot take up a conversation already
 * made, so the transcript viewer is where it is read.
 */
function conversationLink(
  conversationId: string,
  agentId: string | undefined,
  environment: string,
): vscode.MarkdownString {
  const args = encodeURIComponent(
    JSON.stringify({ conversationId, environment, ...(agentId !== undefined ? { agentId } : {}) }),
  );
  const md = new vscode.MarkdownString(
    vscode.l10n.t(
      'Conversation {0}: [open it in the transcript viewer]({1})',
      conversationId,
      `command:${Command.openConversation}?${args}`,
    ),
  );
  md.isTrusted = { enabledCommands: [Command.openConversation] };
  return md;
}
