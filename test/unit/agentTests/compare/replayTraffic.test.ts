// Replaying real traffic: conversations made through the Chat API of the local support agent in live (the source of
// truth), read back through the Conversations API, and sent again to sandbox, where a changed returns topic has been
// published through the Agents API.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replayedCasesFile } from '../../../../src/agentTests/compare/replayPlan';
import { casesOfGroup, replayTraffic } from '../../../../src/agentTests/compare/replayTraffic';
import { selectTraffic } from '../../../../src/agentTests/compare/trafficSelection';
import { parseTestFile } from '../../../../src/agentTests/parse';
import type { ChatConversations } from '../../../../src/agentTests/results';
import { runCases } from '../../../../src/agentTests/runner';
import { AgentsClient } from '../../../../src/client/agents';
import { ChatClient } from '../../../../src/client/chat';
import { ClientContext } from '../../../../src/client/context';
import { ConversationsClient } from '../../../../src/client/conversations';
import { Transport } from '../../../../src/client/transport';
import { localSide } from '../../../../src/cli/compareTargets';
import { LOCAL_PROJECT } from '../../../../src/localPlatform/seed/credentials';
import { localContext, localCredentials, localProfile } from '../../../support/localClient';
import { answers, judged } from '../judgedModel';
import { assumed, useLocalPlatform } from '../../../support/localPlatform';

const AGENT = 'ag_support';
const MAIN = 'br_support_main';

/** What callers say, by kind of conversation; `returns` marks those that reach the returns topic. */
const SCRIPTS: { lines: string[]; returns: boolean }[] = [
  { lines: ['What are your opening hours?', 'Thanks, that helps. Bye!'], returns: false },
  { lines: ['Can I return something without the receipt?'], returns: true },
  { lines: ['How long does delivery take?', "That's all, thank you."], returns: false },
  { lines: ['Can you book me a taxi?'], returns: false },
  { lines: ['What are your opening hours?', 'How long do I have to return an item?'], returns: true },
  { lines: ['Can I speak to a person, please?'], returns: false },
  { lines: ['Is delivery free?', 'Do you sell concert tickets?'], returns: false },
];

/** Runs `fn` with a transport of its own, disposed afterwards. */
async function withTransport(fn: (transport: Transport) => Promise<void>): Promise<void> {
  const transport = new Transport();
  try {
    await fn(transport);
  } finally {
    transport.dispose();
  }
}

