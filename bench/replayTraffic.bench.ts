// Replaying real traffic: 1,000 finished conversations of the demo week in live, read through the Conversations API
// and replayed against sandbox of the local support agent (its replays' records read back for their out-of-domain
// marks), 8 conversations at a time, against a bare loop making the same Chat API calls at the same concurrency,
// with the local platform in a process of its own.
import { replayPlanOf } from '../src/agentTests/compare/replayPlan';
import { replayTraffic } from '../src/agentTests/compare/replayTraffic';
import { selectTraffic } from '../src/agentTests/compare/trafficSelection';
import { recordReach } from '../src/agentTests/records/reach';
import type { ConversationRecord } from '../src/contract/conversations';
import { ChatClient } from '../src/client/chat';
import { ConversationsClient } from '../src/client/conversations';
import { Transport } from '../src/client/transport';
import { LocalAdmin } from '../test/support/localAdmin';
import { localContext } from '../test/support/localClient';
import { median } from '../test/support/median';
import { bench, type PlatformProcess, withPlatformProcess } from './platformProcess';

const CONVERSATIONS = 1_000;
const CONCURRENCY = 8;
const ROUNDS = 3;

/** The same conversations without the replay: create with the variant, a respond per line, close unless ended. */
async function bareLoop(chat: ChatClient, records: readonly ConversationRecord[]): Promise<void> {
  const plans = records.map((r) => replayPlanOf(r, 'bench.yaml'));
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      const plan = plans[next++];
      if (!plan || 'notReplayable' in plan) continue;
      const variant = plan.testCase.variant;
      const created = await chat.create(variant ? { variant_id: variant } : {});
      let ended = false;
      for (const turn of plan.turns) {
        if (ended) break;
        const reply = await chat.respond({ conversation_id: created.conversation_id, message: turn.user });
        ended = reply.end_conversation;
      }
      if (!ended) await chat.close(created.conversation_id);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/**
 * The demo week has fewer finished live conversations than the benchmark replays: the rest are recorded through the
 * admin API as copies of the week's first ones (their turns as recorded), a week earlier.
 */
async function topUp(server: PlatformProcess, conversations: ConversationsClient): Promise<void> {
  const week = await selectTraffic(conversations, { source: 'live', count: CONVERSATIONS });
  const admin = LocalAdmin.atOrigin(new URL(server.urls.runtime).origin);
  const missing = CONVERSATIONS - week.conversations.length;
  for (const record of week.conversations.slice(0, missing)) {
    const { id: _id, turns, started_at: startedAt, ...rest } = record;
    await admin.recordConversation({
      ...rest,
      environment: 'live',
      started_at: new Date(Date.parse(startedAt) - 7 * 86_400_000).toISOString(),
      turns: turns.map((t) => ({ ...t, user_input_datetime: undefined, agent_response_datetime: undefined })),
    } as Parameters<LocalAdmin['recordConversation']>[0]);
  }
}

async function main(server: PlatformProcess): Promise<void> {
  const transport = new Transport();
  const chat = new ChatClient(localContext(server, { transport }));
  const conversations = new ConversationsClient(localContext(server, { transport }));
  try {
    await topUp(server, conversations);
    const selection = await selectTraffic(conversations, { source: 'live', count: CONVERSATIONS });
    if (selection.conversations.length !== CONVERSATIONS)
      throw new Error(`${selection.conversations.length} conversations found: ${selection.nothingFound ?? ''}`);
    const records = selection.conversations;
    const replay = async (oodFrom: 'record' | 'answers' = 'record') => {
      const result = await replayTraffic(records, {
        candidate: () => ({ chat, records: recordReach(conversations, 'sandbox') }),
        concurrency: CONCURRENCY,
        oodFrom,
      });
      if (
        result.counts.failed > 0 ||
        result.unreachable ||
        result.counts.replayed + result.counts.notReplayed !== CONVERSATIONS
      )
        throw new Error(`the replay did not finish: ${JSON.stringify(result.counts)} ${result.unreachable ?? ''}`);
      return result;
    };
    await bareLoop(chat, records);
    const first = await replay();
    const bare: number[] = [];
    const run: number[] = [];
    const fromAnswers: number[] = [];
    // Alternated, so a busy moment of the machine falls on both.
    for (let i = 0; i < ROUNDS; i++) {
      let t0 = performance.now();
      await bareLoop(chat, records);
      bare.push(performance.now() - t0);
      t0 = performance.now();
      await replay();
      run.push(performance.now() - t0);
      t0 = performance.now();
      await replay('answers');
      fromAnswers.push(performance.now() - t0);
    }
    const name = `replaying ${CONVERSATIONS.toLocaleString('en')} local conversations of live against sandbox, ${CONCURRENCY} at a time`;
    console.log(
      `${first.counts.replayed} replayed (${first.counts.changed} changed, ${first.counts.notReplayed} not replayed); out of domain from ${first.conversations[0]?.oodFrom?.source ?? '?'}`,
    );
    bench(`${name}, bare loop of the same Chat API calls (floor)`, median(bare), 'ms', '');
    bench(`${name}, the replay (with each replay's record read back)`, median(run), 'ms', '< 60000');
    bench(`${name}: replay time / bare loop time`, median(run) / median(bare), 'x', '');
    bench(
      `${name}, the replay without reading records back (out of domain from the answers)`,
      median(fromAnswers),
      'ms',
      '',
    );
  } finally {
    transport.dispose();
  }
}

withPlatformProcess({ port: 0, seed: 'demo', demoAnchor: 'now', streamDelayMs: 0, alertEvaluationIntervalMs: 0 }, main);
