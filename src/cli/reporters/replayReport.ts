import { appendFileSync } from 'node:fs';
import { visibleControls } from '../../core/shownText';
import {
  CHANGE_KINDS,
  type ReplayedConversation,
  type ReplayProgress,
  type ReplayResult,
} from '../../agentTests/compare/replayTraffic';
import { xml } from '../../agentTests/junit';
import { colourFor, type Paint, paint } from './colour';
import {
  ids,
  note,
  origin,
  replayMarkdown,
  type ReplayFacts,
  type ReplayLabels,
  seconds,
  turnName,
} from '../../agentTests/compare/replayMarkdown';
import { inlineDiff } from './compareReport';
import { Progress } from './progress';
import { type ReporterName, type ReporterSpec, writeReports } from './runReport';

/** What a replay's records carry, so a reader of the JSON knows which shape it reads. */
export const REPLAY_REPORT_VERSION = 1;

/** The turns that differ, a line each: the answer's words marked, with what the judge said. */
function turnLines(c: ReplayedConversation, colours: Paint): string[] {
  const out: string[] = [];
  for (const change of c.changes) {
    const turn = change.turn !== undefined ? c.turns.find((t) => t.index === change.turn) : undefined;
    if (change.kind === 'answer changed' && turn)
      out.push(`${visibleControls(turnName(turn))}: ${inlineDiff(turn.diff, colours)}${visibleControls(note(turn))}`);
    else out.push(`${change.kind}: ${visibleControls(change.detail)}`);
  }
  return out;
}

/** A conversation as the line reporter prints it; unchanged ones are only counted. */
export function replayedLines(c: ReplayedConversation, colours: Paint): string {
  if (c.status === 'replayed' && c.groups.length === 0) return '';
  const what = visibleControls(`${c.id}${origin(c)}`);
  const reason = visibleControls(c.reason ?? '');
  const head =
    c.status === 'replayed'
      ? `${colours.yellow('~')} ${what}: ${c.groups.join(', ')}`
      : c.status === 'failed'
        ? `${colours.red('✗')} ${what}: failed: ${reason}`
        : `- ${what}: not replayed: ${reason}`;
  const details = c.status === 'replayed' ? turnLines(c, colours).map((l) => `    ${l}`) : [];
  return `${[head, ...details].join('\n')}\n`;
}

function summaryText(r: ReplayResult, labels: ReplayLabels, durationMs: number): string {
  const n = r.counts;
  const lines = [
    `Replayed ${n.replayed} of ${n.selected} conversations of ${labels.source} against ${labels.candidate} in ${seconds(durationMs)}: ${n.unchanged} unchanged, ${n.changed} changed, ${n.failed} failed, ${n.notReplayed} not replayed${n.notSent ? `, ${n.notSent} not sent` : ''}${n.reworded ? `; ${n.reworded} answer(s) reworded and judged the same` : ''}.`,
    ...CHANGE_KINDS.map((k) => `  ${k}: ${r.groups[k].length}${r.groups[k].length ? ` (${ids(r.groups[k])})` : ''}`),
    ...r.notReplayedReasons.map((x) => `  not replayed, ${x.count}: ${x.reason}`),
    ...(r.unreachable ? [`  stopped: ${r.unreachable}; what finished is kept`] : []),
    ...(r.cancelled ? ['  cancelled: what finished is kept'] : []),
  ];
  return `${visibleControls(lines.join('\n'))}\n`;
}

/** The JSON record of a finished conversation. */
export function replayedRecord(c: ReplayedConversation) {
  return {
    type: 'conversation' as const,
    id: c.id,
    status: c.status,
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    ...(c.replayId !== undefined ? { replayId: c.replayId } : {}),
    channel: c.record.channel,
    startedAt: c.record.started_at,
    groups: c.groups,
    changes: c.changes,
    turns: c.turns,
    ...(c.oodFrom ? { oodFrom: c.oodFrom } : {}),
    durationMs: Math.round(c.durationMs),
  };
}

