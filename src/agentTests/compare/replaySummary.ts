// A replay of real traffic in a few sentences, for the editor's notifications and a promotion's confirmation: the
// counts, what stopped it, the conversations it could not replay (and what to do), and the file a group's cases go
// to. The same words in every place that says them; the full report is replayMarkdown's.
import { UsageError } from '../../core/commandLine';
import { CHANGE_KINDS, type ChangeKind, type ReplayResult } from './replayTraffic';
import { parseTrafficFlags } from './trafficFlags';
import type { TrafficFilters } from './trafficSelection';

/** What is wrong with a line of traffic flags, in words that say what to fix; undefined when it can be sent. */
export function trafficLineProblem(text: string, now: Date = new Date()): string | undefined {
  try {
    parseTrafficFlags(text, now);
    return undefined;
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
}

/** The filters of a line of traffic flags, the source environment added. Throws what trafficLineProblem says. */
export function trafficLineFilters(text: string, source: TrafficFilters['source'], now: Date = new Date()) {
  return { ...parseTrafficFlags(text, now), ...(source ? { source } : {}) } satisfies TrafficFilters;
}

/** The groups with conversations in them, each with its count: `answer changed 12, handoff changed 1`. */
export function changedGroups(r: ReplayResult): string {
  const parts = CHANGE_KINDS.filter((k) => r.groups[k].length > 0).map((k) => `${k} ${r.groups[k].length}`);
  return parts.join(', ');
}

/** One sentence of what a replay found. */
export function replaySummary(r: ReplayResult, labels: { source: string; candidate: string }): string {
  const n = r.counts;
  const groups = changedGroups(r);
  const parts = [
    `${n.unchanged} unchanged`,
    `${n.changed} changed${groups ? ` (${groups})` : ''}`,
    `${n.failed} failed`,
    ...(n.notReplayed > 0 ? [`${n.notReplayed} not replayed`] : []),
    ...(n.notSent > 0 ? [`${n.notSent} not sent`] : []),
  ];
  const stop = r.cancelled ? ' Cancelled: what finished is kept.' : '';
  return `Replayed ${n.replayed} of ${n.selected} conversations of ${labels.source} against ${labels.candidate}: ${parts.join(', ')}.${stop}`;
}

/** What a person should know beyond the counts, each with what to do; the replay's results are kept either way. */
export function replayNotes(r: ReplayResult, labels: { source: string; candidate: string }): string[] {
  const notes: string[] = [];
  if (r.unreachable)
    notes.push(
      `The replay stopped: ${r.unreachable}. ${r.conversations.length} of ${r.counts.selected} conversations finished and are kept in the report. Check that ${labels.candidate} is deployed and that its Chat key and connector token are set (Set Keys), then replay again.`,
    );
  const hidden = r.notReplayedReasons.filter((x) => /transcript visibility is off/.test(x.reason));
  const hiddenCount = hidden.reduce((n, x) => n + x.count, 0);
  if (hiddenCount > 0)
    notes.push(
      `${hiddenCount} conversation(s) of ${labels.source} were not replayed: their records list no turns (transcript visibility is off for the project, so the Conversations API gives no user lines). Turn transcript visibility on in the project's settings for conversations recorded from then on, or pick other conversations.`,
    );
  const silent = r.notReplayedReasons.filter((x) => !/transcript visibility is off/.test(x.reason));
  const silentCount = silent.reduce((n, x) => n + x.count, 0);
  if (silentCount > 0)
    notes.push(
      `${silentCount} conversation(s) were not replayed: ${silent.map((x) => x.reason).join('; ')}. They are counted in the report; narrow the filters (--search, --channel) to conversations where the caller spoke.`,
    );
  return notes;
}

/** The name of the file a group's cases are written to, other than the names taken: `replayed-answer-changed.yaml`. */
export function groupCasesFileName(group: ChangeKind | 'unchanged', taken: readonly string[]): string {
  const base = `replayed-${group.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
  const lower = new Set(taken.map((t) => t.toLowerCase()));
  for (let i = 1; ; i++) {
    const name = `${base}${i === 1 ? '' : `-${i}`}.yaml`;
    if (!lower.has(name)) return name;
  }
}