describe('replaying real traffic', () => {
  const t = useLocalPlatform();

  function side(environment: 'live' | 'sandbox', transport: Transport) {
    return localSide(t.lp, environment, transport);
  }

  async function chatOf(environment: 'live' | 'sandbox', transport: Transport): Promise<ChatConversations> {
    const target = await side(environment, transport)({ agent: AGENT });
    if ('skip' in target) throw new Error(target.skip);
    return target.chat;
  }

  /** `count` conversations in live, made as callers make them: returns which reached the returns topic. */
  async function liveTraffic(count: number, transport: Transport): Promise<{ returns: Set<string>; all: string[] }> {
    const chat = await chatOf('live', transport);
    const returns = new Set<string>();
    const all: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const script = SCRIPTS[next++ % SCRIPTS.length]!;
        const { conversation_id: id } = await chat.create({});
        all.push(id);
        if (script.returns) returns.add(id);
        let ended = false;
        for (const message of script.lines) {
          const reply = await chat.respond({ conversation_id: id, message });
          ended = reply.end_conversation;
        }
        if (!ended) await chat.close(id);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return { returns, all };
  }

  async function publishShorterReturns(): Promise<void> {
    const agents = new AgentsClient(localContext(t.lp));
    await agents.updateTopic(AGENT, MAIN, 'kt_returns', {
      content: 'You can return any item within 14 days of delivery for a full refund.',
    });
    await agents.publish(AGENT, 'sandbox', 'Shorter returns window');
  }

  const traffic = () => new ConversationsClient(localContext(t.lp));

  it('[CONV-9] 200 live conversations replayed against sandbox with a changed topic: "answer changed" is exactly those that reached it, the others unchanged', async (ctx) => {
    if (assumed('PATCH of a knowledge topic', ctx)) return;
    await withTransport(async (transport) => {
      const made = await liveTraffic(200, transport);
      await publishShorterReturns();
      const selection = await selectTraffic(traffic(), { source: 'live', count: 200 });
      assert.equal(selection.conversations.length, 200, selection.nothingFound);
      assert.deepEqual(new Set(selection.conversations.map((c) => c.id)), new Set(made.all));
      const progress: number[] = [];
      const result = await replayTraffic(selection.conversations, {
        candidate: side('sandbox', transport),
        concurrency: 8,
        listener: { conversationReplayed: (_c, p) => progress.push(p.done + p.left) },
      });
      assert.equal(result.counts.replayed, 200);
      assert.equal(result.counts.failed, 0);
      assert.deepEqual(new Set(result.groups['answer changed']), made.returns);
      assert.equal(result.groups['answer changed'].length, made.returns.size);
      for (const kind of [
        'handoff changed',
        'ended earlier',
        'ended later',
        'out of domain now',
        'no longer out of domain',
      ] as const)
        assert.deepEqual(result.groups[kind], [], kind);
      assert.equal(result.counts.unchanged, 200 - made.returns.size);
      assert.ok(progress.length === 200 && progress.every((n) => n === 200), 'done + left is the total each time');
      const changed = result.conversations.find((c) => c.groups.includes('answer changed'));
      const turn = changed?.turns.find((x) => !x.same);
      assert.deepEqual(
        turn?.diff.filter((p) => p.kind !== 'same').map((p) => [p.kind, p.text]),
        [
          ['removed', '30'],
          ['added', '14'],
          ['removed', ' Start a return from your order page or bring the item to any store with the receipt.'],
        ],
      );
      // Out of domain read from the replays' own records on sandbox.
      assert.deepEqual(
        result.conversations.filter((c) => c.oodFrom?.source !== 'record').map((c) => c.oodFrom),
        [],
      );
      const taxi = result.conversations.find((c) => c.turns.some((x) => x.user === 'Can you book me a taxi?'));
      assert.deepEqual(taxi?.turns[1]?.ood, { original: true, replayed: true });
    });
  });

  it('the changed conversations saved as test cases parse without problems and pass against the original target; against the candidate they fail', async (ctx) => {
    if (assumed('PATCH of a knowledge topic', ctx)) return;
    await withTransport(async (transport) => {
      await liveTraffic(21, transport);
      await publishShorterReturns();
      const selection = await selectTraffic(traffic(), { count: 50 });
      const result = await replayTraffic(selection.conversations, {
        candidate: side('sandbox', transport),
        concurrency: 4,
      });
      const changed = result.conversations.filter((c) => c.groups.length > 0);
      assert.equal(changed.length, 6);
      const text = casesOfGroup(result, 'answer changed', AGENT) ?? '';
      assert.equal(text, replayedCasesFile(changed, AGENT));
      const file = parseTestFile('tests/replayed.yaml', text);
      assert.deepEqual(file.problems, []);
      assert.deepEqual(
        file.cases.map((c) => c.name),
        changed.map((c) => c.id),
      );
      const against = async (environment: 'live' | 'sandbox') =>
        runCases(file.cases, { target: side(environment, transport), concurrency: 4 });
      assert.deepEqual(
        (await against('live')).map((r) => r.outcome),
        changed.map(() => 'passed'),
      );
      assert.deepEqual(
        (await against('sandbox')).map((r) => r.outcome),
        changed.map(() => 'failed'),
      );
      // The whole traffic, saved: the original's ends and handoffs pinned, still passing against live.
      const all = replayedCasesFile(result.conversations);
      assert.match(all, /handoff: \{ destination: "human-support-queue"/);
      assert.match(all, /end: true/);
      const whole = parseTestFile('tests/all.yaml', all);
      assert.deepEqual(whole.problems, []);
      const live = await runCases(whole.cases, { target: side('live', transport), concurrency: 4 });
      assert.deepEqual(
        live.filter((r) => r.outcome !== 'passed').map((r) => r.testCase.name),
        [],
      );
    });
  });

  it('with a model, an answer whose words changed is judged: reworded but the same is no change, a changed meaning is', async (ctx) => {
    if (assumed('PATCH of a knowledge topic', ctx)) return;
    await withTransport(async (transport) => {
      await liveTraffic(7, transport);
      await publishShorterReturns();
      const selection = await selectTraffic(traffic(), {});
      const real = await chatOf('sandbox', transport);
      // The candidate words its opening hours otherwise.
      const candidate: ChatConversations = {
        create: (r, s) => real.create(r, s),
        close: (id, s) => real.close(id, s),
        respond: async (r, s) => {
          const reply = await real.respond(r, s);
          return /opening hours/.test(r.message ?? '') ? { ...reply, response: `Sure! ${reply.response}` } : reply;
        },
      };
      const model = await answers([
        (text) =>
          /same information/.test(text)
            ? /14 days/.test(text)
              ? judged('fail', 'the returns window is shorter', [])
              : judged('pass', 'the same hours', [])
            : undefined,
      ]);
      const result = await replayTraffic(selection.conversations, {
        candidate: () => ({ chat: candidate }),
        concurrency: 2,
        model: { calls: model.calls },
      });
      const returns = result.conversations.filter((c) => c.turns.some((x) => /return/.test(x.user ?? '')));
      assert.deepEqual(new Set(result.groups['answer changed']), new Set(returns.map((c) => c.id)));
      assert.equal(result.counts.reworded, 2, 'both opening-hours answers: reworded, judged the same');
      assert.equal(model.requests.length, 4, 'one call per answer whose words changed');
      const hours = result.conversations.find((c) => c.turns[1]?.user === 'What are your opening hours?');
      assert.deepEqual(hours?.turns[1]?.meaning, { verdict: 'same', reason: 'the same hours' });
      const changed = returns[0]?.turns.find((x) => !x.same && x.user && /return/.test(x.user));
      assert.deepEqual(changed?.meaning, { verdict: 'changed', reason: 'the returns window is shorter' });
    });
  });

  it('handoff changed, ended earlier and ended later, each said on its turn', async () => {
    await withTransport(async (transport) => {
      const chat = await chatOf('live', transport);
      // A goodbye the agent ended; a person asked for; a caller who left after a question.
      const ids: string[] = [];
      for (const lines of [['What are your opening hours?', 'OK, bye.'], ['I want to talk to a real person.']]) {
        const { conversation_id: id } = await chat.create({});
        ids.push(id);
        for (const message of lines) await chat.respond({ conversation_id: id, message });
        await chat.close(id);
      }
      const selection = await selectTraffic(traffic(), {});
      // The candidate: a Chat API that says goodbye without ending and hands off nowhere.
      const real = await chatOf('sandbox', transport);
      const candidate: ChatConversations = {
        create: (r, s) => real.create(r, s),
        close: (id, s) => real.close(id, s),
        respond: async (r, s) => {
          const reply = await real.respond(r, s);
          const { handoff: _h, ...rest } = reply;
          return r.message === 'OK, bye.' ? { ...rest, end_conversation: false } : rest;
        },
      };
      const result = await replayTraffic(selection.conversations, {
        candidate: () => ({ chat: candidate }),
        concurrency: 1,
      });
      const [goodbye, person] = ids.map((id) => result.conversations.find((c) => c.id === id));
      assert.deepEqual(goodbye?.groups, ['ended later']);
      assert.match(goodbye?.changes[0]?.detail ?? '', /no longer ends the conversation at turn 2/);
      assert.deepEqual(person?.groups, ['handoff changed']);
      assert.match(
        person?.changes[0]?.detail ?? '',
        /no handoff now; the original was handed off to human-support-queue/,
      );
      const early: ChatConversations = {
        ...candidate,
        respond: async (r, s) => ({ ...(await real.respond(r, s)), end_conversation: true }),
      };
      const again = await replayTraffic(
        selection.conversations.filter((c) => c.id === ids[0]),
        { candidate: () => ({ chat: early }), concurrency: 1 },
      );
      assert.equal(again.counts.failed, 0);
      assert.deepEqual(again.conversations[0]?.groups, ['ended earlier']);
      assert.equal(again.conversations[0]?.turns[2]?.replayed, undefined, 'the line after the end is not sent');
    });
  });

  it('[CONV-18] conversations whose record lists no turns (transcript visibility off) or whose caller said nothing are not replayed, and counted with the reason', async () => {
    await withTransport(async (transport) => {
      await liveTraffic(3, transport);
      const chat = await chatOf('live', transport);
      for (let i = 0; i < 2; i++) await chat.close((await chat.create({})).conversation_id);
      const seen = await selectTraffic(traffic(), {});
      const result = await replayTraffic(seen.conversations, { candidate: side('sandbox', transport), concurrency: 2 });
      assert.equal(result.counts.replayed, 3);
      assert.equal(result.counts.notReplayed, 2);
      assert.deepEqual(result.notReplayedReasons, [
        { reason: 'the caller said nothing to replay (only the greeting)', count: 2 },
      ]);
      await t.admin.setProjectSettings(LOCAL_PROJECT.slug, { transcriptVisibility: false });
      const hidden = await selectTraffic(traffic(), {});
      assert.equal(hidden.conversations.length, 5);
      const none = await replayTraffic(hidden.conversations, { candidate: side('sandbox', transport), concurrency: 2 });
      assert.equal(none.counts.replayed, 0);
      assert.equal(none.counts.notReplayed, 5);
      assert.match(
        none.notReplayedReasons.map((r) => r.reason).join('\n'),
        /transcript visibility is off for the project: the record counts 3 turn\(s\) and lists none/,
      );
    });
  });

  it('[CONV-4] a filter that finds nothing says so and what to change; handoff and out-of-domain filters read the records', async () => {
    await withTransport(async (transport) => {
      await liveTraffic(14, transport);
      const voice = await selectTraffic(traffic(), { channels: ['VOICE-SIP'] });
      assert.equal(voice.conversations.length, 0);
      assert.match(voice.nothingFound ?? '', /No finished conversation of live matches: on VOICE-SIP\./);
      assert.match(voice.nothingFound ?? '', /drop --channel or name another channel/);
      const sandbox = await selectTraffic(traffic(), { source: 'sandbox', search: 'refund' });
      assert.match(sandbox.nothingFound ?? '', /of sandbox matches: .*with "refund" in the transcript/);
      assert.match(sandbox.nothingFound ?? '', /check --source/);
      const handedOff = await selectTraffic(traffic(), { handoff: true });
      assert.equal(handedOff.conversations.length, 2);
      assert.ok(handedOff.conversations.every((c) => c.handoff));
      const ood = await selectTraffic(traffic(), { ood: true, count: 1 });
      assert.equal(ood.conversations.length, 1);
      const noneOod = await selectTraffic(traffic(), { ood: true, channels: ['CHAT'], handoff: true });
      assert.match(
        noneOod.nothingFound ?? '',
        /gave 14 conversation\(s\) for the other filters, and none of them is handed off and with an out-of-domain turn: leave out --handoff or --ood/,
      );
      const sample = await selectTraffic(traffic(), { sample: true, count: 5 });
      assert.equal(sample.conversations.length, 5);
      assert.equal(sample.query.sample, 'random');
      assert.ok(sample.query.start_time && sample.query.end_time, 'a sample sends both ends of the range');
    });
  });

  it('cancelling keeps what finished and closes every conversation it opened', async () => {
    await withTransport(async (transport) => {
      await liveTraffic(40, transport);
      const selection = await selectTraffic(traffic(), {});
      const controller = new AbortController();
      const result = await replayTraffic(selection.conversations, {
        candidate: side('sandbox', transport),
        concurrency: 2,
        signal: controller.signal,
        listener: { conversationReplayed: (_c, p) => p.done === 5 && controller.abort() },
      });
      assert.equal(result.cancelled, true);
      assert.ok(result.conversations.length >= 5 && result.conversations.length < 40, `${result.conversations.length}`);
      assert.ok(result.conversations.every((c) => c.status === 'replayed'));
      assert.equal(result.counts.notSent, 40 - result.conversations.length);
      const open = t.lp.platform.state.conversations.filter((c) => c.environment === 'sandbox' && c.in_progress);
      assert.deepEqual(
        open.map((c) => c.id),
        [],
      );
    });
  });

  it('a candidate that cannot be reached says so, stops, and keeps what was done', async () => {
    await withTransport(async (transport) => {
      await liveTraffic(30, transport);
      const selection = await selectTraffic(traffic(), {});
      const down = new ChatClient(
        new ClientContext(
          { ...localProfile(t.lp), runtimeUrl: 'http://127.0.0.1:9' },
          async (id) => localCredentials[id],
          transport,
        ),
      );
      const working = await chatOf('sandbox', transport);
      let creates = 0;
      // Up for the first ten conversations, then gone.
      const candidate: ChatConversations = {
        create: (r, s) => (++creates <= 10 ? working.create(r, s) : down.create(r, s)),
        respond: (r, s) => working.respond(r, s),
        close: (id, s) => working.close(id, s),
      };
      const result = await replayTraffic(selection.conversations, {
        candidate: () => ({ chat: candidate }),
        concurrency: 1,
      });
      assert.equal(result.counts.replayed, 10);
      assert.equal(result.counts.failed, 3, 'three conversations in a row could not reach it');
      assert.equal(result.counts.notSent, 17);
      assert.match(result.unreachable ?? '', /^the candidate could not be reached: /);
      const all = await replayTraffic(selection.conversations.slice(0, 5), {
        candidate: () => ({ chat: down }),
        concurrency: 2,
      });
      assert.equal(all.counts.replayed, 0);
      assert.ok(all.unreachable);
    });
  });
});
