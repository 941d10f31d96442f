/**
 * Replaying real traffic: recorded conversations of the source of truth sent again, their caller's lines with their
 * variant, attributes and metadata, to a candidate through the Chat API (each as a test case run by the runner's
 * own conversation run, with no checks), and what differs from the original grouped: handoff changed, ended earlier
 * or later, out of domain now (or no longer), answer changed (word by word, and judged for meaning where a model is
 * given). Progress is told per conversation; a cancel or a candidate that cannot be reached keeps what finished.
 */
import { readableDiff, wordDiff, type WordDiffPart } from '../../core/wordDiff';
import type { ConversationRecord } from '../../contract/conversations';
import type { Criterion } from '../format';
import type { RecordedConversation } from '../fromConversation';
import { criterionStatus, judge, RunJudging, type RunModel } from '../judging';
import { runOnce } from '../conversationRun';
import type { ConversationLine } from '../model/types';
import { DEFAULT_RECORD_WAIT, findRecord, type RecordReach, type RecordWait } from '../records/fetch';
import { timingCreates } from '../records/run';
import type { CaseRun, CaseTarget, ChatConversations } from '../results';
import type { SideTarget } from './runComparison';
import { type OriginalTurn, type ReplayPlan, recordedOf, replayedCasesFile, replayPlanOf } from './replayPlan';

