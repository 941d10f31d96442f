/**
 * A recorded conversation made ready to replay: a test case whose turns are the caller's lines as the record has
 * them (the greeting first, with no user line), with no checks, and the original's answers kept beside it for the
 * comparison; or why it cannot be replayed. Also the same conversation as a saved test case: its lines, and checks
 * that pin what the original did (docs/testing-agents.md, "Replaying real traffic").
 */
import type { ConversationRecord, ConversationTurn } from '../../contract/conversations';
import type { TestCase, TestTurn, TextRange } from '../format';
import { newTestFile, type RecordedConversation, type RecordedTurn, caseYaml } from '../fromConversation';

const NOWHERE: TextRange = { startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 0 };
/** A language code as the Chat API takes it (parse.ts checks test files with the same pattern). */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

/** One caller line of the original, with what the original agent answered. */
export interface OriginalTurn {
  /** The case's turn index: 1 for the first user line (0 is the greeting). */
  readonly index: number;
  readonly user: string;
  readonly answer: string;
  /** Whether the original marked the turn out of domain. */
  readonly ood: boolean;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** How the original conversation ended, where its record says: `state.ended_by` (an assumed key). */
export type EndedBy = 'agent' | 'caller';

export interface ReplayPlan {
  readonly testCase: TestCase;
  /** The original's greeting (its first turn, without user input), when it has one. */
  readonly greeting?: string;
  readonly turns: readonly OriginalTurn[];
  readonly handoff?: { readonly destination?: string; readonly reason?: string };
  readonly endedBy?: EndedBy;
  /** Silent turns and turns without a line, left out (the Chat API takes a line per turn). */
  readonly leftOut: number;
}

/** Why a conversation is not replayed, in words a report can print. */
export type NotReplayable = { readonly notReplayable: string };

function spoken(t: ConversationTurn): string {
  return (t.user_input || t.user_input_dtmf || '').trim();
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A text of the record's state that reads as a language code, else undefined. */
function languageOf(state: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = state[key];
  return typeof v === 'string' && LANGUAGE_CODE.test(v) ? v : undefined;
}

/**
 * The replay of a record: its user lines in order (silences and empty turns left out), its variant, the integration
 * attributes and language codes its state kept, and each turn's metadata where a record carries it (not in the
 * spec's turn table: read when present). `file` names the case as reports and cassettes do.
 */
export function replayPlanOf(record: ConversationRecord, file: string): ReplayPlan | NotReplayable {
  if (record.turns.length === 0)
    return {
      notReplayable:
        record.num_turns > 0
          ? `its turns are not in the record (transcript visibility is off for the project: the record counts ${record.num_turns} turn(s) and lists none)`
          : 'the record has no turns',
    };
  const [first, ...rest] = record.turns;
  const greets = first !== undefined && spoken(first) === '' && !first.is_silence;
  const after = greets ? rest : record.turns;
  const lines = after.filter((t) => spoken(t) !== '');
  if (lines.length === 0)
    return {
      notReplayable: `the caller said nothing to replay (${after.length === 0 ? 'only the greeting' : `${after.length} turn(s) without a line: silences or empty input`})`,
    };
  const turns: OriginalTurn[] = lines.map((t, i) => {
    const metadata = (t as Record<string, unknown>).metadata;
    return {
      index: i + 1,
      user: spoken(t),
      answer: t.agent_response,
      ood: t.is_ood,
      ...(isObject(metadata) && Object.keys(metadata).length > 0 ? { metadata } : {}),
    };
  });
  const state = record.state;
  const attributes = state.integration_attributes;
  const asr = languageOf(state, 'asr_lang_code');
  const tts = languageOf(state, 'tts_lang_code');
  const testTurns: TestTurn[] = [
    { checks: {}, range: NOWHERE },
    ...turns.map((t) => ({
      user: t.user,
      ...(t.metadata ? { metadata: t.metadata } : {}),
      checks: {},
      range: NOWHERE,
    })),
  ];
  const testCase: TestCase = {
    file,
    name: record.id,
    tags: [],
    repeat: 1,
    requiredPassRate: 1,
    turns: testTurns,
    range: NOWHERE,
    nameRange: NOWHERE,
    ...(record.variant_id ? { variant: record.variant_id } : {}),
    ...(isObject(attributes) && Object.keys(attributes).length > 0 ? { integrationAttributes: attributes } : {}),
    ...(asr ? { asrLangCode: asr } : {}),
    ...(tts ? { ttsLangCode: tts } : {}),
  };
  const endedBy = state.ended_by === 'agent' || state.ended_by === 'caller' ? state.ended_by : undefined;
  return {
    testCase,
    ...(greets ? { greeting: first.agent_response } : {}),
    turns,
    ...(record.handoff
      ? {
          handoff: {
            ...(record.handoff_destination ? { destination: record.handoff_destination } : {}),
            ...(record.handoff_reason ? { reason: record.handoff_reason } : {}),
          },
        }
      : {}),
    ...(endedBy ? { endedBy } : {}),
    leftOut: after.length - lines.length,
  };
}

/**
 * The original conversation as a test case's material: its lines with the original's answers, the handoff on its
 * last turn (the record says a handoff happened, not at which turn, so the turns before it do not check one), the
 * end where the record says who ended it, and `end: false` on every turn before the last (the original went on).
 */
export function recordedOf(record: ConversationRecord, plan: ReplayPlan): RecordedConversation {
  const last = plan.turns.length - 1;
  const turns: RecordedTurn[] = plan.turns.map((t, i) => ({
    user: t.user,
    answer: t.answer,
    ...(t.metadata ? { metadata: t.metadata } : {}),
    ...(i === last && plan.handoff ? { handoff: plan.handoff } : {}),
    ...(i !== last && plan.handoff ? { handoffUnchecked: true } : {}),
    ...(i < last ? { end: false } : plan.endedBy ? { end: plan.endedBy === 'agent' } : {}),
  }));
  const c = plan.testCase;
  return {
    conversationId: record.id,
    ...(record.environment ? { environment: record.environment } : {}),
    ...(c.variant !== undefined ? { variant: c.variant } : {}),
    ...(c.integrationAttributes ? { integrationAttributes: c.integrationAttributes } : {}),
    ...(c.asrLangCode ? { asrLangCode: c.asrLangCode } : {}),
    ...(c.ttsLangCode ? { ttsLangCode: c.ttsLangCode } : {}),
    ...(plan.greeting !== undefined ? { greeting: plan.greeting } : {}),
    turns,
    ...(plan.leftOut > 0 ? { leftOut: plan.leftOut } : {}),
  };
}

/**
 * A test file of replayed conversations, one case each, named after the conversation id: the user lines, and checks
 * that pin what the original did (key phrases of each answer, its handoff and end). Parsed with `parseTestFile`,
 * it has no problem; run against the original's target, its cases pass where that target still answers as it did.
 */
export function replayedCasesFile(
  conversations: readonly { readonly id: string; readonly recorded?: RecordedConversation }[],
  agentId?: string,
): string {
  // A conversation that was not replayable (no turns to send) has no case to write.
  const writable = conversations.flatMap((c) => (c.recorded ? [{ id: c.id, recorded: c.recorded }] : []));
  const [first, ...rest] = writable;
  if (!first) throw new Error('No conversation with lines to write as a test case.');
  const head = newTestFile(agentId, first.id, first.recorded);
  const more = rest.map((c) =>
    caseYaml(c.id, c.recorded)
      .split('\n')
      .map((l) => (l ? `  ${l}` : l))
      .join('\n'),
  );
  return [head, ...more].join('');
}
