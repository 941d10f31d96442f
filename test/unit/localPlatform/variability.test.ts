// The local agent's variability: seeded answers that vary as a language model agent's do.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runComparison } from '../../../src/agentTests/compare/runComparison';
import { parseTestFile } from '../../../src/agentTests/parse';
import { ChatClient } from '../../../src/client/chat';
import { Transport } from '../../../src/client/transport';
import { localSide } from '../../../src/cli/compareTargets';
import { variabilityFlag } from '../../../src/localPlatform/engine/variability';
import { localContext } from '../../support/localClient';
import { useLocalPlatform } from '../../support/localPlatform';

const QUESTIONS = ['Can I return an item?', 'What are your opening hours?', 'How long is delivery?'];

describe('local platform: variability', () => {
  const t = useLocalPlatform();

  /** The answers of ten conversations asked the same questions one after another. */
  async function answers(): Promise<string[]> {
    const chat = new ChatClient(localContext(t.lp));
    const out: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { conversation_id } = await chat.create({});
      for (const message of QUESTIONS) out.push((await chat.respond({ conversation_id, message })).response);
      await chat.close(conversation_id);
    }
    return out;
  }

  it('off, the agent answers the same every time; on, a share of answers is reworded, and the same seed gives the same answers', async () => {
    const plain = await answers();
    assert.equal(new Set(plain).size, QUESTIONS.length, 'the deterministic agent: one answer per question');
    await t.admin.reset('base');
    await t.admin.setOptions({ variabilityRate: 0.5, variabilitySeed: 7 });
    const first = await answers();
    const changed = first.filter((a, i) => a !== plain[i]).length;
    assert.ok(changed >= 8 && changed <= 22, `about half of 30 answers vary, got ${changed}`);
    await t.admin.reset('base');
    await t.admin.setOptions({ variabilityRate: 0.5, variabilitySeed: 7 });
    assert.deepEqual(await answers(), first, 'the same seed, the same conversations: the same answers');
    await t.admin.reset('base');
    await t.admin.setOptions({ variabilityRate: 0.5, variabilitySeed: 8 });
    assert.notDeepEqual(await answers(), first, 'another seed, other answers');
    await t.admin.setOptions({ variabilityRate: 0 });
  });

  it('noise alone: two identical environments under variability read "no significant change"', async () => {
    await t.admin.setOptions({ variabilityRate: 0.5, variabilitySeed: 3, variabilityLatencyMs: 5 });
    // Checks that a rewording or another topic breaks, so runs differ often enough for the test to tell.
    const file = parseTestFile(
      'noise.yaml',
      `cases:
  - name: returns
    turns:
      - user: Can I return an item?
        contains: [You can return]
  - name: hours
    turns:
      - user: What are your opening hours?
        matches: ^Our stores
`,
    );
    assert.deepEqual(file.problems, []);
    const transport = new Transport();
    try {
      // One at a time: the conversations are made in the same order on every run, so the seed fixes the result.
      const suite = await runComparison(file.cases, {
        base: localSide(t.lp, 'pre-release', transport),
        candidate: localSide(t.lp, 'sandbox', transport),
        concurrency: 1,
        repeat: 20,
      });
      assert.ok(suite.verdict.passToFail + suite.verdict.failToPass >= 6, JSON.stringify(suite.verdict));
      assert.equal(suite.verdict.verdict, 'no significant change', suite.verdict.reason);
      for (const c of suite.cases)
        assert.ok(!c.verdict.verdict.startsWith('significant'), `${c.testCase.name}: ${c.verdict.reason}`);
    } finally {
      transport.dispose();
      await t.admin.setOptions({ variabilityRate: 0, variabilityLatencyMs: 0 });
    }
  });

  it('--variability RATE[:SEED] sets the options, and refuses what is not a rate', () => {
    assert.deepEqual(variabilityFlag('0.2:7'), { variabilityRate: 0.2, variabilitySeed: 7, variabilityLatencyMs: 20 });
    assert.deepEqual(variabilityFlag('0'), { variabilityRate: 0, variabilitySeed: 1, variabilityLatencyMs: 0 });
    assert.throws(() => variabilityFlag('1.5'), /--variability is RATE\[:SEED\]/);
    assert.throws(() => variabilityFlag('0.2:x'), /got "0.2:x"/);
  });
});
