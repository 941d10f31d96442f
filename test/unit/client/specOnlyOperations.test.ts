import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentsClient } from '../../../src/client/agents';
import { AlertsClient } from '../../../src/client/alerts';
import type { CreateAlertRuleRequest } from '../../../src/contract/alerts';
import { localContext } from '../../support/localClient';
import { validRule } from '../../support/alerts';
import { useLocalPlatform } from '../../support/localPlatform';

// The Agents and Alerts writes the spec shows, done by the client alone against a platform that has only the
// spec's endpoints: none of them needs one of our assumed reads. (Chat, Conversations, Concurrent Calls,
// Outbound, External Events, DNI and the messaging handshake run in the client suites of every mode.)

const AGENT = 'ag_support';

describe('client: every Agents and Alerts operation the spec shows, against the spec-only mode', () => {
  const t = useLocalPlatform({ responses: 'spec-only' });

  it('[AGENT-1][AGENT-2][AGENT-3][AGENT-4][AGENT-5] creates an agent and a branch, edits it and merges it', async () => {
    const agents = new AgentsClient(localContext(t.lp));
    const created = await agents.createAgent({ name: 'Spec only', description: 'Made where only the spec is.' });
    assert.match(created.agentId, /^ag_/);
    await agents.createBranch(AGENT, 'feature');
    // The spec does not show the new branch's id: here it is taken from the platform's state, as a person types it.
    const branchId = Object.values(t.lp.platform.state.agents.branches).find((b) => b.name === 'feature')!.branchId;
    assert.equal((await agents.updateBehavior(AGENT, branchId, 'Be brief.')).behavior, 'Be brief.');
    const topic = await agents.createTopic(AGENT, branchId, { name: 'Parking', content: 'Free after 6pm.' });
    assert.equal(topic.name, 'Parking');
    const merged = await agents.merge(AGENT, branchId);
    assert.equal(merged.merged, true);
  });

  it('[AGENT-6][AGENT-7][AGENT-8][AGENT-10][AGENT-11][AGENT-12] publishes, promotes, rolls back, sets variables and numbers', async () => {
    const agents = new AgentsClient(localContext(t.lp));
    const published = await agents.publish(AGENT, 'sandbox');
    assert.equal(published.deployment.environment, 'sandbox');
    const promoted = await agents.promote(AGENT, published.deployment.id);
    assert.ok(promoted.deployment.id);
    const rolled = await agents.rollback(AGENT, published.deployment.id);
    assert.ok(rolled.deployment.id);
    const vars = await agents.updateVariables(AGENT, 'store-settings', { holidayMode: true });
    assert.equal(vars.variables.holidayMode, true);
    const imported = await agents.importPhoneNumbers(AGENT, { phoneNumbers: ['+442071838752'] });
    assert.deepEqual(imported.imported, ['+442071838752']);
    const numbers = await agents.listPhoneNumbers(AGENT);
    assert.ok(numbers.some((n) => n.number === '+442071838752'));
  });

  it('[ALERT-8][HOOK-1] creates a rule, changes it by id, reads current alerts and creates a webhook endpoint', async () => {
    const alerts = new AlertsClient(localContext(t.lp));
    const rule = await alerts.createRule(validRule() as CreateAlertRuleRequest);
    assert.match(rule.id, /^ar_/);
    assert.equal((await alerts.updateRule(rule.id, { enabled: false })).enabled, false);
    assert.ok(Array.isArray(await alerts.currentAlerts()));
    const hook = await alerts.createEndpoint({
      name: 'Pager',
      url: 'http://127.0.0.1:9/hooks',
      event_types: ['alerts.triggered'],
    });
    assert.ok(hook.signing_secret);
  });
});
