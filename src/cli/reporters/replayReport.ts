import { appendFileSync } from 'node:fs';
import {
  CHANGE_KINDS,
  type ChangeKind,
  type ReplayedConversation,
  type ReplayProgress,
  type ReplayResult,
  type ReplayTurn,
} from '../../agentTests/compare/replayTraffic';
import { xml } from '../../agentTests/junit';
import { colourFor, type Paint, paint } from './colour';
import { cell, markdownDiff } from '../../agentTests/compare/markdown';
import { markdownCode } from '../../core/shownText';
import { inlineDiff } from './compareReport';
import { Progress } from './progress';
import { type ReporterName, type ReporterSpec, writeReports } from './runReport';

/** What a replay's records carry, so a reader of the JSON knows which shape it reads. */
export const REPLAY_REPORT_VERSION = 1;

export interface ReplayLabels {
  /** The environment the traffic was read from, and what it was replayed against. */
  readonly source: string;
  readonly candidate: string;
}

/** What a report says besides the result: how the traffic was picked, and the cases saved. */
export interface ReplayFacts {
  readonly filters: readonly string[];
  readonly scanned: number;
  readonly nothingFound?: string;
  readonly savedCases?: { readonly file: string; readonly count: number };
}

/** Ids shown per group in the line and Markdown reports before "and N more". */
const SHOWN = 20;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const turnName = (t: ReplayTurn) => (t.index === 0 ? 'greeting' : `turn ${t.index}${t.user ? ` ("${t.user}")` : ''}`);

function ids(list: readonly string[], shown = SHOWN): string {
  const head = list.slice(0, shown).join(', ');
  return list.length > shown ? `${head}, and ${list.length - shown} more` : head;
}

/** What a conversation is: where it came from and how long it was. */
function origin(c: ReplayedConversation): string {
  const r = c.record;
  const parts = [r.channel, r.variant_name || r.variant_id, r.started_at].filter((p) => p);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** The turns that differ, a line each: the answer's words marked, with what the judge said. */
function turnLines(c: ReplayedConversation, colours: Paint): string[] {
  const out: string[] = [];
  for (const change of c.changes) {
    const turn = change.turn !== undefined ? c.turns.find((t) => t.index === change.turn) : undefined;
    if (change.kind === 'answer changed' && turn)
      out.push(`${turnName(turn)}: ${inlineDiff(turn.diff, colours)}${note(turn)}`);
    else out.push(`${change.kind}: ${change.detail}`);
  }
  return out;
}

function note(t: ReplayTurn): string {
  const m = t.meaning;
  if (!m) return '';
  return 'verdict' in m ? ` (judged ${m.verdict}: ${m.reason})` : ` (not judged: ${m.notJudged})`;
}

/** A conversation as the line reporter prints it; unchanged ones are only counted. */
export function replayedLines(c: ReplayedConversation, colours: Paint): string {
  if (c.status === 'replayed' && c.groups.length === 0) return '';
  const head =
    c.status === 'replayed'
      ? `${colours.yellow('~')} ${c.id}${origin(c)}: ${c.groups.join(', ')}`
      : c.status === 'failed'
        ? `${colours.red('✗')} ${c.id}${origin(c)}: failed: ${c.reason ?? ''}`
        : `- ${c.id}${origin(c)}: not replayed: ${c.reason ?? ''}`;
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
  return `${lines.join('\n')}\n`;
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

const ICON: Record<ChangeKind | 'unchanged', string> = {
  'handoff changed': '🔀',
  'ended earlier': '⏹️',
  'ended later': '⏩',
  'out of domain now': '❓',
  'no longer out of domain': '✔️',
  'answer changed': '✏️',
  unchanged: '➖',
};

/** The Markdown report: counts per group, then each group's conversations with what changed. */
export function replayMarkdown(r: ReplayResult, labels: ReplayLabels, facts: ReplayFacts, durationMs: number): string {
  const n = r.counts;
  const icon = n.changed > 0 || n.failed > 0 || r.unreachable ? '⚠️' : '✅';
  const out = [
    `## ${icon} Replay: ${n.selected} conversations of ${cell(labels.source)} against ${cell(labels.candidate)}`,
    '',
    facts.nothingFound
      ? `${cell(facts.nothingFound)}`
      : `Traffic: ${facts.filters.length ? cell(facts.filters.join(', ')) : 'every finished conversation'} (${facts.scanned} read).`,
    '',
    '| Replayed | Unchanged | Changed | Failed | Not replayed | Not sent | Time |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${n.replayed} | ${n.unchanged} | ${n.changed} | ${n.failed} | ${n.notReplayed} | ${n.notSent} | ${seconds(durationMs)} |`,
    '',
    '| | Group | Conversations |',
    '| --- | --- | ---: |',
    ...CHANGE_KINDS.map((k) => `| ${ICON[k]} | ${k} | ${r.groups[k].length} |`),
    '',
  ];
  if (r.unreachable) out.push(`**Stopped:** ${cell(r.unreachable)}; what finished is kept.`, '');
  if (r.cancelled) out.push('**Cancelled:** what finished is kept.', '');
  for (const x of r.notReplayedReasons) out.push(`- Not replayed, ${x.count}: ${cell(x.reason)}`);
  if (r.notReplayedReasons.length) out.push('');
  const byId = new Map(r.conversations.map((c) => [c.id, c]));
  for (const kind of CHANGE_KINDS) {
    const list = r.groups[kind];
    if (list.length === 0) continue;
    out.push(`<details><summary>${ICON[kind]} ${kind}: ${list.length}</summary>`, '');
    for (const id of list.slice(0, SHOWN)) {
      const c = byId.get(id);
      if (!c) continue;
      const lines = c.changes
        .filter((ch) => ch.kind === kind)
        .map((ch) => {
          const turn = ch.turn !== undefined ? c.turns.find((t) => t.index === ch.turn) : undefined;
          return kind === 'answer changed' && turn
            ? `${cell(turnName(turn))}: ${markdownDiff(turn.diff)}${cell(note(turn))}`
            : cell(ch.detail);
        });
      out.push(`- ${markdownCode(id)}${cell(origin(c))}: ${lines.join('; ')}`);
    }
    if (list.length > SHOWN) out.push(`- and ${list.length - SHOWN} more`);
    out.push('', '</details>', '');
  }
  const failed = r.conversations.filter((c) => c.status === 'failed');
  if (failed.length) {
    out.push('### Failed', '');
    for (const c of failed.slice(0, SHOWN)) out.push(`- ${markdownCode(c.id)}: ${cell(c.reason ?? '')}`);
    if (failed.length > SHOWN) out.push(`- and ${failed.length - SHOWN} more`);
    out.push('');
  }
  if (facts.savedCases)
    out.push(
      `${facts.savedCases.count} conversation(s) saved as test cases in ${markdownCode(facts.savedCases.file)}.`,
      '',
    );
  return `${out.join('\n')}\n`;
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
