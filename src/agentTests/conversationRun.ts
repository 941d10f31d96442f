/**
 * One run of a case: the conversation through the Chat API (scripted turns or a simulated caller), each answer's
 * checks, and its criteria judged (a turn's as soon as its answer is in, the case's once the conversation is over).
 */
import { type Answer, checkAnswer } from './checks';
import type { Criterion, TestCase } from './format';
import { type CaseModelCalls, criterionResult, criterionStatus, judge, type RunJudging } from './judging';
import type { ConversationLine, CriterionOutcome, CriterionResult, ScenarioStop } from './model/types';
import type { CaseRun, ChatConversations, RunStatus, TurnResult } from './results';
import { type CallerEnd, playCaller, stopWords } from './simulated';
import { caseSeedOfRun, transcriptNote, type TurnPerturbation, wordsToSend } from './perturb/turns';

/** How long closing a conversation may take once a run is over or cancelled. */
const CLOSE_TIMEOUT_MS = 10_000;

/** The model side of one run: the run's state (no model, the cap) and the case's door, when a model is set. */
export interface RunModelUse {
  readonly judging: RunJudging;
  readonly calls: CaseModelCalls | undefined;
}

/**
 * One conversation: create, a respond per user turn (or per simulated caller message), and close unless the agent
 * ended it. A turn's `expect:` is judged as soon as its answer is in, while the conversation goes on.
 */
