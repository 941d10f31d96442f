import * as vscode from 'vscode';
import type { ConcurrencyQueryInput, ConcurrencyReply } from '../../../contract/concurrency';
import { Emitter } from '../../../core/event';
import type { Deployment } from '../../../contract/agents';
import {
  type ChartCommand,
  type ChartDeployment,
  type ChartLayout,
  type ChartQuery,
  type ChartSeries,
  type ChartView,
  CHART_INTERVAL_MS,
  CHART_MAX_RANGE_MS,
  checkRange,
  roundedRange,
  utcMs,
  variantKind,
  isChartCommand,
} from '../../../protocol/concurrency';
import { requireClients, requireModel } from '../../common/commandSupport';
import { failureReport } from '../../common/failure';
import type { Connection } from '../../connection/connection';
import type { Log } from '../../log';
import type { Known } from '../../model/loadable';
import type { ProfileModels } from '../../model/profileModels';
import { ViewPanel } from '../viewPanel';

export interface ChartTarget {
  /** Whose deployments are marked (none without an agent). */
  agentId?: string;
  label: string;
}

/**
 * The concurrency chart: asks the Concurrent Calls API for the range the person chose (checked
 * first: at most a week, end after start), and the agent's deployments for the time axis. Where the platform
 * does not list deployments (an assumed endpoint), the deployments publish, promote and rollback returned here
 * are marked instead, and the panel says so.
 */
export class ConcurrencyPanel extends ViewPanel<ChartView, ChartCommand> {
  private readonly _onDidDraw = this.register(new Emitter<number>());
  /** The webview drew the current view with this many points. */
  readonly onDidDraw = this._onDidDraw.event;
  /** What the webview drew last: the deployment labels' boxes and the colours (read by the extension's tests). */
  layout: ChartLayout | undefined;
  private readonly _onDidLayout = this.register(new Emitter<ChartLayout>());
  readonly onDidLayout = this._onDidLayout.event;
  private abort: AbortController | undefined;
  /** What was last sent to the platform (none when the range was refused before sending). */
  lastSent: ConcurrencyQueryInput | undefined;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly connection: Connection,
    log: Log,
    private readonly target: ChartTarget,
    query: ChartQuery,
    private readonly models: ProfileModels<object>,
  ) {
    super(
      panel,
      extensionUri,
      log,
      {
        state: 'idle',
        title: target.label,
        ...(target.agentId ? { agentId: target.agentId } : {}),
        query,
        times: [],
        series: [],
        deployments: [],
      },
      { app: 'concurrency', name: 'Concurrency chart', isCommand: isChartCommand },
    );
    panel.title = vscode.l10n.t('Concurrency: {0}', target.label);
  }

  protected async onCommand(c: ChartCommand): Promise<void> {
    if (c.type === 'query') await this.show(c.query);
    else if (c.type === 'drawn') this._onDidDraw.fire(c.points);
    else if (c.type === 'layout') {
      this.layout = c.layout;
      this._onDidLayout.fire(c.layout);
    }
  }

  /** Shows the chart of a query; a range the platform would refuse is refused here, saying what to fix. */
  async show(query: ChartQuery): Promise<ChartView> {
    // A new query replaces the one being read, whether it is sent or refused.
    this.abort?.abort();
    const problem = checkRange(query.start, query.end) ?? checkVariant(query.variant);
    if (problem) {
      this.update({
        state: 'failed',
        query,
        message: problem,
        times: [],
        series: [],
        deployments: [],
        note: undefined,
      });
      return this.view;
    }
    const abort = (this.abort = new AbortController());
    this.update({ state: 'loading', query, message: undefined, note: undefined });
    const input = toInput(query);
    try {
      const clients = requireClients(this.connection);
      this.lastSent = input;
      const [reply, deployments] = await Promise.all([
        clients.concurrency.query(input, abort.signal),
        // The deployments the Agents view shows (listed, or kept from the publishes, promotions and rollbacks made
        // here): the model is told of every one.
        this.target.agentId
          ? requireModel(this.models).agents.agent(this.target.agentId).knownDeployments.get()
          : Promise.resolve<Known<Deployment>>({ listed: true, items: [] }),
      ]);
      if (abort.signal.aborted) return this.view;
      const from = utcMs(query.start);
      const to = utcMs(query.end);
      const { times, series } = seriesOf(reply, query.sliceByVariant, { from, to });
      this.update({
        state: 'ready',
        times,
        series,
        deployments: markersOf(deployments.items, from, to),
        message: times.length === 0 ? vscode.l10n.t('No intervals in this range.') : undefined,
        note: deployments.listed
          ? undefined
          : vscode.l10n.t(
              'Deployments cannot be listed ({0}): only those published, promoted or rolled back from this editor are marked.',
              failureReport(vscode.l10n, deployments.failure, false)?.message ?? '',
            ),
      });
    } catch (err) {
      if (abort.signal.aborted) return this.view;
      this.update({
        state: 'failed',
        times: [],
        series: [],
        deployments: [],
        message: failureReport(vscode.l10n, err, false)?.message ?? vscode.l10n.t('Cancelled.'),
      });
    }
    return this.view;
  }

  override dispose(): void {
    this.abort?.abort();
    super.dispose();
  }
}

