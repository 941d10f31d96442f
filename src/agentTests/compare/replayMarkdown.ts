// A replay of real traffic as Markdown: the counts, each group's conversations with what changed (the differing words
// marked) and the failures; fit for a pull request comment, and what the editor opens after a replay.
import { cell, markdownDiff } from './markdown';
import { markdownCode } from '../../core/shownText';
import {
  CHANGE_KINDS,
  type ChangeKind,
  type ReplayedConversation,
  type ReplayResult,
  type ReplayTurn,
} from './replayTraffic';

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
export const SHOWN = 20;

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const turnName = (t: ReplayTurn) =>
  t.index === 0 ? 'greeting' : `turn ${t.index}${t.user ? ` ("${t.user}")` : ''}`;

export function ids(list: readonly string[], shown = SHOWN): string {
  const head = list.slice(0, shown).join(', ');
  return list.length > shown ? `${head}, and ${list.length - shown} more` : head;
}

/** What a conversation is: where it came from and how long it was. */
export function origin(c: ReplayedConversation): string {
  const r = c.record;
  const parts = [r.channel, r.variant_name || r.variant_id, r.started_at].filter((p) => p);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** What the judge said of a reworded answer, for a report's line. */
export function note(t: ReplayTurn): string {
  const m = t.meaning;
  if (!m) return '';
  return 'verdict' in m ? ` (judged ${m.verdict}: ${m.reason})` : ` (not judged: ${m.notJudged})`;
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
