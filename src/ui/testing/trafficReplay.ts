import { setMaxListeners } from 'node:events';
import * as vscode from 'vscode';
import type { ReplayFacts } from '../../agentTests/compare/replayMarkdown';
import type { ReplayProgress, ReplayResult } from '../../agentTests/compare/replayTraffic';
import type { TrafficFilters, TrafficLister } from '../../agentTests/compare/trafficSelection';
import { type ConnectionProfile, LOCAL_PROFILE_ID } from '../../client/profile';
import { ENVIRONMENTS, type Environment } from '../../contract/common';
import { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import { agentTestsRuntime } from '../agentTestsRuntime';
import { UserFacingError } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { localProfileReaching } from '../connection/agentReach';
import type { Connection } from '../connection/connection';
import { Command, ContextKey } from '../ids';
import type { ProfileModels } from '../model/profileModels';
import type { TestRunConversations } from '../model/testRunConversations';
import { TESTS_SECTION } from '../testSettings';
import { comparisonSide } from './compareSides';
import { openComparisonReport } from './comparisonReports';

/** A replay of real traffic made in the editor, with its report. */
export interface EditorReplay {
  /** Unique among the replays of this editor: the Replay Results view's rows name it. */
  readonly id: string;
  readonly result: ReplayResult;
  readonly labels: { readonly source: string; readonly candidate: string };
  readonly environments: { readonly source: Environment; readonly candidate: Environment };
  /** The agent whose traffic was replayed, when known (an Agents view row, a promotion). */
  readonly agentId?: string;
  readonly facts: ReplayFacts;
  readonly markdown: string;
  /** replaySummary's sentence, and replayNotes': what to know and do beyond the counts. */
  readonly summary: string;
  readonly notes: readonly string[];
  /** Where the report is kept in the workspace (undefined without a folder open). */
  readonly uri?: vscode.Uri;
  readonly finishedAt: Date;
}

/** What a replay is asked: whose traffic, against what, and which conversations. */
export interface ReplayRequest {
  readonly source: Environment;
  readonly candidate: Environment;
  readonly filters: TrafficFilters;
  readonly agentId?: string;
  /** A title for the notification; "Replaying traffic of <source> against <candidate>" when not given. */
  readonly title?: string;
  /** Open the report in the Markdown preview when done (the command does; a promotion shows its confirmation). */
  readonly open?: boolean;
}

/** Nothing was replayed: the filters found nothing (what to change), or the person stopped before it began. */
export type ReplayOutcome = EditorReplay | { readonly nothingFound: string } | undefined;

/** Where replay reports are kept in a workspace folder, reviewable in git like comparison reports. */
export const REPLAYS_FOLDER = '.agent-workbench/replays';
/** The last filter line typed, per workspace. */
const LINE_KEY = 'agentWorkbench.replay.trafficLine';
/** The replays the Replay Results view lists, at most. */
const KEPT = 10;

/** A filter line a person starts from: the last week, at most 100 conversations. */
export const DEFAULT_TRAFFIC_LINE = '--since 7d --limit 100';

/** The size of a promotion's traffic sample (setting agentWorkbench.tests.replaySample). */
export function replaySampleSize(): number {
  const n = vscode.workspace.getConfiguration(TESTS_SECTION).get<number>('replaySample', 20);
  return Number.isInteger(n) && n >= 1 ? n : 20;
}

/** The agent (and environment) an Agents view row stands for: an agent, a branch or an environment's deployments. */
export function replayArgOf(arg: unknown): { agentId?: string; environment?: Environment } {
  if (!arg || typeof arg !== 'object') return {};
  const a = arg as {
    agentId?: unknown;
    agent?: { agentId?: unknown };
    agentNode?: { agent?: { agentId?: unknown } };
    group?: { agentNode?: { agent?: { agentId?: unknown } } };
    environment?: unknown;
  };
  const agentId = a.agent?.agentId ?? a.agentNode?.agent?.agentId ?? a.group?.agentNode?.agent?.agentId ?? a.agentId;
  const environment = (ENVIRONMENTS as readonly unknown[]).includes(a.environment)
    ? (a.environment as Environment)
    : undefined;
  return {
    ...(typeof agentId === 'string' ? { agentId } : {}),
    ...(environment ? { environment } : {}),
  };
}

/**
 * Replaying real traffic in the editor: conversations of the source of truth (live by default) picked with the
 * command line's filter words, sent again to the candidate with a cancellable notification's progress, the report
 * kept in the workspace and opened, and the groups listed in the Replay Results view (setReplayResults' tree).
 */
export class TrafficReplays extends Disposable {
  /** The replays made since activation, newest last. */
  readonly replays: EditorReplay[] = [];
  private readonly _onDidChange = this.register(new Emitter<void>());
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidProgress = this.register(new Emitter<ReplayProgress>());
  /** A conversation finished, with the counts so far (the notification says the same). */
  readonly onDidProgress = this._onDidProgress.event;
  private running: vscode.CancellationTokenSource | undefined;
  private made = 0;

  constructor(
    private readonly connection: Connection,
    private readonly models: ProfileModels<object> | undefined,
    /** Where the last filter line is kept (the workspace's state). */
    private readonly workspaceMemory: vscode.Memento | undefined,
    /** Where the profile of another environment's Chat key is remembered (as comparisons do). */
    private readonly sideMemory: vscode.Memento | undefined,
    /** The conversations the replays make, for the conversations list to mark as made by a test run. */
    private readonly testRuns?: TestRunConversations,
  ) {
    super();
    this.register({ dispose: () => this.running?.cancel() });
  }

  /** Cancels the replay running now, as its notification's Cancel does: what finished is kept. */
  cancel(): void {
    this.running?.cancel();
  }

  /** The last filter line typed in this workspace. */
  get lastLine(): string {
    return this.workspaceMemory?.get<string>(LINE_KEY) ?? DEFAULT_TRAFFIC_LINE;
  }

  /**
   * Replay Traffic…: asks the source (live first), the candidate (the environment in use first, or the row's), and a
   * line of filters checked as it is typed, then replays and opens the report.
   */
  async ask(arg?: unknown): Promise<ReplayOutcome> {
    const from = replayArgOf(arg);
    const sides = await askReplaySides(this.connection.profiles.environment, from.environment);
    if (!sides) return undefined;
    const runtime = agentTestsRuntime();
    const line = await prompts.input({
      title: vscode.l10n.t('Replay Traffic: which conversations of {0}', sides.source),
      prompt: vscode.l10n.t(
        'Filters as on the command line: --since 7d, --until T, --channel C, --variant NAME, --handoff, --ood, --search TEXT, --sample N or --limit N',
      ),
      value: this.lastLine,
      validateInput: (v) => runtime.trafficLineProblem(v),
    });
    if (line === undefined) return undefined;
    await this.workspaceMemory?.update(LINE_KEY, line);
    const filters = runtime.trafficLineFilters(line, sides.source);
    const outcome = await this.replay({
      ...sides,
      filters,
      ...(from.agentId ? { agentId: from.agentId } : {}),
      open: true,
    });
    if (outcome && 'nothingFound' in outcome) {
      const change = vscode.l10n.t('Change Filters');
      const answer = await prompts.warn(outcome.nothingFound, change);
      if (answer === change) return this.ask(arg);
    }
    return outcome;
  }

  /**
   * Reads the traffic and replays it against the candidate, with a cancellable notification. A cancel, or a
   * candidate that cannot be reached, keeps what finished: the report says so.
   */
  async replay(request: ReplayRequest): Promise<ReplayOutcome> {
    const { source, candidate } = request;
    const runtime = agentTestsRuntime();
    const traffic = await this.trafficOf(source, request.agentId);
    const side = await comparisonSide(this.connection, this.sideMemory, candidate, this.models);
    const labels = { source: traffic.label, candidate: side.label };
    const own = new vscode.CancellationTokenSource();
    this.running?.cancel();
    this.running = own;
    const started = Date.now();
    try {
      return await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title:
            request.title ?? vscode.l10n.t('Replaying traffic of {0} against {1}', labels.source, labels.candidate),
          cancellable: true,
        },
        async (progress, token): Promise<ReplayOutcome> => {
          const abort = new AbortController();
          const concurrency = vscode.workspace.getConfiguration(TESTS_SECTION).get<number>('concurrency', 4);
          // Every request in flight listens to it (a turn, a record read back): more than Node's warning level of 10.
          setMaxListeners(Math.max(10, concurrency * 4), abort.signal);
          const stops = [
            token.onCancellationRequested(() => abort.abort()),
            own.token.onCancellationRequested(() => abort.abort()),
          ];
          try {
            progress.report({ message: vscode.l10n.t('reading the conversations of {0}…', labels.source) });
            const now = new Date();
            const selection = await runtime.selectTraffic(traffic.lister, request.filters, {
              signal: abort.signal,
              now,
            });
            const filters = runtime.filterWords(request.filters, selection.query);
            if (selection.nothingFound !== undefined) return { nothingFound: selection.nothingFound };
            if (abort.signal.aborted && selection.conversations.length === 0) return undefined;
            const total = selection.conversations.length;
            if (side.real) {
              const go = vscode.l10n.t('Replay');
              const answer = await prompts.ask(
                vscode.l10n.t(
                  'This replay makes up to {0} real conversations on {1}. They are recorded like any other conversation.',
                  total,
                  labels.candidate,
                ),
                { severity: 'warning' },
                go,
              );
              if (answer !== go) return undefined;
            }
            const target = await side.reach();
            progress.report({ message: vscode.l10n.t('0 of {0} conversations, 0 failed', total) });
            const result = await runtime.replayTraffic(selection.conversations, {
              candidate: target,
              ...(request.agentId !== undefined ? { agent: request.agentId } : {}),
              concurrency,
              signal: abort.signal,
              listener: {
                conversationReplayed: (c, p) => {
                  if (c.replayId) this.testRuns?.add(c.replayId);
                  progress.report({
                    increment: 100 / Math.max(1, p.total),
                    message: vscode.l10n.t('{0} of {1} conversations, {2} failed', p.done, p.total, p.failed),
                  });
                  this._onDidProgress.fire(p);
                },
              },
            });
            const facts: ReplayFacts = { filters, scanned: selection.scanned };
            return this.finished(request, labels, result, facts, Date.now() - started);
          } finally {
            for (const s of stops) s.dispose();
          }
        },
      );
    } finally {
      if (this.running === own) this.running = undefined;
      own.dispose();
    }
  }

  /** Keeps the report, remembers the replay for the view, and says what to know; opens the report when asked. */
  private async finished(
    request: ReplayRequest,
    labels: EditorReplay['labels'],
    result: ReplayResult,
    facts: ReplayFacts,
    durationMs: number,
  ): Promise<EditorReplay> {
    const runtime = agentTestsRuntime();
    const markdown = runtime.replayMarkdown(result, labels, facts, durationMs);
    const finishedAt = new Date();
    const uri = await keepReport(markdown, request.source, request.candidate, finishedAt);
    const replay: EditorReplay = {
      id: `replay-${++this.made}`,
      result,
      labels,
      environments: { source: request.source, candidate: request.candidate },
      ...(request.agentId !== undefined ? { agentId: request.agentId } : {}),
      facts,
      markdown,
      summary: runtime.replaySummary(result, labels),
      notes: runtime.replayNotes(result, labels),
      ...(uri ? { uri } : {}),
      finishedAt,
    };
    this.replays.push(replay);
    if (this.replays.length > KEPT) this.replays.shift();
    void vscode.commands.executeCommand('setContext', ContextKey.replayResults, true);
    this._onDidChange.fire();
    if (request.open) {
      await openReplayReport(replay);
      for (const n of replay.notes) void prompts.warn(n);
      void prompts.info(replay.summary);
    }
    return replay;
  }

  /** Forgets the replays listed (their kept reports stay in the workspace). */
  clear(): void {
    this.replays.length = 0;
    void vscode.commands.executeCommand('setContext', ContextKey.replayResults, false);
    this._onDidChange.fire();
  }

  /**
   * The Conversations API of the source: on the local platform, the project serving the agent (started if need be);
   * on a real platform, the active profile's project with its Conversations key (project-scoped: any environment).
   */
  private async trafficOf(
    source: Environment,
    agentId: string | undefined,
  ): Promise<{ lister: TrafficLister; label: string }> {
    const { connection } = this;
    const active = connection.profiles.active;
    if (!active)
      throw new UserFacingError(
        vscode.l10n.t(
          'Choose a connection profile first (Agent Workbench: Switch Connection Profile), or start the local platform.',
        ),
      );
    let profile: ConnectionProfile = active;
    const local = active.id === LOCAL_PROFILE_ID || active.region === 'local';
    if (local) {
      const urls = connection.localAttached
        ? true
        : await vscode.commands.executeCommand<unknown>(Command.startLocalPlatform);
      const localProfile = connection.profiles.get(LOCAL_PROFILE_ID);
      if (!urls || !localProfile)
        throw new UserFacingError(
          vscode.l10n.t('The local platform is not running, so there is no traffic to replay.'),
        );
      profile =
        (agentId !== undefined ? await localProfileReaching(connection, localProfile, { agentId }) : undefined) ??
        localProfile;
    }
    if (!(await connection.vault.get(profile.id, 'conversationsApiKey')))
      throw new UserFacingError(
        vscode.l10n.t(
          'The profile "{0}" has no Conversations API key to read the traffic of {1} with: set its keys (Set Keys) and replay again.',
          profile.name,
          source,
        ),
      );
    return {
      lister: connection.clientsFor(profile).conversations,
      label: local ? vscode.l10n.t('local {0}', source) : vscode.l10n.t('{0} ({1})', profile.name, source),
    };
  }
}

