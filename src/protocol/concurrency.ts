import {
  type Guard,
  hasFields,
  isArrayOf,
  isBoolean,
  isNumber,
  isOneOf,
  isOptional,
  isRecord,
  isString,
  isTagged,
} from './envelope';

/**
 * The concurrency chart panel's messages and view models: the maximum number of concurrent
 * conversations per 5-minute window, optionally one series per variant, with the agent's deployments
 * on the time axis. Pure types, guards and checks, shared by the host and the webview.
 */

/** Restated from the contract (the webview bundle carries no zod); a unit test keeps them equal. */
export const CHART_ENVIRONMENTS = ['sandbox', 'pre-release', 'live'] as const;
export type ChartEnvironment = (typeof CHART_ENVIRONMENTS)[number];
export const CHART_INTERVAL_MS = 5 * 60_000;
export const CHART_MAX_RANGE_MS = 7 * 24 * 60 * 60_000;

/** Ranges that end now; `custom` is any start and end at most a week apart. */
export const CHART_PRESETS = {
  '1h': 60 * 60_000,
  '6h': 6 * 60 * 60_000,
  '24h': 24 * 60 * 60_000,
  '3d': 3 * 24 * 60 * 60_000,
  '7d': CHART_MAX_RANGE_MS,
} as const;
export type ChartPreset = keyof typeof CHART_PRESETS;
export const CHART_PRESET_IDS = Object.keys(CHART_PRESETS) as ChartPreset[];

/** What the person asks the chart for. Times are ISO 8601 instants. */
export interface ChartQuery {
  start: string;
  end: string;
  environment: ChartEnvironment;
  /** One series per variant. */
  sliceByVariant: boolean;
  /** Only this variant, by id or by name (as `variantBy` says). */
  variant?: string;
  /** Whether `variant` is an id or a name; a query without it (kept from before) reads a var_… value as an id. */
  variantBy?: 'id' | 'name';
}

/** Whether a query's variant is an id or a name: as the query says, else a var_… value is an id. */
export function variantKind(q: ChartQuery): 'id' | 'name' {
  return q.variantBy ?? (/^var_[A-Za-z0-9_-]+$/.test(q.variant?.trim() ?? '') ? 'id' : 'name');
}

export interface ChartSeries {
  label: string;
  variantId?: string;
  /** One value per time of the view. */
  values: number[];
}

export interface ChartDeployment {
  /** Epoch ms. */
  time: number;
  environment: string;
  version: string;
  label: string;
}

export const CHART_STATES = ['idle', 'loading', 'ready', 'failed'] as const;
export type ChartState = (typeof CHART_STATES)[number];

export interface ChartView {
  state: ChartState;
  title: string;
  /** Whose deployments are marked. */
  agentId?: string;
  query: ChartQuery;
  /** Window starts, epoch ms, ascending. */
  times: number[];
  series: ChartSeries[];
  deployments: ChartDeployment[];
  /** Why nothing is shown, or what to fix. */
  message?: string;
  /** Said beside the chart (deployments that could not be read). */
  note?: string;
}

export type ChartNotification = { type: 'view'; view: ChartView };

/** A deployment's label as drawn over the chart, in CSS pixels of the plot; a marker where no label fits. */
export interface ChartLabelBox {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** No room for the text: a marker whose tooltip (and the deployment list) names it. */
  marker: boolean;
}

/** What the webview drew: the deployment labels' boxes and the colours of the grid and the series. */
export interface ChartLayout {
  labels: ChartLabelBox[];
  grid: string;
  series: string[];
  /** The editor's theme is a High Contrast one. */
  highContrast: boolean;
}

export type ChartCommand =
  | { type: 'query'; query: ChartQuery }
  | { type: 'problem'; message: string }
  /** The webview drew the view of this query (tests and screenshots wait for it). */
  | { type: 'drawn'; points: number }
  /** The webview drew the chart again (a new view, a theme change): what it drew, for tests and screenshots. */
  | { type: 'layout'; layout: ChartLayout };

/** A range as the platform rounds it: the start down and the end up to whole windows of CHART_INTERVAL_MS. */
export function roundedRange(from: number, to: number): { from: number; to: number } {
  return {
    from: Math.floor(from / CHART_INTERVAL_MS) * CHART_INTERVAL_MS,
    to: Math.ceil(to / CHART_INTERVAL_MS) * CHART_INTERVAL_MS,
  };
}

/**
 * A time typed in a field labelled UTC, in epoch ms: a date and time without a zone is UTC, as the label says
 * (Date.parse alone would read it in the computer's time zone). NaN when it is not a date.
 */
