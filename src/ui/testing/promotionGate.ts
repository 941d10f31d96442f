import * as vscode from 'vscode';
import { LOCAL_PROFILE_ID } from '../../client/profile';
import type { Environment } from '../../contract/common';
import { prompts } from '../common/prompts';
import type { Log } from '../log';
import type { ConversationTests } from './conversationTests';
import { type ComparisonReports, environmentAfter, openComparisonReport } from './comparisonReports';
import { comparisonSummary, type EditorComparison } from './comparisonRun';
import { type EditorReplay, replaySampleSize, type TrafficReplays } from './trafficReplay';

/** The promotion goes on; with a comparison made before it, whose report is kept with the deployment it makes. */
export interface PromotionGo {
  readonly comparison?: EditorComparison;
  /** The traffic sample replayed with the comparison, when the person asked for one. */
  readonly traffic?: EditorReplay | { readonly nothingFound: string } | { readonly failed: string };
  /** Keeps the comparison's report with the deployment the promotion made (nothing when there is none). */
  keep(agentId: string, deploymentId: string): Promise<void>;
}

const GO_PLAIN: PromotionGo = { keep: async () => undefined };

/** Asks for the reason to go on past a blocking result; undefined (blocked) when none is typed. */
async function reasonPast(title: string): Promise<string | undefined> {
  const reason = await prompts.input({
    title,
    prompt: vscode.l10n.t(
      'The promotion is blocked. To promote anyway, type the reason (it is kept in the log with the result); Escape cancels.',
    ),
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type a reason, or press Escape to cancel.')),
  });
  return reason?.trim() || undefined;
}

/**
 * Before a promotion: when the workspace has conversation tests of the agent tagged with the source environment,
 * offers to run them against it, or to compare it with the environment the promotion goes to (what callers get
 * there now). A failing run, or a significant regression, blocks the promotion unless the person types a reason,
 * which is logged with the result. Resolves undefined when the promotion stops.
 */
export async function promotionGate(
  tests: ConversationTests,
  log: Log,
  reports: ComparisonReports | undefined,
  replays: TrafficReplays | undefined,
  agentId: string,
  agentName: string,
  environment: string,
  to: string | undefined = environmentAfter(environment),
): Promise<PromotionGo | undefined> {
  const items = await tests.casesTagged(agentId, environment);
  if (items.length === 0) return GO_PLAIN;
  const run = vscode.l10n.t('Run Tests');
  const compare = to ? vscode.l10n.t('Compare with {0}', to) : undefined;
  const compareTraffic = to && replays ? vscode.l10n.t('Compare with {0} and a Traffic Sample', to) : undefined;
  const skip = vscode.l10n.t('Promote Without Testing');
  const answer = await prompts.ask(
    compare
      ? vscode.l10n.t(
          '{0} has {1} conversation tests tagged {2}. Run them against {2}, or compare {2} with {3} (what callers get there now), before promoting?',
          agentName,
          items.length,
          environment,
          to ?? '',
        )
      : vscode.l10n.t(
          '{0} has {1} conversation tests tagged {2}. Run them against {2} before promoting?',
          agentName,
          items.length,
          environment,
        ),
    {
      detail: compare
        ? vscode.l10n.t(
            'Each case is a real conversation with the agent. A comparison runs each case several times on both environments (setting agentWorkbench.tests.compareRepeat) and says what the promotion changes, and whether it is more than chance. With a traffic sample, {0} conversations of {1} (setting agentWorkbench.tests.replaySample) are also replayed against {2}, and what differs is grouped.',
            replaySampleSize(),
            to ?? '',
            environment,
          )
        : vscode.l10n.t('Each case is a real conversation with the agent in {0}.', environment),
    },
    run,
    ...(compare ? [compare] : []),
    ...(compareTraffic ? [compareTraffic] : []),
    skip,
  );
  if (answer === undefined) return undefined;
  if (answer === skip) {
    log.info(`Promoting ${agentName} from ${environment} without running its ${items.length} conversation tests.`);
    return GO_PLAIN;
  }
  if ((answer === compare || answer === compareTraffic) && to) {
    const sample = answer === compareTraffic && replays ? { replays, agentId } : undefined;
    return compareFirst(tests, log, reports, items, agentName, environment, to, sample);
  }
  const local = tests.connection.profiles.active?.id === LOCAL_PROFILE_ID;
  const record = await tests.runFor(items, environment, local);
  const failing = [...record.items.values()].filter(
    (i) => items.some((c) => c.id === i.id) && (i.state === 'failed' || i.state === 'errored'),
  );
  // A case failed only by advisory criteria (their judge agrees too rarely with the labels) is reported, not blocking.
  const advisory = failing.filter((i) => i.advisoryOnly);
  const failed = failing.filter((i) => !i.advisoryOnly);
  // The summary line: the spend of a judged run's models may follow it.
  const lines = record.output.trim().split('\n');
  const summary = lines.findLast((l) => /^\d+ passed, \d+ failed/.test(l)) ?? lines.at(-1) ?? '';
  if (advisory.length > 0) {
    const note = vscode.l10n.t(
      '{0} of {1} conversation tests failed on advisory criteria only (their judge agrees too rarely with its labels): reported, not blocking the promotion.',
      advisory.length,
      items.length,
    );
    log.warn(`Promoting ${agentName} from ${environment}: ${note}`);
    void prompts.warn(note);
  }
  if (failed.length === 0) {
    log.info(`Conversation tests of ${agentName} tagged ${environment} before promoting: ${summary}`);
    return GO_PLAIN;
  }
  const reason = await reasonPast(vscode.l10n.t('{0} of {1} conversation tests failed', failed.length, items.length));
  if (!reason) {
    log.warn(`Promotion of ${agentName} from ${environment} blocked by failing conversation tests: ${summary}`);
    return undefined;
  }
  log.warn(
    `Promoting ${agentName} from ${environment} although conversation tests failed (${summary}). Reason given: ${reason}`,
  );
  return GO_PLAIN;
}

