import * as vscode from 'vscode';
import { markdownText, visibleControls } from '../../core/shownText';
import type { TestCase } from '../../agentTests/format';
import type { CheckFailure } from '../../agentTests/checks';
import type { RunModel } from '../../agentTests/judging';
import type { CaseResult, CaseTarget } from '../../agentTests/runner';
import type { CriterionResult, ModelSpend, ScenarioStop } from '../../agentTests/model/types';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { prompts } from '../common/prompts';
import { Command } from '../ids';
import { walkthroughStepDone } from '../walkthrough';
import { criterionLine, criterionMessage, criterionState } from './judgedMessages';
import type { JudgedVerdicts } from './judgedVerdicts';
import type { Prepared } from './localSandbox';
import { modelSettings, noModelReason } from './modelSettings';
import type { RunTranscripts } from './runTranscripts';
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
  messages: Array<{ message: string; expected?: string; actual?: string; line?: number; contextValue?: string }>;
  /** Failed by advisory criteria only (the judge agrees too rarely with the labels): the promotion gate goes on. */
  advisoryOnly?: boolean;
}

export interface RunRecord {
  readonly profile: string;
  readonly items: Map<string, ReportedItem>;
  output: string;
  readonly done: Promise<void>;
  /** What the run spent on models, when it had judged cases and a model. */
  spend?: ModelSpend;
}

/** The model of a run's judged criteria and simulated callers: its calls, or why there is none (they are skipped). */
export type { RunModel };

/** What a run of judged cases needs of the editor: the model (after its estimate is confirmed), and where results go. */
export interface JudgedSupport {
  /**
   * The model calls for these judged cases, or why no model is set; `declined` when the person did not confirm the
   * estimate (nothing runs then). Throws why the model cannot be used (the message fails the cases).
   */
  model(
    cases: readonly { readonly testCase: TestCase; readonly uri: vscode.Uri }[],
    output: (text: string) => void,
  ): Promise<RunModel | 'declined'>;
  readonly transcripts: RunTranscripts;
  readonly verdicts: JudgedVerdicts;
}

interface Selected {
  readonly caseItem: vscode.TestItem;
  readonly testCase: TestCase;
}

