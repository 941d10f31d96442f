import { LOCAL_LIMITS } from '../../../src/localPlatform/ownLimits';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DNI_RESERVATION_TTL_MS,
  type DniErrorBody,
  type DniReservationReply,
  dniReservationReplySchema,
} from '../../../src/contract/dni';
import { DNI_POOL } from '../../../src/localPlatform/dni/pool';
import { LOCAL_AGENT_ID, LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

const KEY = { 'x-api-key': LOCAL_KEYS.dni };

interface CallReply {
  conversation_id: string;
  agent_id: string;
  greeting: string;
}

describe('DNI API (spec: Endpoints > DNI API)', () => {
  const t = useLocalPlatform();
  const url = () => `${t.lp.urls.runtime}/v1/conversations/dni-reservation`;
  const reserve = (body: unknown, headers: Record<string, string> = KEY) =>
    call<DniReservationReply & DniErrorBody>('POST', url(), { headers, body });
  const reserved = async (attributes: Record<string, unknown> = {}): Promise<string> => {
    const res = await reserve({ attributes });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.dni;
  };
  const ring = (dni: string, body: unknown = { from_number: '+14155550177' }) =>
    call<CallReply>('POST', `${t.lp.urls.admin}/dni/${encodeURIComponent(dni)}/call`, { body });
  const advance = (ms: number) => t.admin.advanceClock(ms);

  const unauthorized: Array<[string, Record<string, string>]> = [
    ['no key', {}],
    ['an unknown key', { 'x-api-key': 'nope' }],
    ['an External Events key', { 'x-api-key': LOCAL_KEYS.externalEvents }],
    ['a Conversations key', { 'x-api-key': LOCAL_KEYS.conversations }],
    ['the key as X-Service-Auth-Token', { 'X-Service-Auth-Token': LOCAL_KEYS.dni }],
  ];
  for (const [label, headers] of unauthorized) {
    it(`[DNI-1][AUTH-1] ${label} answers 401 with error_message and reserves nothing`, async () => {
      const res = await reserve({ attributes: { a: '1' } }, headers);
      assert.equal(res.status, 401);
      assert.match(res.body.error_message, /\S/);
      const list = await call<{ reservations: unknown[] }>('GET', `${t.lp.urls.admin}/dni/reservations`);
      assert.deepEqual(list.body.reservations, []);
    });
  }

  it('[DNI-1][DNI-3][AUTH-1] a reservation with x-api-key answers 200 with a number of the pool that expires in 15 minutes', async () => {
    const res = await reserve({ attributes: { customer_id: 'C-1' } });
    assert.equal(res.status, 200);
    const reply = dniReservationReplySchema.parse(res.body);
    assert.match(reply.dni, /^\+141555502\d\d$/);
    assert.ok(DNI_POOL.includes(reply.dni));
    const now = await call<{ now: string }>('GET', `${t.lp.urls.admin}/clock`);
    assert.equal(Date.parse(reply.expires_at!) - Date.parse(now.body.now) <= DNI_RESERVATION_TTL_MS, true);
    assert.ok(Date.parse(reply.expires_at!) - Date.parse(now.body.now) > DNI_RESERVATION_TTL_MS - 60_000);
  });

  const contentTypes: Array<[string, string | undefined, number]> = [
    ['application/json; charset=utf-8', 'application/json; charset=utf-8', 200],
    ['text/plain', 'text/plain', 415],
    ['no Content-Type', undefined, 415],
  ];
  for (const [label, type, expected] of contentTypes) {
    it(`[DNI-1] a JSON body sent as ${label} answers ${expected}`, async () => {
      const body = new TextEncoder().encode(JSON.stringify({ attributes: {} }));
      const res = await fetch(url(), {
        method: 'POST',
        headers: { ...KEY, ...(type ? { 'content-type': type } : {}) },
        body,
      });
      assert.equal(res.status, expected);
    });
  }

  const goodAttributes: Array<[string, Record<string, unknown>]> = [
    ['an empty object', {}],
    ['flat strings', { customer_id: 'C-1042', campaign: 'spring' }],
    [
      'nested objects and lists of any JSON',
      {
        customer: { id: 7, tier: 'gold', tags: ['vip', 'returning'] },
        basket: [{ sku: 'A1', qty: 2 }],
        consent: true,
        score: 0.9,
        note: null,
      },
    ],
  ];
  for (const [label, attributes] of goodAttributes) {
    it(`[DNI-2][DNI-3] attributes of ${label} reach the agent when the number is called`, async () => {
      const dni = await reserved(attributes);
      const res = await ring(dni);
      assert.equal(res.status, 201);
      const conv = t.lp.platform.findConversation(res.body.conversation_id);
      assert.ok(conv);
      assert.deepEqual(conv.state.dni_attributes, attributes);
    });
  }

  const badBodies: Array<[string, unknown, string]> = [
    ['no attributes', {}, 'attributes'],
    ['attributes null', { attributes: null }, 'attributes'],
    ['attributes a string', { attributes: 'customer=C-1' }, 'attributes'],
    ['attributes a number', { attributes: 7 }, 'attributes'],
    ['attributes a list', { attributes: [{ customer: 'C-1' }] }, 'attributes'],
    [
      'attributes over 32 KB of JSON',
      { attributes: { blob: 'x'.repeat(LOCAL_LIMITS.dniAttributesBytes) } },
      'attributes',
    ],
    ['a body that is a list', [], 'body'],
  ];
  for (const [label, body, field] of badBodies) {
    it(`[DNI-2] ${label} answers 400 naming ${field}`, async () => {
      const res = await reserve(body);
      assert.equal(res.status, 400);
      assert.equal(res.body.field, field);
      assert.match(res.body.error_message, new RegExp(field));
    });
  }

  it('[DNI-1] invalid JSON answers 400 naming the body', async () => {
    const res = await call<DniErrorBody>('POST', url(), {
      headers: { ...KEY, 'content-type': 'application/json' },
      rawBody: '{"attributes":',
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.field, 'body');
  });

  it("[DNI-3] a call on the reserved number starts a VOICE-SIP conversation of the key's agent, greeted, carrying the attributes", async () => {
    const attributes = { customer_id: 'C-1042', order: { id: 'O-9', items: 3 } };
    const dni = await reserved(attributes);
    const res = await ring(dni);
    assert.equal(res.status, 201);
    assert.equal(res.body.agent_id, LOCAL_AGENT_ID);
    assert.match(res.body.greeting, /\S/);
    const conv = t.lp.platform.findConversation(res.body.conversation_id);
    assert.ok(conv);
    assert.equal(conv.agent_id, LOCAL_AGENT_ID);
    assert.equal(conv.channel, 'VOICE-SIP');
    assert.equal(conv.source, 'dni');
    assert.equal(conv.to_number, dni);
    assert.equal(conv.from_number, '+14155550177');
    assert.equal(conv.environment, 'live');
    assert.equal(conv.in_progress, true);
    assert.deepEqual(conv.state.dni_attributes, attributes);
    assert.equal(conv.state.from_, '+14155550177');
    assert.equal(conv.state.to, dni);
    assert.equal(conv.turns.length, 1);
    assert.equal(conv.turns[0]!.agent_response, res.body.greeting);
  });

  it('[DNI-3] each reservation gets its own number while it lasts', async () => {
    const numbers = [await reserved({ n: 1 }), await reserved({ n: 2 }), await reserved({ n: 3 })];
    assert.equal(new Set(numbers).size, 3);
    const second = await ring(numbers[1]!);
    assert.deepEqual(t.lp.platform.findConversation(second.body.conversation_id)?.state.dni_attributes, { n: 2 });
  });

  it('[DNI-3] a number routes one call; a second call on it finds no reservation', async () => {
    const dni = await reserved({ a: 'b' });
    assert.equal((await ring(dni)).status, 201);
    assert.equal((await ring(dni)).status, 404);
  });

  it('[DNI-3] the number is written with or without the plus in the admin path', async () => {
    const dni = await reserved({ a: 'b' });
    const res = await call<CallReply>('POST', `${t.lp.urls.admin}/dni/${dni.slice(1)}/call`, { body: {} });
    assert.equal(res.status, 201);
  });

  it('[DNI-3] a reservation stops routing after 15 minutes and its number returns to the pool', async () => {
    const dni = await reserved({ a: 'b' });
    await advance(DNI_RESERVATION_TTL_MS - 60_000);
    const other = await reserved({ c: 'd' });
    assert.notEqual(other, dni, 'still reserved after 14 minutes');
    await advance(2 * 60_000);
    assert.equal((await ring(dni)).status, 404);
    assert.equal(await reserved({ e: 'f' }), dni, 'the lowest free number is given again');
  });

  it('[DNI-3] an exhausted pool answers 503 with Retry-After until a reservation expires', async () => {
    for (let i = 0; i < DNI_POOL.length; i++) await reserved({ i });
    const full = await reserve({ attributes: {} });
    assert.equal(full.status, 503);
    assert.match(full.body.error_message, /No DNI number is free/);
    const retryAfter = Number(full.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= DNI_RESERVATION_TTL_MS / 1000);
    await advance(DNI_RESERVATION_TTL_MS);
    assert.equal((await reserve({ attributes: {} })).status, 200);
  });

  it('[DNI-3] a call on a number never reserved answers 404', async () => {
    const res = await ring('+14155550299');
    assert.equal(res.status, 404);
  });

  it('[DNI-1] an injected fault answers its status with error_message', async () => {
    await t.admin.addFault({ family: 'runtime', path: '/v1/conversations/dni-reservation', status: 500, times: 1 });
    const res = await reserve({ attributes: {} });
    assert.equal(res.status, 500);
    assert.match(res.body.error_message, /\S/);
  });
});
