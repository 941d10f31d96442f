import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RuntimeErrorBody } from '../../../src/contract/common';
import { type ExternalEventAccepted, externalEventAcceptedSchema } from '../../../src/contract/externalEvents';
import {
  LOCAL_ACCOUNT,
  LOCAL_CONNECTORS,
  LOCAL_KEYS,
  LOCAL_PROJECT,
} from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

const KEY = { 'X-Api-Key': LOCAL_KEYS.externalEvents };
const EVENT = 'evt_payment_42';

interface Delivery {
  location: 'headers' | 'querystring' | 'payload';
  path: string;
  contentType?: string;
  body?: string;
  headers?: Record<string, string>;
  extraQuery?: Record<string, string>;
}

describe('External Events API (spec: Endpoints > External Events API, Events > External events)', () => {
  const t = useLocalPlatform();

  /** Starts a call (a conversation in progress) and makes it wait on `eventId`. */
  const waitingConversation = async (eventId = EVENT): Promise<string> => {
    const placed = await call<{ call_sid: string }>('POST', `${t.lp.urls.runtime}/v1/outbound-calling`, {
      headers: { 'X-Service-Auth-Token': LOCAL_CONNECTORS.outboundToken },
      body: { to_number: '+14155550134' },
    });
    assert.equal(placed.status, 200);
    const res = await call<{ event_id: string }>('POST', `${t.lp.urls.admin}/external-events/pending`, {
      body: { conversation_id: placed.body.call_sid, event_id: eventId },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.event_id, eventId);
    return placed.body.call_sid;
  };
  const conv = (id: string) => {
    const c = t.lp.platform.findConversation(id);
    assert.ok(c);
    return c;
  };
  const webhookUrl = (q: Record<string, string | undefined>) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, v);
    return `${t.lp.urls.runtime}/v1/external-events/webhook?${params}`;
  };
  const deliver = (
    d: Delivery,
    key: Record<string, string> = KEY,
    project: { account?: string; project?: string } = {},
  ) =>
    call<ExternalEventAccepted & RuntimeErrorBody>(
      'POST',
      webhookUrl({
        event_id_location: d.location,
        event_id_path: d.path,
        account_id: project.account ?? LOCAL_ACCOUNT.slug,
        project_id: project.project ?? LOCAL_PROJECT.slug,
        ...d.extraQuery,
      }),
      {
        headers: { ...key, ...(d.contentType ? { 'content-type': d.contentType } : {}), ...d.headers },
        rawBody: d.body ?? '',
      },
    );
  const jsonDelivery = (payload: unknown): Delivery => ({
    location: 'payload',
    path: 'event_id',
    contentType: 'application/json',
    body: JSON.stringify(payload),
  });

  const unauthorized: Array<[string, Record<string, string>]> = [
    ['no key', {}],
    ['an unknown key', { 'X-Api-Key': 'nope' }],
    ['a DNI key', { 'X-Api-Key': LOCAL_KEYS.dni }],
    ['a Conversations key', { 'X-Api-Key': LOCAL_KEYS.conversations }],
    ['the key as a Bearer token', { Authorization: `Bearer ${LOCAL_KEYS.externalEvents}` }],
  ];
  for (const [label, key] of unauthorized) {
    it(`[EXT-1][EXT-5][AUTH-1] ${label} answers 401 with error_message and binds nothing`, async () => {
      const id = await waitingConversation();
      const res = await deliver(jsonDelivery({ event_id: EVENT, status: 'paid' }), key);
      assert.equal(res.status, 401);
      assert.match(res.body.error_message, /\S/);
      assert.equal(conv(id).state.external_events, undefined);
    });
  }

  for (const [label, account, project] of [
    ['slugs', LOCAL_ACCOUNT.slug, LOCAL_PROJECT.slug],
    ['prefixed ids', LOCAL_ACCOUNT.id, LOCAL_PROJECT.id],
  ] as const) {
    it(`[EXT-2][ADDR-1] account_id and project_id as ${label} are accepted`, async () => {
      await waitingConversation();
      const res = await deliver(jsonDelivery({ event_id: EVENT }), KEY, { account, project });
      assert.equal(res.status, 201);
    });
  }

  const badQueries: Array<[string, Record<string, string | undefined>, RegExp, number]> = [
    ['no event_id_location', { event_id_location: undefined }, /event_id_location/, 400],
    ['event_id_location body', { event_id_location: 'body' }, /event_id_location/, 400],
    ['no event_id_path', { event_id_path: undefined }, /event_id_path/, 400],
    ['an event_id_path with an empty segment', { event_id_path: 'result..id' }, /event_id_path/, 400],
    ['no account_id', { account_id: undefined }, /account_id/, 400],
    ['no project_id', { project_id: undefined }, /project_id/, 400],
    ['an unknown account', { account_id: 'nobody' }, /account_id/, 400],
    ['an unknown project', { project_id: 'nothing' }, /project_id/, 400],
  ];
  for (const [label, override, names, expected] of badQueries) {
    it(`[EXT-2] ${label} answers ${expected} naming the parameter`, async () => {
      await waitingConversation();
      const q = {
        event_id_location: 'payload',
        event_id_path: 'event_id',
        account_id: LOCAL_ACCOUNT.slug,
        project_id: LOCAL_PROJECT.slug,
        ...override,
      };
      const res = await call<RuntimeErrorBody>('POST', webhookUrl(q), { headers: KEY, body: { event_id: EVENT } });
      assert.equal(res.status, expected);
      assert.match(res.body.error_message, names);
    });
  }

  it('[EXT-2][EXT-1] a key used for a project it is not scoped to answers 401', async () => {
    const s = t.lp.platform.state;
    s.projects.push({ ...s.projects[0]!, id: 'PROJECT-0ther000', slug: 'other-desk' });
    await waitingConversation();
    const res = await deliver(jsonDelivery({ event_id: EVENT }), KEY, { project: 'other-desk' });
    assert.equal(res.status, 401);
    assert.match(res.body.error_message, /\S/);
  });

  // Every location, and every body type for payloads: where the id is, and what gets bound.
  const deliveries: Array<[string, Delivery, unknown]> = [
    [
      'a header, named case-insensitively',
      {
        location: 'headers',
        path: 'X-Event-Id',
        headers: { 'x-event-id': EVENT },
        contentType: 'application/json',
        body: '{"status":"paid"}',
      },
      { status: 'paid' },
    ],
    [
      'a header, with no body at all',
      { location: 'headers', path: 'x-event-id', headers: { 'X-Event-Id': EVENT } },
      null,
    ],
    [
      'a query parameter',
      {
        location: 'querystring',
        path: 'ref',
        extraQuery: { ref: EVENT },
        contentType: 'application/json',
        body: '{"status":"paid"}',
      },
      { status: 'paid' },
    ],
    ['a JSON top-level field', jsonDelivery({ event_id: EVENT, amount: 12.5 }), { event_id: EVENT, amount: 12.5 }],
    [
      'a JSON dotted path',
      {
        location: 'payload',
        path: 'result.event.id',
        contentType: 'application/json',
        body: JSON.stringify({ result: { event: { id: EVENT }, ok: true } }),
      },
      { result: { event: { id: EVENT }, ok: true } },
    ],
    [
      'a JSON path through a list index',
      {
        location: 'payload',
        path: 'items.1.ref',
        contentType: 'application/json',
        body: JSON.stringify({ items: [{ ref: 'x' }, { ref: EVENT }] }),
      },
      { items: [{ ref: 'x' }, { ref: EVENT }] },
    ],
    [
      'a form field',
      {
        location: 'payload',
        path: 'event_id',
        contentType: 'application/x-www-form-urlencoded',
        body: `event_id=${EVENT}&status=paid`,
      },
      { event_id: EVENT, status: 'paid' },
    ],
    [
      'a form field in bracket form',
      {
        location: 'payload',
        path: 'booking.ref',
        contentType: 'application/x-www-form-urlencoded',
        body: `booking%5Bref%5D=${EVENT}&booking%5Bseats%5D%5B%5D=1A&booking%5Bseats%5D%5B%5D=1B`,
      },
      { booking: { ref: EVENT, seats: ['1A', '1B'] } },
    ],
    [
      'a form field whose name has a dot',
      {
        location: 'payload',
        path: 'event.id',
        contentType: 'application/x-www-form-urlencoded',
        body: `event.id=${EVENT}`,
      },
      { 'event.id': EVENT },
    ],
    [
      'an XML element below the root',
      {
        location: 'payload',
        path: 'event_id',
        contentType: 'application/xml',
        body: `<?xml version="1.0"?><result><event_id>${EVENT}</event_id><status>paid</status></result>`,
      },
      { result: { event_id: EVENT, status: 'paid' } },
    ],
    [
      'an XML path from the root, with attributes, CDATA and entities',
      {
        location: 'payload',
        path: 'result.payment.ref',
        contentType: 'text/xml; charset=utf-8',
        body: `<result currency="EUR"><payment><ref><![CDATA[${EVENT}]]></ref><note>A &amp; B</note></payment></result>`,
      },
      { result: { '@currency': 'EUR', payment: { ref: EVENT, note: 'A & B' } } },
    ],
    [
      'a text/plain key=value line',
      { location: 'payload', path: 'event_id', contentType: 'text/plain', body: `event_id=${EVENT}\nstatus = paid\n` },
      { event_id: EVENT, status: 'paid' },
    ],
    [
      'a header, with a free text/plain body bound as text',
      {
        location: 'headers',
        path: 'X-Event-Id',
        headers: { 'X-Event-Id': EVENT },
        contentType: 'text/plain',
        body: 'Payment received.',
      },
      'Payment received.',
    ],
  ];
  for (const [label, d, bound] of deliveries) {
    it(`[EXT-2][EXT-3][EXT-4] an event id in ${label} is found and the payload bound to the conversation`, async () => {
      const id = await waitingConversation();
      const res = await deliver(d);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const accepted = externalEventAcceptedSchema.parse(res.body);
      assert.equal(accepted.status, 'queued');
      assert.equal(accepted.event_id, EVENT);
      assert.deepEqual(conv(id).state.external_events, { [EVENT]: bound });
    });
  }

  const badBodies: Array<[string, Delivery, RegExp]> = [
    [
      'an unsupported media type',
      { location: 'payload', path: 'event_id', contentType: 'application/octet-stream', body: `event_id=${EVENT}` },
      /Content-Type/,
    ],
    [
      'multipart form data',
      { location: 'payload', path: 'event_id', contentType: 'multipart/form-data; boundary=x', body: '--x--' },
      /Content-Type/,
    ],
    [
      'malformed JSON',
      { location: 'payload', path: 'event_id', contentType: 'application/json', body: '{"event_id":' },
      /JSON/,
    ],
    [
      'malformed XML',
      {
        location: 'payload',
        path: 'event_id',
        contentType: 'application/xml',
        body: `<result><event_id>${EVENT}</result>`,
      },
      /XML/,
    ],
    [
      'XML with a document type declaration',
      {
        location: 'payload',
        path: 'event_id',
        contentType: 'application/xml',
        body: `<!DOCTYPE r [<!ENTITY x "${EVENT}">]><result><event_id>&x;</event_id></result>`,
      },
      /document type/,
    ],
  ];
  for (const [label, d, message] of badBodies) {
    it(`[EXT-3][EXT-5] ${label} answers 400 with error_message`, async () => {
      const id = await waitingConversation();
      const res = await deliver(d);
      assert.equal(res.status, 400);
      assert.match(res.body.error_message, message);
      assert.equal(conv(id).state.external_events, undefined);
    });
  }

  it('[EXT-3][EXT-5] a body without Content-Type answers 400 naming the accepted types', async () => {
    await waitingConversation();
    const url = webhookUrl({
      event_id_location: 'payload',
      event_id_path: 'event_id',
      account_id: LOCAL_ACCOUNT.slug,
      project_id: LOCAL_PROJECT.slug,
    });
    // Bytes, so that fetch adds no Content-Type of its own.
    const res = await fetch(url, {
      method: 'POST',
      headers: KEY,
      body: new TextEncoder().encode(`{"event_id":"${EVENT}"}`),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as RuntimeErrorBody;
    assert.match(
      body.error_message,
      /Content-Type: application\/json, application\/x-www-form-urlencoded, application\/xml or text\/plain/,
    );
  });

  const badIds: Array<[string, Delivery]> = [
    ['an id nobody waits on', jsonDelivery({ event_id: 'evt_unknown' })],
    ['no id at the path', jsonDelivery({ other: EVENT })],
    ['an object where the id should be', jsonDelivery({ event_id: { id: EVENT } })],
    ['an empty id', jsonDelivery({ event_id: '  ' })],
    ['a path reaching into the prototype', { ...jsonDelivery({ event_id: EVENT }), path: 'constructor.name' }],
    ['a missing header', { location: 'headers', path: 'X-Event-Id', contentType: 'application/json', body: '{}' }],
    [
      'a missing query parameter',
      { location: 'querystring', path: 'ref', contentType: 'application/json', body: '{}' },
    ],
    [
      'free text where a key=value line is needed',
      { location: 'payload', path: 'event_id', contentType: 'text/plain', body: `the id is ${EVENT}` },
    ],
  ];
  for (const [label, d] of badIds) {
    it(`[EXT-5] ${label} answers 400 with error_message`, async () => {
      const id = await waitingConversation();
      const res = await deliver(d);
      assert.equal(res.status, 400);
      assert.match(res.body.error_message, /event id/i);
      assert.equal(conv(id).state.external_events, undefined);
    });
  }

  it('[EXT-5] an id whose conversation has ended answers 400', async () => {
    const id = await waitingConversation();
    await t.admin.hangUpCall(id);
    const res = await deliver(jsonDelivery({ event_id: EVENT }));
    assert.equal(res.status, 400);
    assert.match(res.body.error_message, /ended/);
  });

  it('[EXT-4] an event is taken once; a second delivery of the same id answers 400', async () => {
    const id = await waitingConversation();
    assert.equal((await deliver(jsonDelivery({ event_id: EVENT, status: 'paid' }))).status, 201);
    const again = await deliver(jsonDelivery({ event_id: EVENT, status: 'refunded' }));
    assert.equal(again.status, 400);
    assert.deepEqual(conv(id).state.external_events, { [EVENT]: { event_id: EVENT, status: 'paid' } });
  });

  it('[EXT-4] results of several workflows accumulate on the conversation, which stays in progress', async () => {
    const id = await waitingConversation('evt_payment');
    await t.admin.awaitExternalEvent({ conversation_id: id, event_id: 'evt_booking' });
    const changes: string[] = [];
    const sub = t.lp.platform.onDidChangeConversation((c) => changes.push(c.id));
    try {
      assert.equal((await deliver(jsonDelivery({ event_id: 'evt_booking', slot: '10:00' }))).status, 201);
      assert.equal((await deliver(jsonDelivery({ event_id: 'evt_payment', paid: true }))).status, 201);
    } finally {
      sub.dispose();
    }
    const c = conv(id);
    assert.deepEqual(c.state.external_events, {
      evt_booking: { event_id: 'evt_booking', slot: '10:00' },
      evt_payment: { event_id: 'evt_payment', paid: true },
    });
    assert.equal(c.state.last_external_event_id, 'evt_payment');
    assert.equal(c.in_progress, true);
    assert.deepEqual(changes, [id, id], 'listeners hear of each update so the agent can continue');
  });

  it('[EXT-4] the admin view lists waiting and delivered events', async () => {
    const id = await waitingConversation();
    const before = await call<{ pending: Array<{ event_id: string }> }>('GET', `${t.lp.urls.admin}/external-events`);
    assert.deepEqual(
      before.body.pending.map((p) => p.event_id),
      [EVENT],
    );
    await deliver(jsonDelivery({ event_id: EVENT }));
    const after = await call<{ pending: unknown[]; delivered: Array<{ event_id: string; conversation_id: string }> }>(
      'GET',
      `${t.lp.urls.admin}/external-events`,
    );
    assert.deepEqual(after.body.pending, []);
    assert.deepEqual(
      after.body.delivered.map((d) => [d.event_id, d.conversation_id]),
      [[EVENT, id]],
    );
  });

  it('[EXT-5] an injected transient fault answers 500 with error_message; the retry is accepted', async () => {
    const id = await waitingConversation();
    await t.admin.addFault({ family: 'runtime', path: '/v1/external-events/webhook', status: 500, times: 1 });
    const failed = await deliver(jsonDelivery({ event_id: EVENT }));
    assert.equal(failed.status, 500);
    assert.match(failed.body.error_message, /\S/);
    assert.equal(conv(id).state.external_events, undefined);
    assert.equal((await deliver(jsonDelivery({ event_id: EVENT }))).status, 201);
  });

  const badPending: Array<[string, unknown, number]> = [
    ['no conversation_id', { event_id: 'evt_1' }, 400],
    ['an unknown conversation', { conversation_id: 'conv_nope' }, 404],
    ['an empty event_id', { conversation_id: 'conv_nope', event_id: ' ' }, 400],
  ];
  for (const [label, body, expected] of badPending) {
    it(`[EXT-4] registering a waiting event with ${label} answers ${expected}`, async () => {
      const res = await call('POST', `${t.lp.urls.admin}/external-events/pending`, { body });
      assert.equal(res.status, expected);
    });
  }

  it('[EXT-4] a waiting id is generated when none is given, and cannot wait twice', async () => {
    const id = await waitingConversation();
    const generated = await call<{ event_id: string }>('POST', `${t.lp.urls.admin}/external-events/pending`, {
      body: { conversation_id: id },
    });
    assert.equal(generated.status, 201);
    assert.match(generated.body.event_id, /^evt_[0-9a-f]{24}$/);
    const twice = await call('POST', `${t.lp.urls.admin}/external-events/pending`, {
      body: { conversation_id: id, event_id: EVENT },
    });
    assert.equal(twice.status, 409);
  });
});
