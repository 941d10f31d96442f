// The chat playground's messaging mode under chaos: a seeded run of 100 random drops and delays of the WebSocket
// while answers stream, against the real local platform in its full and spec-only modes. The playground's model (the
// transcript the panel shows, fed by the messaging mode as in the editor) must show every message once and in order,
// the platform must have been sent nothing twice, and what was not confirmed must be said.
import { describe, it } from 'node:test';
import { MessagingClient } from '../../../../src/client/messaging';
import { SYSTEM_ERRORS } from '../../../../src/contract/messaging';
import { messagingOf } from '../../../../src/localPlatform/messaging/store';
import type { ResponsesMode } from '../../../../src/localPlatform/responsesMode';
import { startLocalPlatform } from '../../../../src/localPlatform/server';
import { plainL10n } from '../../../../src/ui/common/l10n';
import { ChatTranscript } from '../../../../src/ui/panels/chat/chatTranscript';
import { MessagingBackend } from '../../../../src/ui/panels/chat/messagingBackend';
import { chatThroughChaos, checkChaosConversation, SPEC_ONLY_SERVER_NAMES } from '../../../support/chatChaos';
import { LocalAdmin } from '../../../support/localAdmin';
import { localContext } from '../../../support/localClient';
import { until } from '../../../support/until';

/** How many drops and delays each run makes, and its seed (a failure names both, and the run replays from them). */
const DISRUPTIONS = Number(process.env.CHAT_CHAOS_DISRUPTIONS ?? 100);
const SEED = Number(process.env.CHAT_CHAOS_SEED ?? 20261203);
const MODES: readonly ResponsesMode[] = process.env.CHAT_CHAOS_MODE
  ? [process.env.CHAT_CHAOS_MODE as ResponsesMode]
  : ['full', 'spec-only'];

describe(
  'chat playground, messaging mode, under chaos: random drops and delays while answers stream',
  {
    concurrency: true,
  },
  () => {
    for (const mode of MODES) {
      it(`[MSG-26][MSG-17][MSG-24] ${DISRUPTIONS} random drops and delays (${mode} platform): every message shown once and in order, nothing sent twice, what was not confirmed said`, async () => {
        const lp = await startLocalPlatform({
          // The platform's usual pace between pieces (CHAT_CHAOS_STREAM_MS changes it).
          streamDelayMs: Number(process.env.CHAT_CHAOS_STREAM_MS ?? 40),
          seed: 'base',
          responses: mode,
        });
        const transcript = new ChatTranscript(
          plainL10n,
          { mode: 'messaging', streaming: true, target: { label: 'Support Desk' } },
          () => undefined,
        );
        const backend = new MessagingBackend(
          new MessagingClient(localContext(lp)),
          transcript,
          { newSession: () => undefined, draft: () => undefined },
          {
            l10n: plainL10n,
            serverEventNames: () => (mode === 'spec-only' ? SPEC_ONLY_SERVER_NAMES : {}),
            setServerEventName: () => Promise.resolve(),
            systemErrors: () => SYSTEM_ERRORS,
          },
        );
        try {
          await backend.start();
          await until('the greeting', () => transcript.all.some((l) => l.role === 'agent' && !l.streaming));
          const sessionId = Object.keys(messagingOf(lp.platform).sessions)[0]!;
          const run = await chatThroughChaos(
            {
              lines: () => transcript.all,
              status: () => transcript.status,
              send: (text) => backend.send(text),
              sendAgain: (line) => backend.fix('resend', line),
            },
            new LocalAdmin(lp.urls.admin),
            sessionId,
            { seed: SEED, disruptions: DISRUPTIONS, rate: Number(process.env.CHAT_CHAOS_RATE ?? 0.5), what: mode },
          );
          const rewritten = transcript
            .snapshot(Number.MAX_SAFE_INTEGER)
            .inspector.filter((e) => e.label.startsWith('sent again')).length;
          console.log(`chat chaos, ${run.context}, ${rewritten} written again by the session`);
          const platformAnswers = messagingOf(lp.platform).sessions[sessionId]!.events.flatMap((e) =>
            e.type === 'EVENT_TYPE_VIRTUAL_AGENT_MESSAGE' ? [String(e.payload.text)] : [],
          );
          checkChaosConversation(run, DISRUPTIONS, platformAnswers);
        } finally {
          backend.dispose();
          await lp.close();
        }
      });
    }
  },
);
