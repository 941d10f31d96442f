import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messagingOf } from '../../../src/localPlatform/messaging/store';
import { LOCAL_CONNECTORS } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

describe('messaging sessions over time', () => {
  const t = useLocalPlatform();

  it('[MSG-25] an expired session cannot be resumed and is forgotten an hour later', async () => {
    const token = await call<{ access_token: string }>('POST', `${t.lp.urls.messaging}/api/v1/access-token`, {
      headers: { 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': LOCAL_CONNECTORS.webchatHost },
      body: {},
    });
    const session = await call<{ session_id: string }>('POST', `${t.lp.urls.messaging}/api/v1/sessions`, {
      headers: { authorization: `Bearer ${token.body.access_token}` },
      body: {},
    });
    const id = session.body.session_id;
    assert.ok(messagingOf(t.lp.platform).sessions[id]);
    // Past the inactivity expiry, then an hour more: the sweep runs every second of wall time.
    await t.admin.advanceClock(11 * 60_000);
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal(messagingOf(t.lp.platform).sessions[id]?.status, 'expired');
    await t.admin.advanceClock(61 * 60_000);
    const deadline = Date.now() + 15_000;
    while (messagingOf(t.lp.platform).sessions[id] && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250));
    assert.equal(messagingOf(t.lp.platform).sessions[id], undefined);
  });
});
