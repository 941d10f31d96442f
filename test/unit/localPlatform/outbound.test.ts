import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CALL_SID_PREFIX,
  metadataBase64Bytes,
  OUTBOUND_ENCRYPTIONS,
  OUTBOUND_METADATA_MAX_BASE64_BYTES,
  outboundCallReplySchema,
  type OutboundCallStatus,
  outboundCallStatusSchema,
  type OutboundErrorBody,
} from '../../../src/contract/outbound';
import { OUTBOUND_TEST_NUMBERS, RING_TIMEOUT_MS } from '../../../src/localPlatform/outbound/calls';
import { LOCAL_AGENT_ID, LOCAL_CONNECTORS, LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

const AUTH = { 'X-Service-Auth-Token': LOCAL_CONNECTORS.outboundToken };
/** The number of the seeded outbound connector, which calls come from. */
const CONNECTOR_NUMBER = '+14155550123';

describe('Outbound Calling API (spec: Endpoints > Outbound Calling API, Errors > Other APIs)', () => {
  const t = useLocalPlatform();
  const url = () => `${t.lp.urls.runtime}/v1/outbound-calling`;
  const place = (body: unknown, headers: Record<string, string> = AUTH) =>
    call<{ call_sid: string } & OutboundErrorBody>('POST', url(), { headers, body });
  const status = (sid: string, headers: Record<string, string> = AUTH) =>
    call<OutboundCallStatus & OutboundErrorBody>('GET', `${url()}/${sid}`, { headers });
  const admin = (path: string, body?: unknown) =>
    call<OutboundCallStatus>('POST', `${t.lp.urls.admin}${path}`, { body: body ?? {} });
  const advance = (ms: number) => t.admin.advanceClock(ms);
  const conversationOf = (sid: string) => t.lp.platform.state.conversations.find((c) => c.state.call_sid === sid);
  const placed = async (body: unknown): Promise<string> => {
    const res = await place(body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.call_sid;
  };

  it('[OUT-1][OUT-6][AUTH-1] a call with X-Service-Auth-Token and JSON answers 200 with a call_sid beginning OUT-', async () => {
    const res = await place({ to_number: '+14155550134' });
    assert.equal(res.status, 200);
    const reply = outboundCallReplySchema.parse(res.body);
    assert.ok(reply.call_sid.startsWith(CALL_SID_PREFIX));
    assert.ok(reply.call_sid.length > CALL_SID_PREFIX.length + 8, 'the sid is hard to guess');
    const second = await placed({ to_number: '+14155550134' });
    assert.notEqual(second, reply.call_sid);
  });

  const unauthorized: Array<[string, Record<string, string>]> = [
    ['no token', {}],
    ['an unknown token', { 'X-Service-Auth-Token': 'nope' }],
    [
      'a voice connector not configured for outbound calling',
      { 'X-Service-Auth-Token': LOCAL_CONNECTORS.voiceNoOutboundToken },
    ],
    ['a chat connector token', { 'X-Service-Auth-Token': LOCAL_CONNECTORS.chatToken }],
    ['the outbound token in x-api-key instead', { 'x-api-key': LOCAL_CONNECTORS.outboundToken }],
    ['an API key of another family', { 'X-Service-Auth-Token': LOCAL_KEYS.externalEvents }],
  ];
  for (const [label, headers] of unauthorized) {
    it(`[OUT-7][AUTH-1] ${label} answers 401 with error_message and places no call`, async () => {
      const res = await place({ to_number: '+14155550134' }, headers);
      assert.equal(res.status, 401);
      assert.match(res.body.error_message, /\S/);
      assert.equal(t.lp.platform.state.conversations.length, 0);
    });
  }

  it('[OUT-7] the status endpoint also requires an outbound token', async () => {
    const sid = await placed({ to_number: '+14155550134' });
    assert.equal((await status(sid, {})).status, 401);
    assert.equal((await status(sid, { 'X-Service-Auth-Token': LOCAL_CONNECTORS.voiceNoOutboundToken })).status, 401);
  });

  const contentTypes: Array<[string, string | undefined, number]> = [
    ['application/json; charset=utf-8', 'application/json; charset=utf-8', 200],
    ['no Content-Type', undefined, 415],
    ['text/plain', 'text/plain', 415],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded', 415],
  ];
  for (const [label, type, expected] of contentTypes) {
    it(`[OUT-1] a JSON body sent as ${label} answers ${expected}`, async () => {
      const headers: Record<string, string> = { ...AUTH, ...(type ? { 'content-type': type } : {}) };
      // Bytes, so that fetch adds no Content-Type of its own.
      const res = await fetch(url(), {
        method: 'POST',
        headers,
        body: new TextEncoder().encode(JSON.stringify({ to_number: '+14155550134' })),
      });
      assert.equal(res.status, expected);
      const body = (await res.json()) as Record<string, unknown>;
      assert.ok(expected === 200 ? typeof body.call_sid === 'string' : typeof body.error_message === 'string');
    });
  }

  const badBodies: Array<[string, string]> = [
    ['invalid JSON', '{"to_number": '],
    ['a JSON list', '[]'],
    ['a JSON string', '"+14155550134"'],
  ];
  for (const [label, raw] of badBodies) {
    it(`[OUT-1] ${label} as the body answers 400 naming the body`, async () => {
      const res = await call<OutboundErrorBody>('POST', url(), {
        headers: { ...AUTH, 'content-type': 'application/json' },
        rawBody: raw,
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.field, 'body');
    });
  }

  const goodNumbers: Array<[string, Record<string, unknown>, string]> = [
    ['E.164', { to_number: '+14155550134' }, '+14155550134'],
    ['E.164 with spaces', { to_number: '+44 20 7946 0958' }, '+442079460958'],
    ['US national format with country_code US', { to_number: '(415) 555-0134', country_code: 'US' }, '+14155550134'],
    ['UK national format with country_code GB', { to_number: '020 7946 0958', country_code: 'GB' }, '+442079460958'],
    ['a lower-case country_code', { to_number: '020 7946 0958', country_code: 'gb' }, '+442079460958'],
    [
      'E.164 with a country_code of another country (E.164 wins)',
      { to_number: '+442079460958', country_code: 'US' },
      '+442079460958',
    ],
  ];
  for (const [label, body, e164] of goodNumbers) {
    it(`[OUT-2] ${label} is accepted and dialled as ${e164}`, async () => {
      const sid = await placed(body);
      assert.equal(conversationOf(sid)?.to_number, e164);
      assert.equal((await status(sid)).body.to_number, e164);
    });
  }

  const badNumbers: Array<[string, Record<string, unknown>, string]> = [
    ['letters', { to_number: 'call me maybe' }, 'to_number'],
    ['a national number without country_code', { to_number: '4155550134' }, 'to_number'],
    ['an E.164 number too short to be valid', { to_number: '+1415555' }, 'to_number'],
    ['a national number not valid in its country', { to_number: '12', country_code: 'GB' }, 'to_number'],
    ['no to_number', {}, 'to_number'],
    ['an empty to_number', { to_number: '  ' }, 'to_number'],
    ['a numeric to_number', { to_number: 4155550134 }, 'to_number'],
    ['a country_code that is not ISO 3166-1 alpha-2', { to_number: '4155550134', country_code: 'USA' }, 'country_code'],
    ['a country_code with no numbering plan', { to_number: '4155550134', country_code: 'XX' }, 'country_code'],
  ];
  for (const [label, body, field] of badNumbers) {
    it(`[OUT-2] ${label} answers 400 naming ${field}`, async () => {
      const res = await place(body);
      assert.equal(res.status, 400);
      assert.equal(res.body.field, field);
      assert.match(res.body.error_message, new RegExp(`^${field}\\b`));
      assert.equal(t.lp.platform.state.conversations.length, 0);
    });
  }

  const badMetadata: Array<[string, unknown, string]> = [
    ['a nested object', { customer_id: 'C-1', account: { tier: 'gold' } }, 'metadata.account'],
    ['a number', { customer_id: 'C-1', attempts: 3 }, 'metadata.attempts'],
    ['a boolean', { vip: true }, 'metadata.vip'],
    ['null', { note: null }, 'metadata.note'],
    ['a list', { tags: ['a', 'b'] }, 'metadata.tags'],
    ['metadata that is a string', 'customer_id=C-1', 'metadata'],
    ['metadata that is a list', ['C-1'], 'metadata'],
  ];
  for (const [label, metadata, field] of badMetadata) {
    it(`[OUT-3] metadata with ${label} answers 400 naming ${field}`, async () => {
      const res = await place({ to_number: '+14155550134', metadata });
      assert.equal(res.status, 400);
      assert.equal(res.body.field, field);
      assert.ok(res.body.error_message.startsWith(`${field}:`), res.body.error_message);
    });
  }

  /** Metadata whose compact JSON is exactly `jsonBytes` bytes of UTF-8. */
  const metadataOfJsonBytes = (jsonBytes: number, char = 'x') => {
    const charBytes = Buffer.byteLength(char);
    const filler = jsonBytes - Buffer.byteLength('{"k":""}');
    return { k: char.repeat(Math.floor(filler / charBytes)) + 'x'.repeat(filler % charBytes) };
  };
  const sizes: Array<[string, Record<string, string>, number]> = [
    ['the largest size under 26 KB (26620 base64 bytes)', metadataOfJsonBytes(19965), 200],
    ['exactly 26 KB (26624 base64 bytes)', metadataOfJsonBytes(19966), 400],
    ['multi-byte text counted in UTF-8 bytes, over 26 KB', metadataOfJsonBytes(19966, 'é'), 400],
    ['many small keys under 26 KB', Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`key_${i}`, 'v'])), 200],
  ];
  for (const [label, metadata, expected] of sizes) {
    it(`[OUT-4] metadata of ${label} answers ${expected}`, async () => {
      const b64 = Buffer.from(JSON.stringify(metadata), 'utf8').toString('base64').length;
      assert.equal(metadataBase64Bytes(metadata), b64, 'the contract measures what base64 gives');
      assert.equal(b64 < OUTBOUND_METADATA_MAX_BASE64_BYTES, expected === 200);
      const res = await place({ to_number: '+14155550134', metadata });
      assert.equal(res.status, expected);
      if (expected === 400) assert.equal(res.body.field, 'metadata');
    });
  }

  for (const encryption of OUTBOUND_ENCRYPTIONS) {
    it(`[OUT-5] encryption ${encryption} is accepted and kept on the call`, async () => {
      const sid = await placed({ to_number: '+14155550134', encryption });
      assert.equal((await status(sid)).body.encryption, encryption);
    });
  }

  it('[OUT-5] encryption defaults to TLS/SRTP', async () => {
    const sid = await placed({ to_number: '+14155550134' });
    assert.equal((await status(sid)).body.encryption, 'TLS/SRTP');
  });

  for (const encryption of ['TLS', 'tls/srtp', 'SRTP/TLS', 42]) {
    it(`[OUT-5] encryption ${JSON.stringify(encryption)} answers 400 naming encryption`, async () => {
      const res = await place({ to_number: '+14155550134', encryption });
      assert.equal(res.status, 400);
      assert.equal(res.body.field, 'encryption');
    });
  }

  it('[OUT-9] the call starts a VOICE-SIP conversation whose state carries the metadata as sip_headers, greeted at connect', async () => {
    const metadata = { customer_id: 'C-1042', reason: 'delivery follow-up' };
    const sid = await placed({ to_number: '(415) 555-0134', country_code: 'US', metadata });
    const conv = conversationOf(sid);
    assert.ok(conv, 'a conversation is recorded for the call');
    assert.equal(conv.id, sid);
    assert.equal(conv.channel, 'VOICE-SIP');
    assert.equal(conv.source, 'outbound');
    assert.equal(conv.agent_id, LOCAL_AGENT_ID);
    assert.equal(conv.environment, 'live');
    assert.equal(conv.from_number, CONNECTOR_NUMBER);
    assert.equal(conv.to_number, '+14155550134');
    assert.equal(conv.in_progress, true);
    assert.deepEqual(conv.state.sip_headers, metadata);
    assert.equal(conv.state.call_sid, sid);
    assert.equal(conv.state.from_, CONNECTOR_NUMBER);
    assert.equal(conv.state.to, '+14155550134');
    assert.equal(conv.turns.length, 1, 'the start function greeted');
    assert.equal(conv.turns[0]!.user_input, null);
    assert.match(conv.turns[0]!.agent_response ?? '', /\S/);
  });

  it('[OUT-9] without metadata the conversation has empty sip_headers', async () => {
    const sid = await placed({ to_number: '+14155550134' });
    assert.deepEqual(conversationOf(sid)?.state.sip_headers, {});
  });

  it('[OUT-9][OUT-10] the start function runs only after the call connects', async () => {
    const sid = await placed({ to_number: OUTBOUND_TEST_NUMBERS.ringsUntilAnswered, metadata: { campaign: 'spring' } });
    assert.equal((await status(sid)).body.status, 'ringing');
    assert.equal(conversationOf(sid), undefined, 'no conversation while the phone rings');
    const answered = await admin(`/outbound/calls/${sid}/answer`);
    assert.equal(answered.status, 200);
    assert.equal(answered.body.status, 'in-progress');
    const conv = conversationOf(sid);
    assert.ok(conv);
    assert.deepEqual(conv.state.sip_headers, { campaign: 'spring' });
    assert.equal(conv.turns.length, 1);
  });

  it('[OUT-8] a call to the reserved failing number answers 500 with error_message and leaves no call', async () => {
    const res = await place({ to_number: OUTBOUND_TEST_NUMBERS.placementFails });
    assert.equal(res.status, 500);
    assert.match(res.body.error_message, /placement failed/i);
    assert.equal(t.lp.platform.state.conversations.length, 0);
    const calls = await call<{ calls: unknown[] }>('GET', `${t.lp.urls.admin}/outbound/calls`);
    assert.deepEqual(calls.body.calls, []);
  });

  it('[OUT-8] an injected placement fault answers 500 once; the retry succeeds', async () => {
    await t.admin.addFault({ family: 'runtime', method: 'POST', path: '/v1/outbound-calling', status: 500, times: 1 });
    const failed = await place({ to_number: '+14155550134' });
    assert.equal(failed.status, 500);
    assert.match(failed.body.error_message, /\S/);
    assert.equal(t.lp.platform.state.conversations.length, 0);
    const retry = await place({ to_number: '+14155550134' });
    assert.equal(retry.status, 200);
  });

  it('[OUT-10] a connected call reports in-progress, then completed with ended_at after hang-up', async () => {
    const sid = await placed({ to_number: '+14155550134' });
    const live = await status(sid);
    assert.equal(live.status, 200);
    const parsed = outboundCallStatusSchema.parse(live.body);
    assert.equal(parsed.status, 'in-progress');
    assert.equal(parsed.from_number, CONNECTOR_NUMBER);
    assert.equal(parsed.conversation_id, sid);
    assert.equal(parsed.ended_at, null);
    await admin(`/outbound/calls/${sid}/hangup`);
    const done = await status(sid);
    assert.equal(done.body.status, 'completed');
    assert.ok(done.body.ended_at);
    assert.equal(conversationOf(sid)?.in_progress, false);
  });

  it('[OUT-10] a busy line reports failed with a reason, and no conversation starts', async () => {
    const sid = await placed({ to_number: OUTBOUND_TEST_NUMBERS.busy });
    const res = await status(sid);
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.failure_reason, 'busy');
    assert.equal(conversationOf(sid), undefined);
  });

  it('[OUT-10] a call nobody answers fails after a minute of ringing', async () => {
    const sid = await placed({ to_number: OUTBOUND_TEST_NUMBERS.ringsUntilAnswered });
    await advance(RING_TIMEOUT_MS + 1000);
    const res = await status(sid);
    assert.equal(res.body.status, 'failed');
    assert.equal(res.body.failure_reason, 'no-answer');
    assert.equal((await admin(`/outbound/calls/${sid}/answer`)).status, 409);
  });

  it('[OUT-10] the status is kept about 2 hours after the call ends, then 404', async () => {
    const sid = await placed({ to_number: '+14155550134' });
    await advance(5 * 60_000);
    assert.equal((await status(sid)).body.status, 'in-progress', 'a call in progress is never dropped');
    await admin(`/outbound/calls/${sid}/hangup`);
    await advance(2 * 60 * 60_000 - 60_000);
    assert.equal((await status(sid)).status, 200);
    await advance(2 * 60_000);
    const gone = await status(sid);
    assert.equal(gone.status, 404);
    assert.match(gone.body.error_message, /\S/);
  });

  it('[OUT-10] an unknown call_sid answers 404 with error_message', async () => {
    const res = await status('OUT-0000');
    assert.equal(res.status, 404);
    assert.match(res.body.error_message, /not found/i);
  });
});
