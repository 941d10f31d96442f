// A person chatting through the playground while a seeded chaos fault drops and delays the messaging socket as
// answers stream, and what must hold afterwards. Shared by the unit test of the playground's model and the
// integration test of the panel in the editor.
import assert from 'node:assert/strict';
import { Random } from '../../src/agentTests/perturb/random';
import { ASSUMED_SERVER_EVENT_NAMES, type ServerEventNames } from '../../src/contract/serverEventNames';
import type { ChaosTally } from '../../src/localPlatform/messaging/chaos';
import { SPEC_ONLY_EVENT_NAMES } from '../../src/localPlatform/specOnlyEvents';
import type { ChatLine, ChatStatus } from '../../src/protocol/chat';
import type { LocalAdmin } from './localAdmin';
import { until } from './until';

/** The names the spec-only mode gives the events the spec does not name, as a person would set them. */
export const SPEC_ONLY_SERVER_NAMES = Object.fromEntries(
  Object.entries(ASSUMED_SERVER_EVENT_NAMES).flatMap(([kind, ours]) =>
    SPEC_ONLY_EVENT_NAMES[ours] ? [[kind, SPEC_ONLY_EVENT_NAMES[ours]]] : [],
  ),
) as Partial<ServerEventNames>;

/** The playground as the person uses it: what it shows, and the message box and Send again. */
export interface PlaygroundUnderTest {
  lines(): readonly ChatLine[];
  status(): ChatStatus;
  send(text: string): Promise<void>;
  /** Presses Send again on a line. */
  sendAgain(line: ChatLine): Promise<void>;
}

export interface ChaosOptions {
  seed: number;
  /** How many drops and delays the chaos makes. */
  disruptions: number;
  /** The chance of a drop or a delay before each piece of an answer (and each message that arrives while one streams). */
  rate?: number;
  maxDelayMs?: number;
  /** How long the person reads a line that says "not confirmed" before pressing Send again (2 s). */
  readMs?: number;
  /** Said with a failure (the mode, the seed). */
  what: string;
}

/** What a chaotic conversation came to. */
export interface ChaosConversation {
  /** The questions, in the order asked. */
  sent: string[];
  /** The lines the person sent again, having read "not confirmed". */
  sentAgain: string[];
  /** Every message the person wrote, in order: each question and each Send again. */
  written: string[];
  /** What the platform's WebSocket took in, in order. */
  received: string[];
  lines: ChatLine[];
  tally: ChaosTally;
  /** "seed …, mode: n questions, drops, delays, sent again", for messages and the run's output. */
  context: string;
}

const QUESTIONS = [
  'what are your opening hours on Sunday?',
  'can I return an order after two weeks?',
  'how long does delivery take?',
  'do you ship abroad?',
];

/**
 * Starts the chaos on a greeted session and chats through it: a question at a time, now and then the next one as
 * soon as the answer starts, pressing Send again on each line still "not confirmed" once read, until the chaos has
 * made its drops and delays; then waits until every question is answered and nothing waits.
 */
