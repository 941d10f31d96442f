import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatClient } from '../../../src/client/chat';
import { DniClient } from '../../../src/client/dni';
import { ExternalEventsClient } from '../../../src/client/externalEvents';
import { OutboundClient } from '../../../src/client/outbound';
import type { RequestLog } from '../../../src/client/transport';
import { isError, localContext } from '../../support/localClient';
import { assumed, useLocalPlatform } from '../../support/localPlatform';

describe('client: Chat API', () => {
  const t = useLocalPlatform();

  it('[CHAT-1][CHAT-5][CHAT-6][CHAT-7] creates, responds and closes a conversation', async () => {
    const chat = new ChatClient(localContext(t.lp));
    const created = await chat.create();
    assert.ok(created.conversation_id);
    assert.ok(created.response.length > 0);
    const reply = await chat.respond({
      conversation_id: created.conversation_id,
      message: 'What are your opening hours?',
    });
    assert.match(reply.response, /Monday/);
    assert.equal(reply.end_conversation, false);
    assert.deepEqual(await chat.close(created.conversation_id), { success: true });
  });

  it('[CHAT-2] refuses to send variant_id on respond, before sending anything', async () => {
    const logs: RequestLog[] = [];
    const chat = new ChatClient(localContext(t.lp, { logs }));
    await assert.rejects(
      chat.respond({ conversation_id: 'c1', message: 'hi', variant_id: 'var_friendly' } as never),
      isError('invalidInput', /variant_id/),
    );
    assert.equal(logs.length, 0);
  });

  it('[AUTH-1] says which credential is missing and sends nothing', async () => {
    const logs: RequestLog[] = [];
    const chat = new ChatClient(localContext(t.lp, { logs, overrides: { chatConnectorToken: undefined } }));
    await assert.rejects(chat.create(), isError('notConfigured', /Chat connector token/));
    assert.equal(logs.length, 0);
  });

  it('[AUTH-1] maps a rejected key to a message that says which credential to check', async () => {
    const chat = new ChatClient(localContext(t.lp, { overrides: { chatApiKey: 'wrong-key-123' } }));
    await assert.rejects(chat.create(), isError('unauthorized', /Chat API key or connector token/));
  });
});

describe('client: Outbound Calling, DNI, External Events', () => {
  const t = useLocalPlatform();

  it('[OUT-2][OUT-6] places a call and reads its status', async (ctx) => {
    if (assumed('GET /v1/outbound-calling/{call_sid} (call status)', ctx)) return;
    const outbound = new OutboundClient(localContext(t.lp));
    const { call_sid } = await outbound.placeCall({ to_number: '+14155550199', metadata: { order: '42' } });
    assert.match(call_sid, /^OUT-/);
    const status = await outbound.callStatus(call_sid);
    assert.equal(status.call_sid, call_sid);
  });

  it('[OUT-2][OUT-3][OUT-4] checks number and metadata before sending', async () => {
    const logs: RequestLog[] = [];
    const outbound = new OutboundClient(localContext(t.lp, { logs }));
    await assert.rejects(outbound.placeCall({ to_number: '4155550199' }), isError('invalidInput', /to_number/));
    await assert.rejects(
      outbound.placeCall({ to_number: '+14155550199', metadata: { n: 5 as unknown as string } }),
      isError('invalidInput', /metadata\.n/),
    );
    await assert.rejects(
      outbound.placeCall({ to_number: '+14155550199', metadata: { big: 'x'.repeat(27_000) } }),
      isError('invalidInput', /26 KB/),
    );
    assert.equal(logs.length, 0);
  });

  it('[OUT-7] explains a rejected outbound token', async () => {
    const outbound = new OutboundClient(
      localContext(t.lp, { overrides: { outboundAuthToken: 'lp_voice_inbound_only_token' } }),
    );
    await assert.rejects(
      outbound.placeCall({ to_number: '+14155550199' }),
      isError('unauthorized', /not configured for outbound calling/),
    );
  });

  it('[OUT-8] does not repeat a failed call placement by itself', async () => {
    const logs: RequestLog[] = [];
    const outbound = new OutboundClient(localContext(t.lp, { logs }));
    await t.admin.addFault({ family: 'runtime', path: '/v1/outbound-calling', method: 'POST', status: 500, times: 1 });
    await assert.rejects(
      outbound.placeCall({ to_number: '+14155550199' }),
      isError('server', /call could not be placed/),
    );
    assert.equal(logs.at(-1)?.retries, 0);
  });

  it('[DNI-1][DNI-2][DNI-3] reserves a number with nested attributes', async () => {
    const dni = new DniClient(localContext(t.lp));
    const { dni: number } = await dni.reserve({ customer: { tier: 'gold', ids: [1, 2] } });
    assert.match(number, /^\+\d{8,15}$/);
  });

  it('[EXT-5] maps an unknown event id to the spec meaning', async () => {
    const events = new ExternalEventsClient(localContext(t.lp));
    await assert.rejects(
      events.send({
        eventIdLocation: 'payload',
        eventIdPath: 'booking.id',
        body: JSON.stringify({ booking: { id: 'nope' } }),
        contentType: 'application/json',
      }),
      isError('validation', /event id could not be found/),
    );
  });

  it('refuses an external event body that is not valid JSON before sending', async () => {
    const logs: RequestLog[] = [];
    const events = new ExternalEventsClient(localContext(t.lp, { logs }));
    await assert.rejects(
      events.send({ eventIdLocation: 'payload', eventIdPath: 'id', body: '{oops', contentType: 'application/json' }),
      isError('invalidInput', /body: is not valid JSON/),
    );
    assert.equal(logs.length, 0);
  });
});
