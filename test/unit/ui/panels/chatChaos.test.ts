// The chat playground's messaging mode under chaos: a seeded run of 100 random drops and delays of the WebSocket
// while answers stream, against the real local platform in its full and spec-only modes. The playground's model (the
// transcript the panel shows, fed by the messaging mode as in the editor) must show every message once and in order,
// the platform must have been sent nothing twice, and what was not confirmed must be said.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Random } from '../../../../src/agentTests/perturb/random';
import { MessagingClient } from '../../../../src/client/messaging';
import { SYSTEM_ERRORS } from '../../../../src/contract/messaging';
import { ASSUMED_SERVER_EVENT_NAMES, type ServerEventNames } from '../../../../src/contract/serverEventNames';
import { messagingOf } from '../../../../src/localPlatform/messaging/store';
import type { ResponsesMode } from '../../../../src/localPlatform/responsesMode';
import { startLocalPlatform } from '../../../../src/localPlatform/server';
import { SPEC_ONLY_EVENT_NAMES } from '../../../../src/localPlatform/specOnlyEvents';
import type { ChatLine } from '../../../../src/protocol/chat';
import { plainL10n } from '../../../../src/ui/common/l10n';
import { ChatTranscript } from '../../../../src/ui/panels/chat/chatTranscript';
import { MessagingBackend, type MessagingEditor } from '../../../../src/ui/panels/chat/messagingBackend';
import { LocalAdmin } from '../../../support/localAdmin';
import { localContext } from '../../../support/localClient';
import { until } from '../../../support/until';

/** How many drops and delays each run makes, and its seed (a failure names both, and the run replays from them). */
const DISRUPTIONS = Number(process.env.CHAT_CHAOS_DISRUPTIONS ?? 100);
const SEED = Number(process.env.CHAT_CHAOS_SEED ?? 20261203);
/** How long a person reads a line that says "not confirmed" before pressing its Send again. */
const READ_MS = 2_000;

/** The names the spec-only mode gives the events the spec does not name, as a person would set them. */
const SPEC_ONLY_NAMES = Object.fromEntries(
  Object.entries(ASSUMED_SERVER_EVENT_NAMES).flatMap(([kind, ours]) =>
    SPEC_ONLY_EVENT_NAMES[ours] ? [[kind, SPEC_ONLY_EVENT_NAMES[ours]]] : [],
  ),
) as Partial<ServerEventNames>;

const QUESTIONS = [
  'what are your opening hours on Sunday?',
  'can I return an order after two weeks?',
  'how long does delivery take?',
  'do you ship abroad?',
];

/** What one chaotic conversation came to: what the person sent, what the platform received, what was shown. */
interface ChaosRun {
  sent: string[];
  sentAgain: string[];
  /** Every message the person wrote, in order: each question, and each Send again. */
  written: string[];
  received: string[];
  platformAnswers: string[];
  lines: ChatLine[];
  /** Messages the session wrote again by itself (lost with a connection, where the platform echoes). */
  rewritten: number;
  tally: { drops: number; delays: number };
}