/**
 * Compares the tagged cases on the source (the candidate) and the target (the base), shows the summary with the
 * full report a click away, and blocks on a significant regression unless a reason is typed.
 */
async function compareFirst(
  tests: ConversationTests,
  log: Log,
  reports: ComparisonReports | undefined,
  items: vscode.TestItem[],
  agentName: string,
  from: string,
  to: string,
  sample?: { readonly replays: TrafficReplays; readonly agentId: string },
): Promise<PromotionGo | undefined> {
  // The traffic of the target (what its callers had) replayed against the source: what the promotion would change.
  // Read before the comparison runs, whose own conversations with the target are not its callers'.
  let traffic: PromotionGo['traffic'];
  if (sample) {
    try {
      traffic = await sample.replays.replay({
        source: to as Environment,
        candidate: from as Environment,
        filters: { source: to as Environment, sample: true, count: replaySampleSize() },
        agentId: sample.agentId,
        title: vscode.l10n.t('Replaying a traffic sample of {0} against {1} for {2}…', to, from, agentName),
      });
    } catch (err) {
      // The comparison goes on: the sample's failure is said in the confirmation, with what to do.
      traffic = { failed: err instanceof Error ? err.message : String(err) };
    }
    if (!traffic) {
      log.warn(
        `Promotion of ${agentName} from ${from}: the traffic sample of ${to} was not replayed; nothing was promoted.`,
      );
      return undefined;
    }
  }
  const suite = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Comparing {0} with {1} for {2}…', from, to, agentName),
      cancellable: true,
    },
    (_progress, token) => tests.compare(items, to as Environment, from as Environment, token),
  );
  if (!suite) {
    log.warn(`Promotion of ${agentName} from ${from}: the comparison with ${to} did not run; nothing was promoted.`);
    return undefined;
  }
  const trafficLine = !traffic
    ? undefined
    : 'nothingFound' in traffic
      ? vscode.l10n.t('Traffic sample: {0}', traffic.nothingFound)
      : 'failed' in traffic
        ? vscode.l10n.t('Traffic sample: not replayed: {0}', traffic.failed)
        : vscode.l10n.t('Traffic sample: {0}', [traffic.summary, ...traffic.notes].join(' '));
  const compared: EditorComparison =
    traffic && 'result' in traffic ? { ...suite, markdown: `${suite.markdown}\n${traffic.markdown}` } : suite;
  const summary = [comparisonSummary(compared.suite), ...(trafficLine ? [trafficLine] : [])].join('\n\n');
  const regressions = compared.suite.counts['significant regression'];
  const regressed = regressions > 0 || compared.suite.verdict.verdict === 'significant regression';
  const keep = async (agentId: string, deploymentId: string): Promise<void> => {
    const kept = await reports?.keep(agentId, deploymentId, compared.markdown).catch((err: unknown) => {
      log.warn(`The comparison report could not be kept: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    });
    if (kept) log.info(`Comparison report of ${agentName}, deployment ${deploymentId}: ${kept.fsPath}`);
  };
  const openReport = vscode.l10n.t('Open Report');
  const goOn = vscode.l10n.t('Continue');
  for (;;) {
    const answer = await prompts.ask(
      regressed
        ? vscode.l10n.t('Promoting {0} from {1} to {2} makes it worse for callers.', agentName, from, to)
        : vscode.l10n.t('What promoting {0} from {1} to {2} changes for callers', agentName, from, to),
      { detail: summary },
      ...(regressed ? [] : [goOn]),
      openReport,
      ...(regressed ? [goOn] : []),
    );
    if (answer === openReport) {
      await openComparisonReport(compared.markdown);
      continue;
    }
    if (answer !== goOn) {
      log.warn(`Promotion of ${agentName} from ${from} to ${to} stopped after the comparison: ${summary}`);
      return undefined;
    }
    break;
  }
  if (regressed) {
    const reason = await reasonPast(
      vscode.l10n.t('{0} cases regressed significantly from {1} to {2}', regressions, to, from),
    );
    if (!reason) {
      log.warn(`Promotion of ${agentName} from ${from} to ${to} blocked by a significant regression: ${summary}`);
      return undefined;
    }
    log.warn(
      `Promoting ${agentName} from ${from} to ${to} despite a significant regression (${summary}). Reason given: ${reason}`,
    );
  } else log.info(`Comparison of ${agentName}, ${from} with ${to}, before promoting: ${summary}`);
  return { comparison: compared, ...(traffic ? { traffic } : {}), keep };
}
