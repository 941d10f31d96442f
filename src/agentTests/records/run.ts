/**
 * The runner's hooks for record checks: once a run's conversation is over, its record is fetched and checked, and
 * the run's status takes the checks in (a failed check fails it; a check not made keeps it from passing).
 */
import type { TestCase } from '../format';
import type { CaseRun, ChatConversations, RunStatus } from '../results';
import { checkRecord, checksRecord, notChecked, readsLatency } from './check';
import { findRecord, type RecordReach, type RecordWait } from './fetch';
import type { RecordCheckResult } from './types';

/** When the run's conversation was created (sent, and its reply in) and when it was over, by this machine's clock. */
export interface RunWindow {
  readonly startedAt: number;
  readonly createdAt?: number;
  readonly endedAt: number;
}

/** The Chat API as a run uses it, noting when the create's reply came: the record started before it. */
export function timingCreates(chat: ChatConversations): { chat: ChatConversations; createdAt(): number | undefined } {
  let createdAt: number | undefined;
  return {
    chat: {
      create: (request, signal) =>
        chat.create(request, signal).then((reply) => {
          createdAt ??= Date.now();
          return reply;
        }),
      respond: (request, signal) => chat.respond(request, signal),
      close: (id, signal) => chat.close(id, signal),
    },
    createdAt: () => createdAt,
  };
}

/** The run with its record checks made (or each said not checked, and why); the run as it was when it has none. */
export async function withRecordChecks(
  run: CaseRun,
  testCase: TestCase,
  reach: RecordReach | undefined,
  window: RunWindow,
  wait: RecordWait,
  signal: AbortSignal | undefined,
): Promise<CaseRun> {
  if (!checksRecord(testCase) || run.cancelled || run.skip !== undefined) return run;
  const records = await recordChecks(run, testCase, { reach, window, wait, signal });
  if (signal?.aborted && records.some((r) => r.outcome.kind === 'not-checked' && r.outcome.reason === 'cancelled'))
    return { ...run, records, cancelled: true, passed: false, status: 'cancelled' };
  const status = statusWith(run.status, records);
  return { ...run, records, status, passed: status === 'passed' };
}

interface Lookup {
  readonly reach: RecordReach | undefined;
  readonly window: RunWindow;
  readonly wait: RecordWait;
  readonly signal: AbortSignal | undefined;
}

async function recordChecks(
  run: CaseRun,
  testCase: TestCase,
  { reach, window, wait, signal }: Lookup,
): Promise<RecordCheckResult[]> {
  if (run.conversationId === undefined || run.error !== undefined)
    return notChecked(testCase, `the conversation did not finish${run.error ? `: ${run.error}` : ''}`);
  if (reach === undefined) return notChecked(testCase, 'this run has no Conversations API to read records with');
  if ('none' in reach) return notChecked(testCase, reach.none);
  const lookup = {
    conversationId: run.conversationId,
    ...window,
    messages: run.turns.flatMap((t) => (t.user !== undefined ? [t.user] : [])),
    includeLatency: readsLatency(testCase),
  };
  const found = await findRecord(reach, lookup, wait, signal);
  return 'notChecked' in found
    ? notChecked(testCase, found.notChecked)
    : checkRecord(testCase, found.record, run.turns);
}

/** A failed record check fails the run; one not made leaves a passing run unjudged (never passed). */
function statusWith(status: RunStatus, records: readonly RecordCheckResult[]): RunStatus {
  if (status === 'cancelled' || status === 'failed') return status;
  if (records.some((r) => r.outcome.kind === 'failed')) return 'failed';
  if (status === 'passed' && records.some((r) => r.outcome.kind === 'not-checked')) return 'unjudged';
  return status;
}

/** Which record checks of the runs were not made, and why: the reason of the first; undefined when all were. */
export function notCheckedReason(runs: readonly CaseRun[]): string | undefined {
  const skipped = runs.flatMap((r) => r.records ?? []).filter((c) => c.outcome.kind === 'not-checked');
  const first = skipped[0]?.outcome;
  if (first?.kind !== 'not-checked') return undefined;
  const names = [...new Set(skipped.map((c) => c.name))];
  return `${names.length === 1 ? 'the record check' : `${names.length} record checks`} ${names.join(', ')} ${names.length === 1 ? 'was' : 'were'} not checked: ${first.reason}`;
}