export function utcMs(text: string): number {
  const t = text.trim();
  const zoneless = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/i.exec(t);
  return Date.parse(zoneless ? `${zoneless[1]}T${zoneless[2]}Z` : t);
}

/** An instant as the range fields show it: "2026-01-05 09:00" (UTC, seconds only when not zero); other text as it is. */
export function readableUtc(text: string): string {
  const ms = utcMs(text);
  if (!Number.isFinite(ms)) return text;
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(17, 23) === '00.000' ? iso.slice(11, 16) : iso.slice(11, 19)}`;
}

/**
 * What is wrong with a range, in words that say what to fix; undefined when it can be sent. The week is counted
 * as the platform may count it: after the start is rounded down and the end up to whole 5-minute windows.
 */
export function checkRange(start: string, end: string): string | undefined {
  const from = utcMs(start);
  const to = utcMs(end);
  if (!Number.isFinite(from)) return 'The start is not a date and time: give one such as 2026-01-05T09:00Z.';
  if (!Number.isFinite(to)) return 'The end is not a date and time: give one such as 2026-01-05T17:00Z.';
  if (to <= from) return 'The end must be after the start.';
  const rounded = roundedRange(from, to);
  if (rounded.to - rounded.from > CHART_MAX_RANGE_MS)
    return 'The range is longer than a week once rounded to whole 5-minute windows: the platform answers at most 7 days at a time. Move the start or the end closer.';
  return undefined;
}

/** The range of a preset ending at `now` (rounded up to the next 5-minute window). */
export function presetRange(preset: ChartPreset, now: number): { start: string; end: string } {
  const end = Math.ceil(now / CHART_INTERVAL_MS) * CHART_INTERVAL_MS;
  return { start: new Date(end - CHART_PRESETS[preset]).toISOString(), end: new Date(end).toISOString() };
}

// ---- guards ----

const TEXT_MAX = 256;
const isShort = (v: unknown): v is string => typeof v === 'string' && v.length <= TEXT_MAX;

export const isChartQuery: Guard<ChartQuery> = (v): v is ChartQuery =>
  hasFields<ChartQuery>(v, {
    start: isShort,
    end: isShort,
    environment: isOneOf(CHART_ENVIRONMENTS),
    sliceByVariant: isBoolean,
    variant: isOptional(isShort),
    variantBy: isOptional(isOneOf(['id', 'name'] as const)),
  });

const isSeries: Guard<ChartSeries> = (v): v is ChartSeries =>
  hasFields<ChartSeries>(v, { label: isString, variantId: isOptional(isString), values: isArrayOf(isNumber) });

const isDeployment: Guard<ChartDeployment> = (v): v is ChartDeployment =>
  hasFields<ChartDeployment>(v, { time: isNumber, environment: isString, version: isString, label: isString });

export const isChartView: Guard<ChartView> = (v): v is ChartView =>
  hasFields<ChartView>(v, {
    state: isOneOf(CHART_STATES),
    title: isString,
    agentId: isOptional(isString),
    query: isChartQuery,
    times: isArrayOf(isNumber),
    series: isArrayOf(isSeries),
    deployments: isArrayOf(isDeployment),
    message: isOptional(isString),
    note: isOptional(isString),
  });

export const isChartNotification: Guard<ChartNotification> = isTagged<ChartNotification>({
  view: (v): v is ChartNotification => isRecord(v) && isChartView(v.view),
});

export const isChartCommand: Guard<ChartCommand> = isTagged<ChartCommand>({
  query: (v): v is Extract<ChartCommand, { type: 'query' }> => isRecord(v) && isChartQuery(v.query),
  problem: (v): v is Extract<ChartCommand, { type: 'problem' }> =>
    isRecord(v) && isString(v.message) && v.message.length <= 4_096,
  drawn: (v): v is Extract<ChartCommand, { type: 'drawn' }> => isRecord(v) && isNumber(v.points),
  layout: (v): v is Extract<ChartCommand, { type: 'layout' }> => isRecord(v) && isChartLayout(v.layout),
});

const isLabelBox: Guard<ChartLabelBox> = (v): v is ChartLabelBox =>
  hasFields<ChartLabelBox>(v, {
    text: isShort,
    left: isNumber,
    top: isNumber,
    width: isNumber,
    height: isNumber,
    marker: isBoolean,
  });

const isChartLayout: Guard<ChartLayout> = (v): v is ChartLayout =>
  hasFields<ChartLayout>(v, {
    labels: isArrayOf(isLabelBox),
    grid: isShort,
    series: isArrayOf(isShort),
    highContrast: isBoolean,
  });

/** The chart asks nothing of the host. */
export type ChartRequest = { type: never };
export const isChartRequest: Guard<ChartRequest> = (_v): _v is ChartRequest => false;
