import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import WebSocket from 'ws';
import { LOCAL_CONNECTORS, LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

// The spec-minimal mode: every answer of an endpoint the spec shows carries only what the spec shows.

describe('local platform: spec-minimal answers (--responses minimal)', () => {
  const t = useLocalPlatform({ responses: 'minimal' });
  const agents = { 'x-api-key': LOCAL_KEYS.agents };
  const chat = { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken };

  it('[AGENT-1] a created agent answers only its agentId; an assumed read keeps its own shape', async () => {
    const res = await call<Record<string, unknown>>('POST', `${t.lp.urls.build}/v1/agents`, {
      headers: agents,
      body: { name: 'Thin' },
    });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body), ['agentId']);
    const list = await call<{ agents: unknown[]; nextOffset: unknown }>('GET', `${t.lp.urls.build}/v1/agents`, {
      headers: agents,
    });
    assert.ok('nextOffset' in list.body, "list agents is ours, not the spec's: left as it is");
  });

  it('[HOOK-1] a created webhook endpoint answers only name, url, event_types and signing_secret', async () => {
    const res = await call<Record<string, unknown>>('POST', `${t.lp.urls.build}/v1/webhook-endpoints`, {
      headers: { 'x-api-key': LOCAL_KEYS.alerts },
      body: { name: 'Pager', url: 'https://example.com/h', event_types: ['alerts.triggered'] },
    });
    assert.deepEqual(Object.keys(res.body).sort(), ['event_types', 'name', 'signing_secret', 'url']);
  });

  it('[EXT-4] an accepted external event is a bare 201', async () => {
    const created = await call<{ conversation_id: string }>(
      'POST',
      `${t.lp.urls.runtime}/v1/acme/support-desk/chat/create`,
      { headers: chat, body: {} },
    );
    const pending = await call<{ event_id: string }>('POST', `${t.lp.urls.admin}/external-events/pending`, {
      body: { conversation_id: created.body.conversation_id },
    });
    const res = await call(
      'POST',
      `${t.lp.urls.runtime}/v1/external-events/webhook?event_id_location=payload&event_id_path=id&account_id=acme&project_id=support-desk`,
      {
        headers: { 'X-Api-Key': LOCAL_KEYS.externalEvents },
        body: { id: pending.body.event_id },
      },
    );
    assert.deepEqual([res.status, res.body], [201, undefined]);
  });

  it('[CHAT-7] the Chat headers are matched with their case: x-api-key in lower case is a missing header', async () => {
    const lower = await call<{ error_message: string }>(
      'POST',
      `${t.lp.urls.runtime}/v1/acme/support-desk/chat/create`,
      { headers: { 'x-api-key': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken }, body: {} },
    );
    assert.equal(lower.status, 401);
    assert.match(lower.body.error_message, /case-sensitive, send X-API-KEY/);
    const exact = await call<Record<string, unknown>>('POST', `${t.lp.urls.runtime}/v1/acme/support-desk/chat/create`, {
      headers: chat,
      body: {},
    });
    assert.deepEqual(Object.keys(exact.body).sort(), ['conversation_id', 'response']);
  });

  it("[MSG-23] WebSocket events carry the spec's envelope only: no history positions, no batch cursor", async () => {
    const token = await call<{ access_token: string }>('POST', `${t.lp.urls.messaging}/api/v1/access-token`, {
      headers: { 'X-Token': LOCAL_CONNECTORS.webchatToken, 'X-Host': LOCAL_CONNECTORS.webchatHost },
      body: {},
    });
    const session = await call<{ session_id: string }>('POST', `${t.lp.urls.messaging}/api/v1/sessions`, {
      headers: { Authorization: `Bearer ${token.body.access_token}` },
      body: {},
    });
    const ws = new WebSocket(
      `${t.lp.urls.messaging.replace('http', 'ws')}/ws?access_token=${token.body.access_token}&session_id=${session.body.session_id}`,
    );
    const events: Array<{ type: string; payload: Record<string, unknown>; metadata: Record<string, unknown> }> = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (data) => {
        const event = JSON.parse(String(data)) as (typeof events)[number];
        events.push(event);
        if (event.type === 'EVENT_TYPE_EVENT_BATCH')
          ws.send(JSON.stringify({ type: 'EVENT_TYPE_REQUEST_VIRTUAL_AGENT_JOIN', payload: {} }));
        if (event.type === 'EVENT_TYPE_VIRTUAL_AGENT_JOINED') resolve();
      });
      ws.on('error', reject);
    });
    ws.close();
    assert.deepEqual(events.map((e) => e.type).slice(0, 2), [
      'EVENT_TYPE_EVENT_BATCH',
      'EVENT_TYPE_VIRTUAL_AGENT_JOINED',
    ]);
    assert.ok(!('cursor' in events[0]!.payload));
    assert.ok(events.every((e) => !('position' in e.metadata)));
  });

  it('the mode can be read and switched by the admin API, and stays across a reset', async () => {
    assert.deepEqual((await call('GET', `${t.lp.urls.admin}/responses`)).body, { mode: 'minimal' });
    assert.equal((await call('PUT', `${t.lp.urls.admin}/responses`, { body: { mode: 'loose' } })).status, 400);
    await call('PUT', `${t.lp.urls.admin}/responses`, { body: { mode: 'full' } });
    await t.admin.reset();
    const res = await call<Record<string, unknown>>('POST', `${t.lp.urls.build}/v1/agents`, {
      headers: agents,
      body: { name: 'Full' },
    });
    assert.ok('defaultBranch' in res.body);
    await call('PUT', `${t.lp.urls.admin}/responses`, { body: { mode: 'minimal' } });
  });
});
