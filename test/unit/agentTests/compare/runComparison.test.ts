// Comparing two environments of the local support agent: pre-release (the base, what a promotion would replace)
// against sandbox (the candidate) after a changed returns topic is published there.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runComparison } from '../../../../src/agentTests/compare/runComparison';
import { parseTestFile } from '../../../../src/agentTests/parse';
import type { TestCase } from '../../../../src/agentTests/format';
import { AgentsClient } from '../../../../src/client/agents';
import { Transport } from '../../../../src/client/transport';
import { localSide } from '../../../../src/cli/compareTargets';
import { chatConnectorServing } from '../../../../src/localPlatform/chat/environmentConnectors';
import { localContext } from '../../../support/localClient';
import { assumed, useLocalPlatform } from '../../../support/localPlatform';

const AGENT = 'ag_support';
const MAIN = 'br_support_main';

const SUITE = `cases:
  - name: returns
    turns:
      - user: Can I return an item?
        contains: [30 days]
  - name: opening hours
    turns:
      - user: What are your opening hours?
        contains: [Monday to Saturday]
  - name: a person
    turns:
      - user: I want to speak to a person
        handoff: true
`;

function cases(text = SUITE): TestCase[] {
  const file = parseTestFile('compare.yaml', text);
  assert.deepEqual(file.problems, []);
  return [...file.cases];
}

describe('comparing two targets', () => {
  const t = useLocalPlatform();

  async function publishShorterReturns(): Promise<void> {
    const agents = new AgentsClient(localContext(t.lp));
    await agents.updateTopic(AGENT, MAIN, 'kt_returns', {
      content: 'You can return any item within 14 days of delivery for a full refund.',
    });
    await agents.publish(AGENT, 'sandbox', 'Shorter returns window');
  }

  it('a changed topic published to sandbox: its case flips pass to fail in every pair, a significant regression; the handoff moved elsewhere is reported on its turn', async (ctx) => {
    if (assumed('PATCH of a knowledge topic', ctx)) return;
    await publishShorterReturns();
    // The candidate's Chat connector hands off to another queue: the handoff still happens, somewhere else.
    assert.ok(chatConnectorServing(t.lp.platform, AGENT, 'pre-release'), 'the base keeps the seeded destination');
    const candidateConnector = chatConnectorServing(t.lp.platform, AGENT, 'sandbox');
    assert.ok(candidateConnector);
    candidateConnector.handoffDestination = 'billing-queue';
    const transport = new Transport();
    try {
      const suite = await runComparison(cases(), {
        base: localSide(t.lp, 'pre-release', transport),
        candidate: localSide(t.lp, 'sandbox', transport),
        concurrency: 4,
        repeat: 6,
      });
      const [returns, hours, person] = suite.cases;
      assert.equal(returns?.verdict.verdict, 'significant regression');
      assert.deepEqual([returns?.verdict.passToFail, returns?.verdict.failToPass, returns?.verdict.pairs], [6, 0, 6]);
      assert.ok(Math.abs((returns?.verdict.pValue ?? 0) - 0.03125) < 1e-9);
      assert.deepEqual(returns?.checks, [{ turn: 0, check: 'contains', passToFail: 6, failToPass: 0 }]);
      const turn = returns?.turns.find((x) => x.index === 0);
      assert.equal(turn?.answerChanged, 6);
      assert.deepEqual(
        turn?.diff.filter((p) => p.kind !== 'same').map((p) => [p.kind, p.text]),
        [
          ['removed', '30'],
          ['added', '14'],
          ['removed', ' Start a return from your order page or bring the item to any store with the receipt.'],
        ],
      );
      assert.equal(returns?.base.passRate, 1);
      assert.equal(returns?.candidate.passRate, 0);
      assert.equal(hours?.verdict.verdict, 'no significant change');
      assert.deepEqual(hours?.turns, []);
      assert.equal(person?.verdict.verdict, 'no significant change', 'handed off on both sides: the check holds');
      assert.equal(person?.handoffChanged, 6);
      assert.deepEqual(person?.turns.find((x) => x.index === 0)?.handoff, {
        base: 'human-support-queue',
        candidate: 'billing-queue',
        pairs: 6,
      });
      assert.equal(suite.verdict.verdict, 'significant regression');
      assert.deepEqual(suite.flipped, { passToFail: 1, failToPass: 0 });
      assert.equal(suite.handoffChanged, 1);
    } finally {
      transport.dispose();
    }
  });

  it('a single run of a flipped case is not enough to tell, and says how many runs would be', async (ctx) => {
    if (assumed('PATCH of a knowledge topic', ctx)) return;
    await publishShorterReturns();
    const transport = new Transport();
    try {
      const suite = await runComparison(cases().slice(0, 1), {
        base: localSide(t.lp, 'pre-release', transport),
        candidate: localSide(t.lp, 'sandbox', transport),
        concurrency: 2,
      });
      const verdict = suite.cases[0]?.verdict;
      assert.equal(verdict?.verdict, 'not enough runs to tell');
      assert.match(verdict?.reason ?? '', /at least 6 runs that differ are needed/);
      assert.match(verdict?.reason ?? '', /about 6 paired runs would give that many/);
    } finally {
      transport.dispose();
    }
  });
});