/** Asks whose traffic (live first) and against what (the environment in use first, or the one given). */
export async function askReplaySides(
  inUse: string,
  candidateFirst?: Environment,
): Promise<{ source: Environment; candidate: Environment } | undefined> {
  const items = (first: string | undefined, but?: Environment) =>
    [...ENVIRONMENTS]
      .filter((e) => e !== but)
      .sort((a, b) => (a === first ? -1 : b === first ? 1 : 0))
      .map((e) => ({ label: e, environment: e }));
  const source = await prompts.pick(items('live'), {
    title: vscode.l10n.t('Replay Traffic (1/3)'),
    placeHolder: vscode.l10n.t('The source of truth: the environment whose conversations are replayed'),
  });
  if (!source) return undefined;
  const firstCandidate = candidateFirst && candidateFirst !== source.environment ? candidateFirst : inUse;
  const candidate = await prompts.pick(items(firstCandidate, source.environment), {
    title: vscode.l10n.t('Replay Traffic (2/3)'),
    placeHolder: vscode.l10n.t('The candidate: what the conversations of {0} are replayed against', source.label),
  });
  return candidate && { source: source.environment, candidate: candidate.environment };
}

/** Keeps a report in `.agent-workbench/replays/` of the first workspace folder; undefined without one. */
async function keepReport(
  markdown: string,
  source: string,
  candidate: string,
  at: Date,
): Promise<vscode.Uri | undefined> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) return undefined;
  const stamp = at.toISOString().replace(/[:.]/g, '-').replace(/Z$/, '');
  const uri = vscode.Uri.joinPath(root, REPLAYS_FOLDER, `${stamp}-${source}-against-${candidate}.md`);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(markdown));
  return uri;
}

/** Opens a replay's report rendered: the kept file, or an untitled document when none could be kept. */
export async function openReplayReport(replay: EditorReplay): Promise<void> {
  if (replay.uri) await vscode.commands.executeCommand('markdown.showPreview', replay.uri);
  else await openComparisonReport(replay.markdown);
}