export async function runOnce(
  testCase: TestCase,
  attempt: number,
  chat: ChatConversations,
  model: RunModelUse,
  signal: AbortSignal | undefined,
): Promise<CaseRun> {
  const started = performance.now();
  const transcript: string[] = [];
  const turns: TurnResult[] = [];
  const conversation: ConversationLine[] = [];
  const judged: Promise<CriterionResult>[] = [];
  /** The turns' judgements, by turn index: put on their turn results once they are in. */
  const turnJudged = new Map<number, Promise<CriterionResult>[]>();
  let conversationId: string | undefined;
  let ended = false;
  let error: string | undefined;
  let skip: string | undefined;
  let caller: CallerEnd | undefined;
  const judgeNow = (criterion: Criterion, scope: CriterionResult['scope'], turnIndex?: number) => {
    const input = { criterion, scope, ...(turnIndex !== undefined ? { turnIndex } : {}) };
    const why = model.judging.noModel ?? model.judging.capReached;
    const promise =
      model.calls === undefined || why !== undefined
        ? Promise.resolve(criterionResult(input, { kind: 'skipped', reason: why ?? 'no model is set' }))
        : judge(model.calls, { ...input, file: testCase.file, conversation: conversation.slice() }, signal);
    judged.push(promise);
    return promise;
  };
  const judgeTurn = (index: number) => {
    const expect = testCase.turns[index]?.expect;
    if (expect && expect.length > 0)
      turnJudged.set(
        index,
        expect.map((c) => judgeNow(c, 'turn', index)),
      );
  };
  /** Sends one user message, records the answer in the transcript and the conversation, and returns it. */
  const send = async (
    id: string,
    message: string,
    metadata?: Readonly<Record<string, unknown>>,
    perturbation?: TurnPerturbation,
  ) => {
    transcript.push(`user: ${message}`);
    if (perturbation) transcript.push(transcriptNote(perturbation));
    conversation.push({ turn: conversation.length + 1, role: 'user', text: message });
    const sentAt = performance.now();
    const reply = await chat.respond(
      {
        conversation_id: id,
        message,
        ...(metadata ? { metadata: { ...metadata } } : {}),
        ...(testCase.asrLangCode ? { asr_lang_code: testCase.asrLangCode } : {}),
        ...(testCase.ttsLangCode ? { tts_lang_code: testCase.ttsLangCode } : {}),
      },
      signal,
    );
    const answer: Answer = {
      response: reply.response,
      endConversation: reply.end_conversation,
      ...(reply.handoff ? { handoff: reply.handoff } : {}),
      latencyMs: performance.now() - sentAt,
    };
    transcript.push(`agent: ${reply.response}`);
    if (reply.handoff)
      transcript.push(`  (handoff to ${reply.handoff.destination ?? '?'}: ${reply.handoff.reason ?? ''})`);
    if (reply.end_conversation) transcript.push('  (the agent ended the conversation)');
    conversation.push({
      turn: conversation.length + 1,
      role: 'agent',
      text: reply.response,
      ...(reply.handoff ? { handoff: reply.handoff } : {}),
      ...(reply.end_conversation ? { ended: true } : {}),
    });
    ended = reply.end_conversation;
    return answer;
  };
  try {
    const createdAt = performance.now();
    const created = await chat.create(
      {
        ...(testCase.variant !== undefined ? { variant_id: testCase.variant } : {}),
        ...(testCase.integrationAttributes ? { integration_attributes: { ...testCase.integrationAttributes } } : {}),
      },
      // No signal: a create the platform carried out but whose answer was dropped on cancel would leave a
      // conversation open that nothing knows the id of. Once its answer is in, it is closed below.
    );
    const latencyMs = performance.now() - createdAt;
    const id = created.conversation_id;
    conversationId = id;
    transcript.push(`agent: ${created.response}`);
    conversation.push({ turn: 1, role: 'agent', text: created.response });
    const greeting: Answer = { response: created.response, endConversation: false, latencyMs };
    if (testCase.scenario && model.calls) {
      const calls = model.calls;
      caller = await playCaller(
        testCase.file,
        testCase.scenario,
        calls,
        conversation,
        async (message) => {
          // The simulated caller's messages are reworded as scripted turns are, numbered as its turns.
          const { sent, perturbation } = wordsToSend(testCase, turns.length, message, attempt);
          const answer = await send(id, sent, undefined, perturbation);
          turns.push({
            index: turns.length,
            user: sent,
            ...(perturbation ? { perturbation } : {}),
            answer,
            failures: [],
            range: testCase.scenario?.range ?? testCase.range,
          });
          return answer;
        },
        signal,
      );
      transcript.push(
        `  (the simulated caller stopped: ${stopWords(caller.stop)}${caller.reason ? `: ${caller.reason}` : ''})`,
      );
    }
    for (const [index, turn] of testCase.turns.entries()) {
      if (turn.user === undefined) {
        turns.push({ index, answer: greeting, failures: checkAnswer(turn.checks, greeting), range: turn.range });
        judgeTurn(index);
        continue;
      }
      if (ended) {
        error = `The agent ended the conversation before turn ${index + 1}; the turns after it were not sent.`;
        break;
      }
      if (signal?.aborted) break;
      const { sent, perturbation } = wordsToSend(testCase, index, turn.user, attempt);
      const answer = await send(id, sent, turn.metadata, perturbation);
      turns.push({
        index,
        user: sent,
        ...(perturbation ? { perturbation } : {}),
        answer,
        failures: checkAnswer(turn.checks, answer),
        range: turn.range,
      });
      judgeTurn(index);
    }
  } catch (err) {
    if (conversationId === undefined && testCase.variant !== undefined && refusesVariant(err))
      skip = `the target has no variant ${testCase.variant} (${messageOf(err)})`;
    else if (!signal?.aborted) error = messageOf(err);
  } finally {
    if (conversationId !== undefined && !ended) {
      try {
        // Closed with a signal of its own: a cancelled run still closes what it opened.
        await chat.close(conversationId, AbortSignal.timeout(CLOSE_TIMEOUT_MS));
      } catch (err) {
        transcript.push(`  (the conversation could not be closed: ${messageOf(err)})`);
      }
    }
  }
  const stop: ScenarioStop | undefined =
    testCase.scenario === undefined ? undefined : error !== undefined ? 'error' : (caller?.stop ?? 'cancelled');
  const cancelled =
    signal?.aborted === true &&
    error === undefined &&
    (testCase.scenario ? stop === 'cancelled' : turns.length < testCase.turns.length);
  // Judged on the whole conversation, once it is over; not judged when it did not finish.
  const notJudged: CriterionOutcome | undefined =
    skip !== undefined || cancelled
      ? { kind: 'skipped', reason: 'cancelled' }
      : error !== undefined
        ? { kind: 'skipped', reason: `the conversation did not finish: ${error}` }
        : caller?.failure;
  const whole = (criteria: readonly Criterion[] | undefined, scope: CriterionResult['scope']) => {
    for (const c of criteria ?? [])
      if (notJudged) judged.push(Promise.resolve(criterionResult({ criterion: c, scope }, notJudged)));
      else judgeNow(c, scope);
  };
  // The turns not reached keep their criteria, not judged, so that each is reported.
  for (const [index, turn] of testCase.turns.entries())
    if (!turnJudged.has(index) && turn.expect)
      judged.push(
        ...turn.expect.map((c) =>
          Promise.resolve(
            criterionResult(
              { criterion: c, scope: 'turn', turnIndex: index },
              { kind: 'skipped', reason: cancelled ? 'cancelled' : 'the turn was not reached' },
            ),
          ),
        ),
      );
  whole(testCase.scenario?.success, 'success');
  whole(testCase.criteria, 'case');
  const criteria = await Promise.all(judged);
  for (const [i, turn] of turns.entries()) {
    const mine = turnJudged.get(turn.index);
    if (mine) turns[i] = { ...turn, criteria: await Promise.all(mine) };
  }
  if (error) transcript.push(`  (${error})`);
  // Cancelled while the judge was still asked: the run did not finish, whatever its turns did.
  const stopped =
    cancelled ||
    (signal?.aborted === true &&
      error === undefined &&
      criteria.some((c) => c.outcome.kind === 'skipped' && c.outcome.reason === 'cancelled'));
  const perturbSeed = caseSeedOfRun(testCase, attempt);
  const status: RunStatus = stopped ? 'cancelled' : runStatus(turns, error, criteria);
  return {
    attempt,
    passed: status === 'passed',
    cancelled: stopped,
    status,
    turns,
    criteria,
    conversation,
    ...(stop !== undefined ? { stop } : {}),
    ...(caller?.reason !== undefined ? { stopReason: caller.reason } : {}),
    ...(perturbSeed !== undefined ? { perturbSeed } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(conversationId !== undefined ? { conversationId } : {}),
    durationMs: performance.now() - started,
    transcript,
    ...(skip !== undefined ? { skip } : {}),
  };
}

/** A run passes only when every check holds and every criterion is judged a pass. */
function runStatus(
  turns: readonly TurnResult[],
  error: string | undefined,
  criteria: readonly CriterionResult[],
): Exclude<RunStatus, 'cancelled'> {
  if (error !== undefined || turns.some((t) => t.failures.length > 0)) return 'failed';
  const statuses = new Set(criteria.map((c) => criterionStatus(c.outcome)));
  if (statuses.has('failed')) return 'failed';
  if (statuses.has('errored')) return 'errored';
  if (statuses.has('unjudged')) return 'unjudged';
  return 'passed';
}

/**
 * A create refused because of its variant: a 400 that names `variant_id` (as a field of the error or of its body) or
 * speaks of the variant (the Chat API takes a variant only on create; the spec shows no list of a project's
 * variants, so the refusal is how a run learns the target lacks one). Read from the error's fields, whatever client
 * threw it.
 */
function refusesVariant(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { status, fieldErrors, body, serverMessage } = err as {
    status?: unknown;
    fieldErrors?: unknown;
    body?: unknown;
    serverMessage?: unknown;
  };
  if (status !== 400) return false;
  const named = (v: unknown) =>
    typeof v === 'object' && v !== null && (v as { field?: unknown }).field === 'variant_id';
  return (
    (Array.isArray(fieldErrors) && fieldErrors.some(named)) ||
    named(body) ||
    (typeof serverMessage === 'string' && /variant/i.test(serverMessage))
  );
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