function checkVariant(variant: string | undefined): string | undefined {
  if (variant !== undefined && variant.trim() === '')
    return vscode.l10n.t('The variant is empty: give its id or name, or leave it out.');
  return undefined;
}

/** The API's query: the variant as an id or a name, as the person said (see variantKind). */
function toInput(q: ChartQuery): ConcurrencyQueryInput {
  const variant = q.variant?.trim();
  return {
    start_time: new Date(utcMs(q.start)).toISOString(),
    end_time: new Date(utcMs(q.end)).toISOString(),
    client_env: q.environment,
    ...(variant ? (variantKind(q) === 'id' ? { variant_id: variant } : { variant_name: variant }) : {}),
    ...(q.sliceByVariant ? { slice_by: 'variant' as const } : {}),
  };
}

/**
 * One value per 5-minute window of the range (rounded as the platform rounds it); sliced, one series per variant
 * in the order they first appear. A window the answer does not list reads 0: the chart draws no line across it.
 */
export function seriesOf(
  reply: ConcurrencyReply,
  sliced: boolean,
  range?: { from: number; to: number },
): { times: number[]; series: ChartSeries[] } {
  const windows = new Set<number>();
  if (range && Number.isFinite(range.from) && Number.isFinite(range.to)) {
    const { from, to } = roundedRange(range.from, range.to);
    // A week at most (checkRange); the bound keeps a range that was not checked from growing without end.
    for (let t = from; t < to && windows.size <= CHART_MAX_RANGE_MS / CHART_INTERVAL_MS; t += CHART_INTERVAL_MS)
      windows.add(t);
  }
  for (const i of reply.intervals) {
    const t = Date.parse(i.time);
    if (Number.isFinite(t)) windows.add(t);
  }
  const sortedTimes = [...windows].sort((a, b) => a - b);
  const position = new Map(sortedTimes.map((t, i) => [t, i]));
  const series = new Map<string, ChartSeries>();
  for (const i of reply.intervals) {
    const key = sliced ? (i.variant_id ?? i.variant_name ?? '') : '';
    let s = series.get(key);
    if (!s) {
      const label = sliced ? i.variant_name || i.variant_id || vscode.l10n.t('No variant') : vscode.l10n.t('All');
      s = { label, ...(sliced && i.variant_id ? { variantId: i.variant_id } : {}), values: sortedTimes.map(() => 0) };
      series.set(key, s);
    }
    const p = position.get(Date.parse(i.time));
    if (p !== undefined) s.values[p] = Math.max(s.values[p]!, i.max_concurrent_conversations);
  }
  return { times: sortedTimes, series: [...series.values()] };
}

function markersOf(deployments: readonly Deployment[], from: number, to: number): ChartDeployment[] {
  return deployments
    .map((d) => ({ d, time: Date.parse(d.createdAt) }))
    .filter(({ time }) => Number.isFinite(time) && time >= from && time <= to)
    .sort((a, b) => a.time - b.time)
    .map(({ d, time }) => ({
      time,
      environment: d.environment,
      version: d.version,
      label: vscode.l10n.t('Version {0} to {1}', d.version, d.environment),
    }));
}