export async function chatThroughChaos(
  chat: PlaygroundUnderTest,
  admin: LocalAdmin,
  sessionId: string,
  options: ChaosOptions,
): Promise<ChaosConversation> {
  const { seed, disruptions, readMs = 2_000 } = options;
  await admin.addFault({
    family: 'messaging',
    path: sessionId,
    chaos: { seed, rate: options.rate ?? 0.5, maxDelayMs: options.maxDelayMs ?? 300 },
    times: disruptions,
  });
  const remaining = async () => (await admin.faults()).reduce((n, f) => n + (f.chaos ? (f.times ?? 0) : 0), 0);
  const detail = () =>
    `${options.what}, seed ${seed}; status ${JSON.stringify(chat.status())}; last lines ${JSON.stringify(
      chat
        .lines()
        .slice(-6)
        .map((l) => [l.id, l.role, l.text.slice(0, 40), l.streaming ?? false, l.note ?? '']),
    )}`;
  const random = new Random(seed);
  const sent: string[] = [];
  const sentAgain: string[] = [];
  const written: string[] = [];
  const doubted = new Map<string, number>();
  const sendAgainWhatWasNotConfirmed = async () => {
    for (const line of chat.lines()) {
      if (line.role !== 'user' || line.note !== 'not confirmed' || !line.fix) continue;
      const seen = doubted.get(line.id) ?? Date.now();
      doubted.set(line.id, seen);
      if (Date.now() - seen < readMs) continue;
      sentAgain.push(line.text);
      written.push(line.text);
      await chat.sendAgain(line);
    }
  };
  for (let i = 1; (await remaining()) > 0 && i <= 400; i++) {
    const text = `Question ${i}: ${QUESTIONS[(i - 1) % QUESTIONS.length]}`;
    sent.push(text);
    written.push(text);
    await chat.send(text);
    const impatient = random.next() < 0.5;
    await until(
      `the answer to question ${i}`,
      async () => {
        await sendAgainWhatWasNotConfirmed();
        const lines = chat.lines();
        const mine = lines.findIndex((l) => l.role === 'user' && l.text === text);
        return lines.some((l, at) => at > mine && l.role === 'agent' && (impatient || !l.streaming));
      },
      { timeoutMs: 60_000, detail },
    );
  }
  assert.equal(await remaining(), 0, `the ${disruptions} drops and delays were made (${detail()})`);
  let received: string[] = [];
  await until(
    'every answer, nothing waiting',
    async () => {
      await sendAgainWhatWasNotConfirmed();
      received = (await admin.receivedMessages(sessionId)).map((m) => m.text);
      const lines = chat.lines();
      return (
        chat.status().state === 'open' &&
        lines.filter((l) => l.role === 'agent' && !l.streaming).length === 1 + received.length &&
        !lines.some((l) => l.streaming) &&
        !lines.some((l) => l.role === 'user' && l.note === 'not confirmed' && l.fix)
      );
    },
    { timeoutMs: 60_000, detail },
  );
  const tally = (await admin.messagingSessions()).find((s) => s.session_id === sessionId)!.chaos;
  return {
    sent,
    sentAgain,
    written,
    received,
    lines: [...chat.lines()],
    tally,
    context: `${options.what}, seed ${seed}: ${sent.length} questions, ${tally.drops} drops, ${tally.delays} delays, ${sentAgain.length} sent again by the person, ${received.length} messages received (${new Set(received).size} different)`,
  };
}

const times = (list: readonly string[], text: string): number => list.filter((t) => t === text).length;

/**
 * What must hold after the chaos: every message shown once in the order written (a line marked "not confirmed" and
 * sent again stays, marked, without a second Send again), every answer once and complete (in the platform's order,
 * when `platformAnswers` is given), nothing received twice by the platform unless the person wrote it twice.
 */
export function checkChaosConversation(run: ChaosConversation, disruptions: number, platformAnswers?: string[]): void {
  const { lines, context } = run;
  const users = lines.filter((l) => l.role === 'user');
  assert.equal(run.tally.drops + run.tally.delays, disruptions, context);
  assert.ok(run.tally.drops > 0 && run.tally.delays > 0, `drops and delays both (${context})`);
  assert.deepEqual(
    users.map((l) => l.text),
    run.written,
    `every message shown once, in the order written (${context})`,
  );
  const marked = users.filter((l) => l.note === 'not confirmed');
  assert.equal(marked.length, run.sentAgain.length, `each line marked not confirmed was sent again (${context})`);
  assert.ok(
    users.every((l) => l.note === undefined || (l.note === 'not confirmed' && l.fix === undefined)),
    `no Send again left on a line already sent again (${context})`,
  );
  for (const text of run.sent) {
    assert.ok(times(run.received, text) >= 1, `the platform received "${text}" (${context})`);
    assert.ok(
      times(run.received, text) <= times(run.written, text),
      `"${text}" reached the platform ${times(run.received, text)} times, written by the person ${times(run.written, text)} times (${context})`,
    );
  }
  const answers = lines.filter((l) => l.role === 'agent');
  assert.equal(answers.length, 1 + run.received.length, `the greeting and one answer to each message (${context})`);
  if (platformAnswers)
    assert.deepEqual(
      answers.map((l) => l.text),
      platformAnswers,
      `every answer once, in the platform's order (${context})`,
    );
  assert.ok(
    answers.every((l) => !l.streaming && !l.interrupted && l.note === undefined && l.text.length > 0),
    `every answer complete, read as an answer (${context})`,
  );
  assert.equal(new Set(lines.map((l) => l.id)).size, lines.length, `no line twice (${context})`);
  assert.ok(
    lines.some((l) => l.role === 'notice' && /^Reconnected by itself \(\d+ times\)/.test(l.text)),
    `the playground said it reconnected (${context})`,
  );
}