/** The groups a replayed conversation can fall in; one conversation may be in several. */
export const CHANGE_KINDS = [
  'handoff changed',
  'ended earlier',
  'ended later',
  'out of domain now',
  'no longer out of domain',
  'answer changed',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** A turn of the replay beside the original's. */
export interface ReplayTurn {
  /** 0 for the greeting, then the caller's lines in order. */
  readonly index: number;
  readonly user?: string;
  /** The original's answer; undefined for a greeting the original did not record. */
  readonly original?: string;
  /** The replay's answer; undefined when the turn was not sent (the conversation ended before it). */
  readonly replayed?: string;
  /** The original against the replay, word by word, or each whole when they share little (empty when either is missing). */
  readonly diff: readonly WordDiffPart[];
  /** The same words, whitespace aside. */
  readonly same: boolean;
  /** For differing words, with a model: whether the answer still means the same. */
  readonly meaning?: { readonly verdict: 'same' | 'changed'; readonly reason: string } | { readonly notJudged: string };
  readonly handoff?: { readonly destination?: string; readonly reason?: string };
  /** The replay's agent ended the conversation with this answer. */
  readonly ended?: boolean;
  /** Out of domain in the original, and in the replay (undefined where it cannot be told). */
  readonly ood?: { readonly original: boolean; readonly replayed?: boolean };
  readonly latencyMs?: number;
}

export interface ReplayChange {
  readonly kind: ChangeKind;
  /** The turn it is seen at, when one. */
  readonly turn?: number;
  readonly detail: string;
}

export type ReplayStatus = 'replayed' | 'failed' | 'not replayed';

export interface ReplayedConversation {
  readonly id: string;
  /** The original record, as the Conversations API gave it. */
  readonly record: ConversationRecord;
  readonly status: ReplayStatus;
  /** Why it failed or was not replayed. */
  readonly reason?: string;
  /** The new conversation's id on the candidate. */
  readonly replayId?: string;
  readonly turns: readonly ReplayTurn[];
  readonly changes: readonly ReplayChange[];
  /** The kinds of `changes`, each once, in the order of CHANGE_KINDS. */
  readonly groups: readonly ChangeKind[];
  /** Where the replay's out-of-domain marks come from, and why when they are not from its record. */
  readonly oodFrom?: { readonly source: 'record' | 'answers' | 'unknown'; readonly note?: string };
  /** The original as a test case's material (replayedCasesFile). Absent when it was not replayable. */
  readonly recorded?: RecordedConversation;
  readonly durationMs: number;
}

export interface ReplayProgress {
  readonly total: number;
  /** Finished: replayed, failed or not replayed. */
  readonly done: number;
  readonly left: number;
  readonly failed: number;
  readonly notReplayed: number;
  readonly changed: number;
}

export interface ReplayListener {
  /** A conversation finished (replayed, failed or not replayed), with the counts so far. */
  conversationReplayed?(conversation: ReplayedConversation, progress: ReplayProgress): void;
}

export interface ReplayOptions {
  /** Where the replay runs: the candidate, as a comparison's side gives it. */
  readonly candidate: SideTarget;
  /** The agent the candidate's target is asked for (records carry no agent id). */
  readonly agent?: string;
  /** Conversations open at once, at most. */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  /** The model that judges whether a reworded answer means the same; without one, differing words are a change. */
  readonly model?: RunModel;
  readonly listener?: ReplayListener;
  /** How long to wait for a replay's record (its out-of-domain marks); 20 s by default. */
  readonly recordWait?: RecordWait;
  /** Out-of-domain marks from the replay's record where the candidate reads records (default), or from its answers. */
  readonly oodFrom?: 'record' | 'answers';
  /** The file the replay's cases are named in (reports, the judge's cassette): `replay-traffic.yaml` by default. */
  readonly file?: string;
  /** Consecutive conversations that could not reach the candidate before the replay stops (3 by default). */
  readonly unreachableAfter?: number;
}

export interface ReplayCounts {
  readonly selected: number;
  readonly replayed: number;
  readonly unchanged: number;
  readonly changed: number;
  readonly failed: number;
  readonly notReplayed: number;
  /** Not sent: the replay was cancelled or stopped (the candidate could not be reached) before them. */
  readonly notSent: number;
  /** Answers whose words changed and that the model judged to mean the same. */
  readonly reworded: number;
}

export interface ReplayResult {
  /** Every conversation that finished (replayed, failed, not replayed), in the order they were selected. */
  readonly conversations: readonly ReplayedConversation[];
  /** Each group's conversation ids, in the order selected; `unchanged` holds the replayed ones with no change. */
  readonly groups: Readonly<Record<ChangeKind | 'unchanged', readonly string[]>>;
  readonly counts: ReplayCounts;
  /** The reasons conversations were not replayed, each with how many. */
  readonly notReplayedReasons: readonly { readonly reason: string; readonly count: number }[];
  /** Why the replay stopped before the end: the candidate could not be reached (its words). */
  readonly unreachable?: string;
  readonly cancelled: boolean;
  readonly durationMs: number;
}

/** Error kinds of the client, and statuses, that say the candidate as a whole cannot be reached. */
const UNREACHABLE_KINDS = new Set(['network', 'timeout', 'unavailable', 'badGateway', 'unauthorized', 'forbidden']);
const REFUSED_KINDS = new Set(['unauthorized', 'forbidden', 'notConfigured']);

const squeezed = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The criterion a reworded answer is judged on: the original's answer is quoted in it. */
export function sameMeaningCriterion(original: string): Criterion {
  return {
    text: `The agent's answer gives the caller the same information, and asks for or does the same, as this recorded answer (the wording may differ): "${original}"`,
    range: { startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 0 },
  };
}

/**
 * Replays the recorded conversations against the candidate, at most `concurrency` at a time, and groups what
 * differs from each original. A conversation whose turns the record does not list (transcript visibility off) or
 * whose caller said nothing is not replayed, with that reason. Cancelling stops sending (open conversations are
 * closed) and the result holds what finished; so does a candidate that cannot be reached, said in `unreachable`.
 */
export async function replayTraffic(
  records: readonly ConversationRecord[],
  options: ReplayOptions,
): Promise<ReplayResult> {
  const started = performance.now();
  const file = options.file ?? 'replay-traffic.yaml';
  const signal = options.signal;
  const judging = new RunJudging(options.model);
  const oodAnswers = new Set(
    records.flatMap((r) => r.turns.filter((t) => t.is_ood && t.agent_response).map((t) => squeezed(t.agent_response))),
  );
  const finished: (ReplayedConversation | undefined)[] = records.map(() => undefined);
  const counts = { done: 0, failed: 0, notReplayed: 0, changed: 0 };
  let unreachable: string | undefined;
  let unreachedInARow = 0;
  const limit = options.unreachableAfter ?? 3;
  let target: Promise<CaseTarget> | undefined;
  const targetOf = () =>
    (target ??= Promise.resolve()
      .then(() => options.candidate(options.agent !== undefined ? { agent: options.agent } : {}))
      .catch((err: unknown): CaseTarget => ({ skip: `the candidate could not be reached: ${messageOf(err)}` })));

  const finish = (index: number, conversation: ReplayedConversation) => {
    finished[index] = conversation;
    counts.done++;
    if (conversation.status === 'failed') counts.failed++;
    if (conversation.status === 'not replayed') counts.notReplayed++;
    if (conversation.changes.length > 0) counts.changed++;
    options.listener?.conversationReplayed?.(conversation, {
      total: records.length,
      done: counts.done,
      left: records.length - counts.done,
      failed: counts.failed,
      notReplayed: counts.notReplayed,
      changed: counts.changed,
    });
  };

  const pending: Promise<void>[] = [];
  const queue = records.entries();
  const worker = async () => {
    for (const [index, record] of queue) {
      if (signal?.aborted || unreachable !== undefined) return;
      const t0 = performance.now();
      const plan = replayPlanOf(record, file);
      if ('notReplayable' in plan) {
        finish(index, notReplayed(record, plan.notReplayable, performance.now() - t0));
        continue;
      }
      const reach = await targetOf();
      if ('skip' in reach) {
        // The candidate as a whole: every conversation would say the same.
        if (reach.skip.startsWith('the candidate could not be reached')) unreachable ??= reach.skip;
        else finish(index, notReplayed(record, reach.skip, performance.now() - t0, plan));
        continue;
      }
      const { chat, failure } = watched(reach.chat);
      const timed = timingCreates(chat);
      const startedAt = Date.now();
      const run = await runOnce(plan.testCase, 1, timed.chat, { judging, calls: undefined }, signal);
      const createdAt = timed.createdAt();
      const window = { startedAt, endedAt: Date.now(), ...(createdAt !== undefined ? { createdAt } : {}) };
      // Cancelled before its last line: not finished, so not kept.
      if (run.cancelled) continue;
      if (run.skip !== undefined) {
        finish(index, notReplayed(record, run.skip, performance.now() - t0, plan));
        continue;
      }
      const endedAt = run.turns.findIndex((t) => t.answer?.endConversation === true);
      const endedEarly = endedAt >= 0 && run.turns.length < plan.testCase.turns.length;
      if (run.error !== undefined && !endedEarly) {
        const err = failure();
        if (run.conversationId === undefined && err !== undefined && reachesNothing(err)) {
          unreachedInARow++;
          if (unreachedInARow >= limit || REFUSED_KINDS.has(kindOf(err)))
            unreachable ??= `the candidate could not be reached: ${run.error}`;
        }
        finish(index, failed(record, run, plan, performance.now() - t0));
        continue;
      }
      unreachedInARow = 0;
      const judged = await judgedTurns(run, plan, judging, file, signal);
      const done = async () => {
        const ood = await oodOf(run, reach.records, window, options, oodAnswers, signal);
        finish(index, replayed(record, run, plan, judged, ood, performance.now() - t0));
      };
      // The record is read while the worker holds the next conversation: waiting for it holds none open.
      pending.push(done());
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, records.length));
  await Promise.all(Array.from({ length: workers }, worker));
  await Promise.all(pending);

  const conversations = finished.filter((c): c is ReplayedConversation => c !== undefined);
  const groups = Object.fromEntries([...CHANGE_KINDS, 'unchanged'].map((k) => [k, [] as string[]])) as Record<
    ChangeKind | 'unchanged',
    string[]
  >;
  const reasons = new Map<string, number>();
  for (const c of conversations) {
    if (c.status === 'replayed' && c.groups.length === 0) groups.unchanged.push(c.id);
    for (const g of c.groups) groups[g].push(c.id);
    if (c.status === 'not replayed' && c.reason) reasons.set(c.reason, (reasons.get(c.reason) ?? 0) + 1);
  }
  const replayedCount = conversations.filter((c) => c.status === 'replayed').length;
  return {
    conversations,
    groups,
    counts: {
      selected: records.length,
      replayed: replayedCount,
      unchanged: groups.unchanged.length,
      changed: conversations.filter((c) => c.status === 'replayed' && c.groups.length > 0).length,
      failed: conversations.filter((c) => c.status === 'failed').length,
      notReplayed: conversations.filter((c) => c.status === 'not replayed').length,
      notSent: records.length - conversations.length,
      reworded: conversations.reduce(
        (n, c) => n + c.turns.filter((t) => t.meaning && 'verdict' in t.meaning && t.meaning.verdict === 'same').length,
        0,
      ),
    },
    notReplayedReasons: [...reasons].map(([reason, count]) => ({ reason, count })),
    ...(unreachable !== undefined ? { unreachable } : {}),
    cancelled: signal?.aborted === true,
    durationMs: performance.now() - started,
  };
}

/**
 * A group of a replay (or `unchanged`) as a test file: one case per conversation, named after its id, with checks
 * that pin what the original did (replayedCasesFile). Undefined when the group is empty.
 */
export function casesOfGroup(
  result: ReplayResult,
  group: ChangeKind | 'unchanged',
  agentId?: string,
): string | undefined {
  const ids = new Set(result.groups[group]);
  const members = result.conversations.filter((c) => ids.has(c.id) && c.recorded);
  return members.length > 0 ? replayedCasesFile(members, agentId) : undefined;
}

/** The Chat API with the last error it threw kept, so a failed run can tell a target down from a bad turn. */
function watched(chat: ChatConversations): { chat: ChatConversations; failure(): unknown } {
  let last: unknown;
  const keep = <T>(p: Promise<T>) =>
    p.catch((err: unknown) => {
      last = err;
      throw err;
    });
  return {
    chat: {
      create: (request, signal) => keep(chat.create(request, signal)),
      respond: (request, signal) => keep(chat.respond(request, signal)),
      close: (id, signal) => chat.close(id, signal),
    },
    failure: () => last,
  };
}

function kindOf(err: unknown): string {
  const kind = (err as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? kind : '';
}

/** An error that says the target as a whole is out of reach (down, refused), not that one conversation went wrong. */
function reachesNothing(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return (
    UNREACHABLE_KINDS.has(kindOf(err)) ||
    REFUSED_KINDS.has(kindOf(err)) ||
    status === 401 ||
    status === 403 ||
    status === 502 ||
    status === 503 ||
    status === 504
  );
}

function notReplayed(
  record: ConversationRecord,
  reason: string,
  durationMs: number,
  plan?: ReplayPlan,
): ReplayedConversation {
  return {
    id: record.id,
    record,
    status: 'not replayed',
    reason,
    turns: [],
    changes: [],
    groups: [],
    ...(plan ? { recorded: recordedOf(record, plan) } : {}),
    durationMs,
  };
}

function failed(record: ConversationRecord, run: CaseRun, plan: ReplayPlan, durationMs: number): ReplayedConversation {
  return {
    id: record.id,
    record,
    status: 'failed',
    reason: run.error ?? 'the replay did not finish',
    ...(run.conversationId !== undefined ? { replayId: run.conversationId } : {}),
    turns: turnsOf(run, plan, new Map(), undefined),
    changes: [],
    groups: [],
    recorded: recordedOf(record, plan),
    durationMs,
  };
}

type Meaning = NonNullable<ReplayTurn['meaning']>;

/** The agent line of each turn the run answered, by the case's turn index (the greeting is the first). */
function answerLines(run: CaseRun): Map<number, number> {
  const at = new Map<number, number>();
  let turn = 0;
  run.conversation.forEach((line, i) => {
    if (line.role !== 'agent') return;
    at.set(turn, i);
    turn++;
  });
  return at;
}

/**
 * With a model, each answer whose words changed is judged on whether it means what the original said: the same
 * judge and model calls as a test's criteria (judging.ts), one call per changed answer, never for the same words.
 */
async function judgedTurns(
  run: CaseRun,
  plan: ReplayPlan,
  judging: RunJudging,
  file: string,
  signal: AbortSignal | undefined,
): Promise<Map<number, Meaning>> {
  const out = new Map<number, Meaning>();
  const calls = judging.forCase(`${file} › ${plan.testCase.name}`);
  const lines = answerLines(run);
  const originals = new Map<number, string>([
    ...(plan.greeting !== undefined ? [[0, plan.greeting] as [number, string]] : []),
    ...plan.turns.map((t): [number, string] => [t.index, t.answer]),
  ]);
  for (const turn of run.turns) {
    const original = originals.get(turn.index);
    const answer = turn.answer?.response;
    if (original === undefined || answer === undefined || wordDiff(original, answer).same) continue;
    const why = judging.noModel ?? judging.capReached;
    if (calls === undefined || why !== undefined) {
      if (judging.noModel === undefined && why !== undefined) out.set(turn.index, { notJudged: why });
      continue;
    }
    const line = lines.get(turn.index);
    const conversation: readonly ConversationLine[] =
      line === undefined ? run.conversation : run.conversation.slice(0, line + 1);
    const result = await judge(
      calls,
      { file, criterion: sameMeaningCriterion(original), scope: 'turn', turnIndex: turn.index, conversation },
      signal,
    );
    const outcome = result.outcome;
    if (outcome.kind === 'judged' && criterionStatus(outcome) !== 'errored')
      out.set(turn.index, {
        verdict: outcome.verdict === 'pass' ? 'same' : 'changed',
        reason: outcome.reason,
      });
    else
      out.set(turn.index, {
        notJudged: outcome.kind === 'skipped' ? outcome.reason : outcome.kind === 'error' ? outcome.message : 'unsure',
      });
  }
  return out;
}

type OodMarks = { readonly marks?: ReadonlyMap<number, boolean>; readonly from: ReplayedConversation['oodFrom'] };

/**
 * The replay's out-of-domain marks by turn: from its record on the candidate where it can be read (the Chat API's
 * replies carry none), else from its answers: an answer the originals marked out of domain, word for word.
 */
async function oodOf(
  run: CaseRun,
  reach: RecordReach | undefined,
  window: { startedAt: number; endedAt: number; createdAt?: number },
  options: ReplayOptions,
  oodAnswers: ReadonlySet<string>,
  signal: AbortSignal | undefined,
): Promise<OodMarks> {
  let note: string | undefined;
  if ((options.oodFrom ?? 'record') === 'record' && run.conversationId !== undefined) {
    if (reach === undefined || 'none' in reach) note = reach ? reach.none : 'the candidate reads no records';
    else {
      const sent = run.turns.flatMap((t) => (t.user !== undefined ? [t.user] : []));
      const found = await findRecord(
        reach,
        { conversationId: run.conversationId, ...window, messages: sent, includeLatency: false },
        options.recordWait ?? DEFAULT_RECORD_WAIT,
        signal,
      );
      if ('record' in found) {
        const said = found.record.turns.filter((t) => (t.user_input || t.user_input_dtmf).trim() !== '');
        if (found.record.turns.length > 0) {
          const marks = new Map<number, boolean>();
          said.forEach((t, i) => marks.set(i + 1, t.is_ood));
          return { marks, from: { source: 'record' } };
        }
        note = "the replay's record lists no turns (transcript visibility is off)";
      } else note = found.notChecked;
    }
  }
  if (oodAnswers.size === 0)
    return {
      from: {
        source: 'unknown',
        note: `${note ? `${note}; ` : ''}no original answer was marked out of domain to tell one by`,
      },
    };
  const marks = new Map<number, boolean>();
  for (const t of run.turns)
    if (t.index > 0 && t.answer) marks.set(t.index, oodAnswers.has(squeezed(t.answer.response)));
  return { marks, from: { source: 'answers', ...(note ? { note } : {}) } };
}

function turnsOf(
  run: CaseRun,
  plan: ReplayPlan,
  judged: ReadonlyMap<number, Meaning>,
  ood: ReadonlyMap<number, boolean> | undefined,
): ReplayTurn[] {
  const byIndex = new Map(run.turns.map((t) => [t.index, t]));
  const originals: (OriginalTurn | { index: 0; answer?: string; user?: undefined; ood?: undefined })[] = [
    { index: 0, ...(plan.greeting !== undefined ? { answer: plan.greeting } : {}) },
    ...plan.turns,
  ];
  return originals.map((o): ReplayTurn => {
    const t = byIndex.get(o.index);
    const replayed = t?.answer?.response;
    const original = o.answer;
    const compared = original !== undefined && replayed !== undefined ? readableDiff(original, replayed) : undefined;
    const meaning = judged.get(o.index);
    const replayedOod = ood?.get(o.index);
    return {
      index: o.index,
      ...(o.user !== undefined ? { user: o.user } : {}),
      ...(original !== undefined ? { original } : {}),
      ...(replayed !== undefined ? { replayed } : {}),
      diff: compared?.diff ?? [],
      same: compared?.same ?? (original === undefined || replayed === undefined),
      ...(meaning ? { meaning } : {}),
      ...(t?.answer?.handoff ? { handoff: t.answer.handoff } : {}),
      ...(t?.answer?.endConversation ? { ended: true } : {}),
      ...(o.ood !== undefined
        ? { ood: { original: o.ood, ...(replayedOod !== undefined ? { replayed: replayedOod } : {}) } }
        : {}),
      ...(t?.answer ? { latencyMs: t.answer.latencyMs } : {}),
    };
  });
}

function replayed(
  record: ConversationRecord,
  run: CaseRun,
  plan: ReplayPlan,
  judged: ReadonlyMap<number, Meaning>,
  ood: OodMarks,
  durationMs: number,
): ReplayedConversation {
  const turns = turnsOf(run, plan, judged, ood.marks);
  const changes = changesOf(turns, plan);
  return {
    id: record.id,
    record,
    status: 'replayed',
    ...(run.conversationId !== undefined ? { replayId: run.conversationId } : {}),
    turns,
    changes,
    groups: CHANGE_KINDS.filter((k) => changes.some((c) => c.kind === k)),
    ...(ood.from ? { oodFrom: ood.from } : {}),
    recorded: recordedOf(record, plan),
    durationMs,
  };
}

const where = (h: { readonly destination?: string } | undefined) => (h?.destination ? ` to ${h.destination}` : '');

/** What differs between the original and the replay, conversation-wide and turn by turn. */
function changesOf(turns: readonly ReplayTurn[], plan: ReplayPlan): ReplayChange[] {
  const out: ReplayChange[] = [];
  const last = plan.turns.length;
  // Handoff: the record says whether and where, not at which turn.
  const handedOff = turns.find((t) => t.handoff !== undefined);
  if (plan.handoff && !handedOff)
    out.push({ kind: 'handoff changed', detail: `no handoff now; the original was handed off${where(plan.handoff)}` });
  else if (!plan.handoff && handedOff)
    out.push({
      kind: 'handoff changed',
      turn: handedOff.index,
      detail: `hands off now at turn ${handedOff.index}${where(handedOff.handoff)}; the original was not handed off`,
    });
  else if (
    plan.handoff?.destination &&
    handedOff?.handoff?.destination &&
    plan.handoff.destination !== handedOff.handoff.destination
  )
    out.push({
      kind: 'handoff changed',
      turn: handedOff.index,
      detail: `handed off to ${handedOff.handoff.destination}, not ${plan.handoff.destination}`,
    });
  // Ends: the original went on to its last line, and ended there (by its agent where its record says so).
  const ended = turns.find((t) => t.ended);
  if (ended && ended.index < last)
    out.push({
      kind: 'ended earlier',
      turn: ended.index,
      detail: `the agent ends the conversation at turn ${ended.index}; the original went on to turn ${last} (${last - ended.index} line(s) not sent)`,
    });
  else if (ended && plan.endedBy === 'caller')
    out.push({
      kind: 'ended earlier',
      turn: ended.index,
      detail: `the agent ends the conversation at turn ${ended.index}; the caller ended the original`,
    });
  else if (!ended && plan.endedBy === 'agent')
    out.push({
      kind: 'ended later',
      turn: last,
      detail: `the agent no longer ends the conversation at turn ${last}, where the original's agent ended it`,
    });
  for (const t of turns) {
    if (t.ood?.replayed === true && !t.ood.original)
      out.push({ kind: 'out of domain now', turn: t.index, detail: `turn ${t.index} is out of domain now` });
    if (t.ood?.replayed === false && t.ood.original)
      out.push({ kind: 'no longer out of domain', turn: t.index, detail: `turn ${t.index} is in domain now` });
  }
  for (const t of turns) {
    if (t.same) continue;
    const m = t.meaning;
    if (m && 'verdict' in m && m.verdict === 'same') continue;
    const why = !m
      ? ''
      : 'verdict' in m
        ? ` (judged changed: ${m.reason})`
        : ` (the meaning was not judged: ${m.notJudged})`;
    out.push({
      kind: 'answer changed',
      turn: t.index,
      detail: `${t.index === 0 ? 'the greeting' : `turn ${t.index}`} answers differently${why}`,
    });
  }
  return out;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