/** The cases a request names: a file brings its cases, a turn its case; excluded items are left out. */
export function selectedCases(
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

/**
 * How a run tells the Testing view and its record (which the extension's tests read) what happened: each item's
 * state with its messages, and the run's output.
 */
export function runReporter(
  run: vscode.TestRun,
  record: RunRecord,
): { report: Report; output: (text: string, item?: vscode.TestItem) => void } {
  const report: Report = (item, state, messages = [], advisoryOnly) => {
    record.items.set(item.id, {
      id: item.id,
      state,
      ...(advisoryOnly ? { advisoryOnly } : {}),
      messages: messages.map((m) => ({
        message: typeof m.message === 'string' ? m.message : m.message.value,
        ...(m.expectedOutput !== undefined ? { expected: m.expectedOutput } : {}),
        ...(m.actualOutput !== undefined ? { actual: m.actualOutput } : {}),
        ...(m.location ? { line: m.location.range.start.line } : {}),
        ...(m.contextValue !== undefined ? { contextValue: m.contextValue } : {}),
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
    // The output is a terminal: an answer's escape sequences (colours, a cleared screen, a link, a title) are shown
    // as their code, never obeyed.
    run.appendOutput(visibleControls(text).replace(/\r\n|\r|\n/g, '\r\n'), undefined, item);
  };
  return { report, output };
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
  judged?: JudgedSupport;
}): Promise<void> {
  const { controller, data, request, token, target, record } = opts;
  const { cases, brokenFiles } = selectedCases(controller, request, data);
  opts.judged?.verdicts.startRun();
  const run = controller.createTestRun(request, target.label, true);
  const { report, output } = runReporter(run, record);
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
    // The estimate and its confirmation come before anything is pushed or sent: a declined run does nothing.
    let model: RunModel | undefined;
    let advisory = (result: CaseResult): CaseResult => result;
    const judgedCases = cases.flatMap((c) =>
      c.caseItem.uri && agentTestsRuntime().isJudged(c.testCase) ? [{ testCase: c.testCase, uri: c.caseItem.uri }] : [],
    );
    if (judgedCases.length > 0) {
      try {
        const chosen = opts.judged ? await opts.judged.model(judgedCases, (text) => output(text)) : undefined;
        if (chosen === 'declined') {
          for (const c of cases) report(c.caseItem, 'skipped');
          output(vscode.l10n.t('Not run: the model calls were not confirmed.') + '\n');
          return;
        }
        model = chosen ?? { none: noModelReason() };
        // The labels beside the files: a criterion its judge agrees with too rarely is advisory in this run.
        if (opts.judged) {
          const files = new Map(judgedCases.map((c) => [c.testCase.file, c.uri.fsPath]));
          const read = await agentTestsRuntime().readRunLabels([...files.values()]);
          const threshold = modelSettings().agreementThreshold;
          advisory = (result) => {
            const file = files.get(result.testCase.file);
            return file === undefined ? result : agentTestsRuntime().withAdvisory(result, read.get(file), threshold);
          };
        }
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        for (const c of cases) report(c.caseItem, 'errored', [new vscode.TestMessage(message)]);
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
          ...(model ? { model } : {}),
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
            caseFinished: (finished) => {
              const result = advisory(finished);
              for (const r of result.runs) if (r.conversationId) opts.made?.(r.conversationId);
              reportCase(result, byCase.get(result.testCase)!, report, output, target.environment, opts.judged);
            },
          },
        },
      );
      output(`${runtime.summaryLine(results)}\n`);
      if (model && 'calls' in model) {
        const spend = model.calls.spent();
        record.spend = spend;
        output(`${spendLine(model.calls.modelId, spend)}\n`);
      } else if (model) notifyNoModel(model.none);
    } finally {
      cancelled.dispose();
      if (model && 'calls' in model)
        await model.calls
          .flush()
          .catch((err: unknown) =>
            output(
              vscode.l10n.t(
                'The cassettes could not be written: {0}',
                err instanceof Error ? err.message : String(err),
              ) + '\n',
            ),
          );
    }
  } finally {
    run.end();
  }
}

/** A case's result on its item and its turns' items, with each failing check at its turn's line. */
function reportCase(
  result: CaseResult,
  caseItem: vscode.TestItem,
  report: Report,
  output: (text: string, item?: vscode.TestItem) => void,
  environment: string,
  judged: JudgedSupport | undefined,
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
  const skippedCriteria: CriterionResult[] = [];
  const advisoryMessages = new Set<vscode.TestMessage>();
  let blocking = 0;
  const erroredMessages = new Set<vscode.TestMessage>();
  const links = new Set<vscode.TestMessage>();
  for (const run of result.runs) {
    // A repeated case's messages name it: each is read out on its own, away from the case's row.
    const prefix = many ? vscode.l10n.t('{0}, run {1} of {2}: ', name, run.attempt, result.runs.length) : '';
    for (const turn of run.turns)
      for (const f of turn.failures) {
        const m = checkMessage(`${prefix}${f.message}${runtime.failureNote(turn)}`, f);
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
    // Each criterion its own message, at its line and on its turn's item; the quotes open the run's conversation.
    const { criteria, conversation, stop } = run;
    const transcript =
      judged && conversation.length > 0
        ? judged.transcripts.keep(`${result.testCase.file} › ${title}`, conversation)
        : undefined;
    for (const c of criteria) {
      output(`${criterionLine(c)}\n`, caseItem);
      const state = criterionState(c);
      if (state === 'skipped') skippedCriteria.push(c);
      if (c.outcome.kind === 'judged')
        judged?.verdicts.add(caseItem, result.testCase, c, transcript, run.conversationId);
      if (state === 'passed' || state === 'skipped') continue;
      const m = criterionMessage(c, uri, transcript, prefix);
      if (c.advisory) advisoryMessages.add(m);
      else blocking++;
      if (state === 'errored') erroredMessages.add(m);
      if (c.scope === 'turn' && c.turnIndex !== undefined)
        turnMessages.set(c.turnIndex, [...(turnMessages.get(c.turnIndex) ?? []), m]);
      caseMessages.push(m);
    }
    // Each failed record check a message of its own, at its line and on its turn's item.
    for (const f of runtime.recordFindings(result, run)) {
      const m = new vscode.TestMessage(`${prefix}${f.message}`);
      m.location = new vscode.Location(uri, toRange(f.range));
      if (f.turnIndex !== undefined) turnMessages.set(f.turnIndex, [...(turnMessages.get(f.turnIndex) ?? []), m]);
      caseMessages.push(m);
    }
    if (stop)
      output(
        vscode.l10n.t(
          '  the simulated conversation stopped: {0}{1}',
          stopText(stop),
          run.stopReason ? ` (${run.stopReason})` : '',
        ) + '\n',
        caseItem,
      );
    if (!run.passed && !run.cancelled && run.conversationId) {
      const link = conversationLink(run.conversationId, result.testCase.agent, environment);
      output(vscode.l10n.t('Open it: Agent Workbench: Open Conversation {0}', run.conversationId) + '\n', caseItem);
      const m = new vscode.TestMessage(link);
      m.location = new vscode.Location(uri, caseItem.range ?? new vscode.Range(0, 0, 0, 0));
      links.add(m);
      caseMessages.push(m);
    }
  }
  // The record checks (passed, failed, not checked and why) and the latency over the runs, then the case's line.
  for (const line of runtime.recordLines(result)) output(`${line}\n`, caseItem);
  for (const f of runtime.recordFindings(result, undefined)) {
    const m = new vscode.TestMessage(f.message);
    m.location = new vscode.Location(uri, toRange(f.range));
    if (f.turnIndex !== undefined) turnMessages.set(f.turnIndex, [...(turnMessages.get(f.turnIndex) ?? []), m]);
    caseMessages.push(m);
  }
  output(`${runtime.caseLine(result)}\n`, caseItem);
  if (result.outcome === 'passed' || result.outcome === 'failed') walkthroughStepDone('test');
  if (result.outcome === 'skipped' || result.outcome === 'cancelled') {
    if (result.skipReason) output(vscode.l10n.t('Skipped: {0}', result.skipReason) + '\n', caseItem);
    report(caseItem, 'skipped');
    return;
  }
  const notJudged = (index?: number) =>
    skippedCriteria.some((c) => index === undefined || (c.scope === 'turn' && c.turnIndex === index));
  for (const [index, item] of turnItems.entries()) {
    const messages = turnMessages.get(index);
    if (messages) report(item, messages.every((m) => erroredMessages.has(m)) ? 'errored' : 'failed', messages);
    // A turn whose judged criteria were not run is never shown passed, whatever its other checks said.
    else if (notJudged(index)) report(item, 'skipped');
    else if (result.runs.some((r) => r.turns.some((t) => t.index === index))) report(item, 'passed');
  }
  if (skippedCriteria.length > 0) {
    const reasons = [...new Set(skippedCriteria.map((c) => (c.outcome.kind === 'skipped' ? c.outcome.reason : '')))];
    output(vscode.l10n.t('Not judged: {0}', reasons.join('; ')) + '\n', caseItem);
  }
  if (result.outcome === 'passed') {
    report(caseItem, notJudged() ? 'skipped' : 'passed');
    return;
  }
  // The links to the failing runs' conversations are beside the findings, not findings of their own.
  const findings = caseMessages.filter((m) => !links.has(m));
  const advisoryOnly = blocking === 0 && advisoryMessages.size > 0 && findings.every((m) => advisoryMessages.has(m));
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
  // A judge error is neither a pass nor a fail: the case is errored when nothing else failed.
  const onlyJudgeErrors =
    result.outcome === 'errored' || (erroredMessages.size > 0 && findings.every((m) => erroredMessages.has(m)));
  report(caseItem, onlyJudgeErrors ? 'errored' : 'failed', caseMessages, advisoryOnly);
}

export type Report = (
  item: vscode.TestItem,
  state: ReportedItem['state'],
  messages?: vscode.TestMessage[],
  advisoryOnly?: boolean,
) => void;

/** Why a simulated conversation stopped, in words. */
function stopText(stop: ScenarioStop): string {
  switch (stop) {
    case 'goal-met':
      return vscode.l10n.t('the goal was judged met');
    case 'agent-ended':
      return vscode.l10n.t('the agent ended the conversation');
    case 'handoff':
      return vscode.l10n.t('the agent handed off');
    case 'turn-budget':
      return vscode.l10n.t('the turn budget was spent');
    case 'caller-gave-up':
      return vscode.l10n.t('the simulated caller gave up');
    case 'error':
      return vscode.l10n.t('an error');
    case 'cancelled':
      return vscode.l10n.t('the run was cancelled');
    case 'cap-reached':
      return vscode.l10n.t('the model cap was reached');
  }
}

/** What a run spent on models, as its output's last line says it. */
export function spendLine(modelId: string, s: ModelSpend): string {
  const cost = s.cost !== undefined ? vscode.l10n.t(', cost {0}', s.cost.toFixed(4)) : vscode.l10n.t(', no price set');
  return vscode.l10n.t(
    'Model {0}: {1} calls ({2} from the cassette), {3} tokens in, {4} out{5}',
    modelId,
    s.calls,
    s.replayed,
    s.inputTokens,
    s.outputTokens,
    cost,
  );
}

/** Said once per run whose judged criteria were skipped for want of a model, with the way to set one. */
function notifyNoModel(reason: string): void {
  const choose = vscode.l10n.t('Choose Model');
  void prompts
    .info(vscode.l10n.t('Judged criteria were not run: {0}.', reason), choose)
    .then((a) => (a === choose ? vscode.commands.executeCommand(Command.chooseTestModel) : undefined));
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
      markdownText(conversationId),
      `command:${Command.openConversation}?${args}`,
    ),
  );
  md.isTrusted = { enabledCommands: [Command.openConversation] };
  return md;
}
