// A replay in a few sentences (the editor's notifications, a promotion's confirmation): replays of conversations made
// through the Chat API of the local support agent in live, read back through the Conversations API.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  changedGroups,
  groupCasesFileName,
  replayNotes,
  replaySummary,
  trafficLineFilters,
  trafficLineProblem,
} from '../../../../src/agentTests/compare/replaySummary';
import { replayTraffic } from '../../../../src/agentTests/compare/replayTraffic';
import { selectTraffic } from '../../../../src/agentTests/compare/trafficSelection';
import { AgentsClient } from '../../../../src/client/agents';
import { ChatClient } from '../../../../src/client/chat';
import { ClientContext } from '../../../../src/client/context';
import { ConversationsClient } from '../../../../src/client/conversations';
import { Transport } from '../../../../src/client/transport';
import { localSide } from '../../../../src/cli/compareTargets';
import { LOCAL_PROJECT } from '../../../../src/localPlatform/seed/credentials';
import { localContext, localCredentials, localProfile } from '../../../support/localClient';
import { assumed, useLocalPlatform } from '../../../support/localPlatform';

const NOW = new Date('2026-12-03T12:00:00Z');
const LABELS = { source: 'live', candidate: 'sandbox' };

describe('a replay in a few sentences', () => {
  const t = useLocalPlatform();

  it('[CONV-5] [CONV-10] a filter line is checked as it is typed: each problem says what to fix; a good line is the filters with their source', () => {
    assert.equal(trafficLineProblem('--since 7d --channel WEBCHAT --handoff --sample 50 --limit 200', NOW), undefined);
    assert.equal(trafficLineProblem('', NOW), undefined);
    assert.match(trafficLineProblem('--since yesterday', NOW) ?? '', /--since must be an ISO 8601 date or time/);
    assert.match(trafficLineProblem('--sample 5 --search refund', NOW) ?? '', /cannot be used together/);
    assert.match(trafficLineProblem('--variant A --variant-id v1', NOW) ?? '', /by id or by name, not both/);
    assert.match(trafficLineProblem('refund', NOW) ?? '', /write each as a flag, such as --search "refund"/);
    assert.match(trafficLineProblem('--handoff --no-handoff', NOW) ?? '', /not both/);
    assert.match(trafficLineProblem('--limit many', NOW) ?? '', /--limit/);
    assert.deepEqual(trafficLineFilters('--sample 20 --channel CHAT', 'pre-release', NOW), {
      sample: true,
      count: 20,
      channels: ['CHAT'],
      source: 'pre-release',
    });
  });

  it("a group's file is named after it, never over a name taken", () => {
    assert.equal(groupCasesFileName('answer changed', []), 'replayed-answer-changed.yaml');
    assert.equal(
      groupCasesFileName('handoff changed', ['replayed-handoff-changed.yaml', 'Replayed-Handoff-Changed-2.yaml']),
      'replayed-handoff-changed-3.yaml',
    );
  });

  it('[CONV-18] the summary counts each group; the notes say why conversations were not replayed or the replay stopped, and what to do', async (ctx) => {
    if (assumed('PATCH of a knowledge topic', ctx)) return;
    const transport = new Transport();
    try {
      const live = await localSide(t.lp, 'live', transport)({ agent: 'ag_support' });
      if ('skip' in live) throw new Error(live.skip);
      for (const lines of [['Can I return an item?'], ['What are your opening hours?'], []]) {
        const { conversation_id: id } = await live.chat.create({});
        for (const message of lines) await live.chat.respond({ conversation_id: id, message });
        await live.chat.close(id);
      }
      const agents = new AgentsClient(localContext(t.lp));
      await agents.updateTopic('ag_support', 'br_support_main', 'kt_returns', {
        content: 'You can return any item within 14 days of delivery for a full refund.',
      });
      await agents.publish('ag_support', 'sandbox', 'Shorter returns window');
      const traffic = new ConversationsClient(localContext(t.lp));
      const { conversations } = await selectTraffic(traffic, { source: 'live' });
      const result = await replayTraffic(conversations, {
        candidate: localSide(t.lp, 'sandbox', transport),
        concurrency: 2,
      });
      assert.equal(changedGroups(result), 'answer changed 1');
      assert.equal(
        replaySummary(result, LABELS),
        'Replayed 2 of 3 conversations of live against sandbox: 1 unchanged, 1 changed (answer changed 1), 0 failed, 1 not replayed.',
      );
      assert.deepEqual(replayNotes(result, LABELS), [
        '1 conversation(s) were not replayed: the caller said nothing to replay (only the greeting). They are counted in the report; narrow the filters (--search, --channel) to conversations where the caller spoke.',
      ]);

      await t.admin.setProjectSettings(LOCAL_PROJECT.slug, { transcriptVisibility: false });
      const hidden = await selectTraffic(traffic, { source: 'live' });
      const none = await replayTraffic(hidden.conversations, {
        candidate: localSide(t.lp, 'sandbox', transport),
        concurrency: 2,
      });
      const [note] = replayNotes(none, LABELS);
      assert.match(
        note ?? '',
        /^3 conversation\(s\) of live were not replayed: their records list no turns \(transcript visibility is off/,
      );
      assert.match(note ?? '', /Turn transcript visibility on in the project's settings/);
      await t.admin.setProjectSettings(LOCAL_PROJECT.slug, { transcriptVisibility: true });

      const down = new ChatClient(
        new ClientContext(
          { ...localProfile(t.lp), runtimeUrl: 'http://127.0.0.1:9' },
          async (id) => localCredentials[id],
          transport,
        ),
      );
      const stopped = await replayTraffic(conversations, {
        candidate: () => ({ chat: down }),
        concurrency: 1,
        unreachableAfter: 1,
      });
      assert.match(
        replayNotes(stopped, LABELS)[0] ?? '',
        /^The replay stopped: the candidate could not be reached: .*\. \d of 3 conversations finished and are kept in the report\. Check that sandbox is deployed and that its Chat key and connector token are set \(Set Keys\), then replay again\.$/,
      );
      const controller = new AbortController();
      controller.abort();
      const cancelled = await replayTraffic(conversations, {
        candidate: localSide(t.lp, 'sandbox', transport),
        concurrency: 1,
        signal: controller.signal,
      });
      assert.match(replaySummary(cancelled, LABELS), /3 not sent\. Cancelled: what finished is kept\.$/);
    } finally {
      transport.dispose();
    }
  });
});