/** The summary record that ends the JSON report. */
export function replaySummaryRecord(
  r: ReplayResult,
  labels: ReplayLabels,
  facts: ReplayFacts,
  durationMs: number,
  ok: boolean,
) {
  return {
    type: 'summary' as const,
    version: REPLAY_REPORT_VERSION,
    source: labels.source,
    candidate: labels.candidate,
    filters: facts.filters,
    scanned: facts.scanned,
    ...r.counts,
    groups: r.groups,
    notReplayedReasons: r.notReplayedReasons,
    ...(r.unreachable !== undefined ? { unreachable: r.unreachable } : {}),
    ...(facts.nothingFound !== undefined ? { nothingFound: facts.nothingFound } : {}),
    ...(facts.savedCases ? { savedCases: facts.savedCases } : {}),
    cancelled: r.cancelled,
    durationMs: Math.round(durationMs),
    ok,
  };
}

/** JUnit: a test case per conversation, failed when it changed, an error when it failed, skipped when not replayed. */
export function replayJunit(r: ReplayResult, labels: ReplayLabels, durationMs: number): string {
  const name = xml(`replay: ${labels.source} against ${labels.candidate}`);
  const cases = r.conversations.map((c) => {
    const attrs = `name="${xml(c.id)}" classname="${xml(`replay.${labels.source}`)}" time="${(c.durationMs / 1000).toFixed(3)}"`;
    const body =
      c.status === 'failed'
        ? `<error message="${xml(c.reason ?? 'failed')}"/>`
        : c.status === 'not replayed'
          ? `<skipped message="${xml(c.reason ?? '')}"/>`
          : c.groups.length > 0
            ? `<failure message="${xml(c.groups.join(', '))}">${xml(turnLines(c, paint(false)).join('\n'))}</failure>`
            : '';
    return `    <testcase ${attrs}>${body}</testcase>`;
  });
  const failures = r.counts.changed;
  const errors = r.counts.failed;
  const skipped = r.counts.notReplayed;
  const head = `tests="${r.conversations.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${(durationMs / 1000).toFixed(3)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" ${head}>`,
    `  <testsuite name="${name}" ${head}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * A replay's reports: the reporter on standard output writes each conversation that changed, failed or was not
 * replayed as it finishes, the others are written to their files at the end; progress goes to standard error, and
 * with GITHUB_STEP_SUMMARY set, the Markdown report is appended to the job's page.
 */
export class ReplayReport {
  private readonly live: ReporterName;
  private readonly colours: Paint;
  private progress: Progress | undefined;

  constructor(
    private readonly specs: readonly ReporterSpec[],
    private readonly labels: ReplayLabels,
    private readonly options: { env: NodeJS.ProcessEnv; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream },
  ) {
    this.live = specs.find((s) => s.file === undefined)?.name ?? 'line';
    this.colours = paint(colourFor(options.stdout, options.env));
  }

  /** Progress on standard error from here on, for this many conversations. */
  started(total: number): void {
    this.progress = new Progress(total, this.options.stderr, this.options.env, 'conversations', true);
  }

  conversationReplayed(c: ReplayedConversation, _progress: ReplayProgress): void {
    this.progress?.clear();
    if (this.live === 'line') this.options.stdout.write(replayedLines(c, this.colours));
    else if (this.live === 'json') this.options.stdout.write(`${JSON.stringify(replayedRecord(c))}\n`);
    this.progress?.finished(c.status === 'failed');
  }

  /** Writes the summary and the files; `ok` is what the exit code says. */
  finish(r: ReplayResult, facts: ReplayFacts, durationMs: number, ok: boolean): void {
    this.progress?.stop();
    const text = (name: ReporterName, live: boolean): string => {
      switch (name) {
        case 'line':
          return live
            ? summaryText(r, this.labels, durationMs)
            : [
                ...r.conversations.map((c) => replayedLines(c, paint(false))),
                summaryText(r, this.labels, durationMs),
              ].join('');
        case 'json': {
          const summary = replaySummaryRecord(r, this.labels, facts, durationMs, ok);
          return live
            ? `${JSON.stringify(summary)}\n`
            : [...r.conversations.map(replayedRecord), summary].map((x) => `${JSON.stringify(x)}\n`).join('');
        }
        case 'junit':
          return replayJunit(r, this.labels, durationMs);
        case 'markdown':
          return replayMarkdown(r, this.labels, facts, durationMs);
      }
    };
    writeReports(this.specs, text, this.options.stdout);
    const stepSummary = this.options.env.GITHUB_STEP_SUMMARY;
    if (stepSummary) appendFileSync(stepSummary, replayMarkdown(r, this.labels, facts, durationMs));
  }
}