async function chaoticConversation(mode: ResponsesMode, seed: number): Promise<ChaosRun> {
  const lp = await startLocalPlatform({
    streamDelayMs: Number(process.env.CHAT_CHAOS_STREAM_MS ?? 40),
    seed: 'base',
    responses: mode,
  });
  const admin = new LocalAdmin(lp.urls.admin);
  const editor: MessagingEditor = {
    l10n: plainL10n,
    serverEventNames: () => (mode === 'spec-only' ? SPEC_ONLY_NAMES : {}),
    setServerEventName: () => Promise.resolve(),
    systemErrors: () => SYSTEM_ERRORS,
  };
  const transcript = new ChatTranscript(
    plainL10n,
    { mode: 'messaging', streaming: true, target: { label: 'Support Desk' } },
    () => undefined,
  );
  const backend = new MessagingBackend(
    new MessagingClient(localContext(lp)),
    transcript,
    { newSession: () => undefined, draft: () => undefined },
    editor,
  );
  const lines = () => transcript.all;
  const answers = () => lines().filter((l) => l.role === 'agent' && !l.streaming);
  const detail = () =>
    `seed ${seed}, ${mode}; status ${JSON.stringify(transcript.status)}; last lines ${JSON.stringify(
      lines()
        .slice(-6)
        .map((l) => [l.id, l.role, l.text.slice(0, 40), l.streaming ?? false, l.note ?? '']),
    )}`;
  try {
    await backend.start();
    await until('the greeting', () => answers().length === 1, { timeoutMs: 20_000, detail });
    const sessionId = Object.keys(messagingOf(lp.platform).sessions)[0]!;
    await admin.addFault({
      family: 'messaging',
      path: sessionId,
      chaos: { seed, rate: Number(process.env.CHAT_CHAOS_RATE ?? 0.5), maxDelayMs: 300 },
      times: DISRUPTIONS,
    });
    const random = new Random(seed);
    const remaining = () => lp.platform.faults.list().reduce((n, f) => n + (f.chaos ? (f.times ?? 0) : 0), 0);
    const sent: string[] = [];
    const sentAgain: string[] = [];
    const written: string[] = [];
    const doubted = new Map<string, number>();
    /** What a person does with a line that says "not confirmed", once read: Send again. */
    const sendAgainWhatWasNotConfirmed = async () => {
      for (const line of lines()) {
        if (line.role !== 'user' || line.note !== 'not confirmed' || !line.fix) continue;
        const seen = doubted.get(line.id) ?? Date.now();
        doubted.set(line.id, seen);
        if (Date.now() - seen < READ_MS) continue;
        sentAgain.push(line.text);
        written.push(line.text);
        await backend.fix('resend', line);
      }
    };
    for (let i = 1; remaining() > 0 && i <= 400; i++) {
      const text = `Question ${i}: ${QUESTIONS[(i - 1) % QUESTIONS.length]}`;
      sent.push(text);
      written.push(text);
      await backend.send(text);
      // Now and then the next question is asked as soon as this answer starts, while it still streams.
      const impatient = random.next() < 0.5;
      await until(
        `the answer to question ${i}`,
        async () => {
          await sendAgainWhatWasNotConfirmed();
          const mine = lines().findIndex((l) => l.role === 'user' && l.text === text);
          return lines().some((l, at) => at > mine && l.role === 'agent' && (impatient || !l.streaming));
        },
        { timeoutMs: 60_000, detail },
      );
    }
    assert.equal(remaining(), 0, `the ${DISRUPTIONS} drops and delays were made (${detail()})`);
    // Everything settles: every question answered, nothing left sending, the connection open again.
    await until(
      'every answer, nothing waiting',
      async () => {
        await sendAgainWhatWasNotConfirmed();
        const received = await admin.receivedMessages(sessionId);
        return (
          transcript.status.state === 'open' &&
          answers().length === 1 + received.length &&
          !lines().some((l) => l.streaming) &&
          !lines().some((l) => l.role === 'user' && l.note === 'not confirmed' && l.fix)
        );
      },
      { timeoutMs: 60_000, detail },
    );
    const history = messagingOf(lp.platform).sessions[sessionId]!.events;
    return {
      sent,
      sentAgain,
      written,
      received: (await admin.receivedMessages(sessionId)).map((m) => m.text),
      platformAnswers: history.flatMap((e) =>
        e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE' ? [String(e.payload.text)] : [],
      ),
      lines: [...lines()],
      rewritten: transcript.snapshot(Number.MAX_SAFE_INTEGER).inspector.filter((e) => e.label.startsWith('sent again'))
        .length,
      tally: (await admin.messagingSessions()).find((s) => s.session_id === sessionId)!.chaos,
    };
  } finally {
    backend.dispose();
    await lp.close();
  }
}

function times(list: readonly string[], text: string): number {
  return list.filter((t) => t === text).length;
}

describe(
  'chat playground, messaging mode, under chaos: random drops and delays while answers stream',
  {
    concurrency: true,
  },
  () => {
    for (const mode of process.env.CHAT_CHAOS_MODE
      ? [process.env.CHAT_CHAOS_MODE as 'full']
      : (['full', 'spec-only'] as const)) {
      it(`[MSG-26][MSG-17][MSG-24] ${DISRUPTIONS} random drops and delays (${mode} platform): every message shown once and in order, nothing sent twice, what was not confirmed said`, async () => {
        const run = await chaoticConversation(mode, SEED);
        const { sent, sentAgain, received, lines } = run;
        const users = lines.filter((l) => l.role === 'user');
        const context = `seed ${SEED}, ${mode}: ${sent.length} questions, ${run.tally.drops} drops, ${run.tally.delays} delays, ${run.rewritten} written again by the session, ${sentAgain.length} sent again by the person`;
        console.log(`chat chaos, ${context}`);

        assert.equal(run.tally.drops + run.tally.delays, DISRUPTIONS, context);
        assert.ok(run.tally.drops > 0 && run.tally.delays > 0, `drops and delays both (${context})`);
        // Each message shown once, in the order written; a line marked "not confirmed" whose Send again was pressed
        // stays, marked, above the one sent again.
        assert.deepEqual(
          users.map((l) => l.text),
          run.written,
          `every message shown once, in the order written (${context})`,
        );
        const marked = users.filter((l) => l.note === 'not confirmed');
        assert.equal(marked.length, sentAgain.length, `each line marked not confirmed was sent again (${context})`);
        assert.ok(
          users.every((l) => l.note === undefined || (l.note === 'not confirmed' && l.fix === undefined)),
          `no Send again left on a line already sent again (${context})`,
        );
        // What the platform received: every question, none twice unless the person sent it again.
        for (const text of sent) {
          assert.ok(times(received, text) >= 1, `the platform received "${text}" (${context})`);
          assert.ok(
            times(received, text) <= times(run.written, text),
            `"${text}" reached the platform ${times(received, text)} times, written by the person ${times(run.written, text)} times (${context})`,
          );
        }
        // Every answer the platform gave, once, complete and in its order; each after its question.
        const shownAnswers = lines.filter((l) => l.role === 'agent');
        assert.deepEqual(
          shownAnswers.map((l) => l.text),
          run.platformAnswers,
          `every answer once, in order (${context})`,
        );
        assert.ok(
          shownAnswers.every((l) => !l.streaming && !l.interrupted && l.note === undefined),
          `every answer complete (${context})`,
        );
        assert.equal(new Set(lines.map((l) => l.id)).size, lines.length, `no line twice (${context})`);
        assert.ok(
          lines.some((l) => l.role === 'notice' && /^Reconnected by itself \(\d+ times\)/.test(l.text)),
          `the playground said it reconnected (${context})`,
        );
      });
    }
  },
);
