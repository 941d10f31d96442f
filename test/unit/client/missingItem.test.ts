import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentsClient } from '../../../src/client/agents';
import { AlertsClient } from '../../../src/client/alerts';
import { itemOfPath } from '../../../src/client/itemWords';
import { OutboundClient } from '../../../src/client/outbound';
import { failure, localContext } from '../../support/localClient';
import { RESPONSES, useLocalPlatform } from '../../support/localPlatform';

/** A 404 from an assumed endpoint that names one item cannot tell a missing item from a missing endpoint. */
describe('client: a 404 on an assumed single-item endpoint', () => {
  const t = useLocalPlatform();

  const inSpecOnlyMode = async (check: () => Promise<void>): Promise<void> => {
    await t.admin.setResponses('spec-only');
    try {
      await check();
    } finally {
      await t.admin.setResponses(RESPONSES);
    }
  };

  it('names the item its path holds', () => {
    assert.equal(itemOfPath('/v1/agents/ag_1/branches/br_2/knowledge-base/topics/tp_3'), 'topic tp_3');
    assert.equal(itemOfPath('/v1/webhook-endpoints/we_1/rotate-secret'), 'webhook endpoint we_1');
    assert.equal(itemOfPath('/v1/agents/ag_1/deployments/dp_9'), 'deployment dp_9');
    assert.equal(itemOfPath('/v1/outbound-calling/CA%201'), 'call CA 1');
  });

  it('says either the item does not exist or the platform has no such endpoint, naming the row and the manual path', async () => {
    await inSpecOnlyMode(async () => {
      const alerts = new AlertsClient(localContext(t.lp));
      for (const [attempt, item, row, manual] of [
        [alerts.getEndpoint('we_000001'), 'webhook endpoint we_000001', /Other webhook-endpoint operations/, /studio/],
        [alerts.rotateSecret('we_000001'), 'webhook endpoint we_000001', /Rotate-signing-secret path/, /studio/],
      ] as const) {
        const err = await failure(attempt);
        assert.equal(err.status, 404);
        assert.equal(err.unconfirmed?.resource, item);
        assert.equal(err.assumption, undefined, 'not told as a missing endpoint for sure');
        assert.match(err.message, new RegExp(`either ${item} does not exist or this platform has no such endpoint`));
        assert.match(err.message, /assumption: row "/);
        assert.match(err.message, row);
        assert.match(err.message, manual);
        assert.doesNotMatch(err.message, /it was not found/);
      }
      // PATCH is shown on that path: the 405 says for sure that DELETE is not there.
      const deleted = await failure(alerts.deleteRule('ar_000001'));
      assert.equal(deleted.status, 405);
      assert.equal(deleted.unconfirmed, undefined);
      assert.match(deleted.message, /does not seem to offer the endpoint/);
      const agents = new AgentsClient(localContext(t.lp));
      const topic = await failure(agents.getTopic('ag_1', 'br_1', 'tp_1'));
      assert.match(topic.message, /either topic tp_1 does not exist or this platform has no such endpoint/);
      const deployment = await failure(agents.getDeployment('ag_1', 'dp_1'));
      assert.match(deployment.message, /either deployment dp_1 does not exist/);
      const call = await failure(new OutboundClient(localContext(t.lp)).callStatus('CA0001'));
      assert.match(call.message, /either call CA0001 does not exist or this platform has no such endpoint/);
    });
  });

  it('a 404 that names the item (the platform has the endpoint) stays an ordinary not-found', async (ctx) => {
    if (RESPONSES === 'spec-only') return ctx.skip('needs GET /v1/webhook-endpoints/{id}');
    const err = await failure(new AlertsClient(localContext(t.lp)).getEndpoint('we_999999'));
    assert.equal(err.unconfirmed, undefined);
    assert.match(err.message, /it was not found/);
  });
});
