import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatCreateReply, ChatErrorBody, ChatRespondReply } from '../../../src/contract/chat';
import {
  LOCAL_ACCOUNT,
  LOCAL_CONNECTORS,
  LOCAL_KEYS,
  LOCAL_PROJECT,
} from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

const AUTH = { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken };

describe('Chat API (spec: Endpoints > Chat API, Chat conversation states)', () => {
  const t = useLocalPlatform();
  const chatUrl = (
    op: string,
    account: string = LOCAL_ACCOUNT.slug,
    project: string = LOCAL_PROJECT.slug,
    version = 'v1',
  ) => `${t.lp.urls.runtime}/${version}/${account}/${project}/chat/${op}`;
  const create = (body?: unknown) => call<ChatCreateReply>('POST', chatUrl('create'), { headers: AUTH, body });
  const respond = (body: unknown) =>
    call<ChatRespondReply & ChatErrorBody>('POST', chatUrl('respond'), { headers: AUTH, body });
  const stored = (id: string) => {
    const conv = t.lp.platform.findConversation(id);
    assert.ok(conv, `conversation ${id} is recorded`);
    return conv;
  };

  for (const [label, account, project] of [
    ['slugs', LOCAL_ACCOUNT.slug, LOCAL_PROJECT.slug],
    ['prefixed ids', LOCAL_ACCOUNT.id, LOCAL_PROJECT.id],
    ['a slug and a prefixed id', LOCAL_ACCOUNT.slug, LOCAL_PROJECT.id],
  ] as const) {
    it(`[CHAT-1][ADDR-1] create with ${label} returns conversation_id and the agent's greeting`, async () => {
      const res = await call<ChatCreateReply>('POST', chatUrl('create', account, project), { headers: AUTH, body: {} });
      assert.equal(res.status, 200);
      assert.match(res.body.conversation_id, /\S/);
      assert.equal(res.body.response, "Hello! I'm Sam, the support agent of Acme. How can I help you today?");
      const conv = stored(res.body.conversation_id);
      assert.equal(conv.channel, 'CHAT');
      assert.equal(conv.in_progress, true);
      assert.equal(conv.environment, 'sandbox');
      assert.equal(conv.turns.length, 1);
    });
  }

  it('[CHAT-1] create accepts an empty body', async () => {
    const res = await call<ChatCreateReply>('POST', chatUrl('create'), { headers: AUTH });
    assert.equal(res.status, 200);
    assert.ok(res.body.response.length > 0);
  });

  const missing: Array<[string, Record<string, string>]> = [
    ['no X-API-KEY', { 'X-TOKEN': LOCAL_CONNECTORS.chatToken }],
    ['no X-TOKEN', { 'X-API-KEY': LOCAL_KEYS.chat }],
    ['neither header', {}],
    ['an unknown API key', { 'X-API-KEY': 'nope', 'X-TOKEN': LOCAL_CONNECTORS.chatToken }],
    ['an unknown connector token', { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': 'nope' }],
    [
      'a webchat token instead of a chat connector token',
      { 'X-API-KEY': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.webchatToken },
    ],
  ];
  for (const [label, headers] of missing) {
    for (const op of ['create', 'respond']) {
      it(`[CHAT-7][AUTH-1] ${op} with ${label} answers 401 with error_message`, async () => {
        const res = await call<ChatErrorBody>('POST', chatUrl(op), { headers, body: { conversation_id: 'conv_1' } });
        assert.equal(res.status, 401);
        assert.match(res.body.error_message, /\S/);
      });
    }
  }

  it('[CHAT-7][AUTH-1] close without headers answers 401', async () => {
    const res = await call<ChatErrorBody>('PUT', chatUrl('close'), { body: { conversation_id: 'conv_1' } });
    assert.equal(res.status, 401);
  });

  for (const [label, headers, expected] of [
    [
      'x-api-key in lower case',
      { 'x-api-key': LOCAL_KEYS.chat, 'X-TOKEN': LOCAL_CONNECTORS.chatToken },
      /header names are case-sensitive, send X-API-KEY \(not x-api-key\)$/,
    ],
    [
      'X-Token in mixed case',
      { 'X-API-KEY': LOCAL_KEYS.chat, 'X-Token': LOCAL_CONNECTORS.chatToken },
      /header names are case-sensitive, send X-TOKEN \(not X-Token\)$/,
    ],
    [
      'both in lower case',
      { 'x-api-key': LOCAL_KEYS.chat, 'x-token': LOCAL_CONNECTORS.chatToken },
      /case-sensitive, send X-API-KEY \(not x-api-key\) and X-TOKEN \(not x-token\)$/,
    ],
  ] as const) {
    it(`[CHAT-7][AUTH-1] the header names are case-sensitive in every mode: ${label} answers 401 naming the expected name`, async () => {
      const before = t.lp.platform.state.conversations.length;
      const res = await call<ChatErrorBody>('POST', chatUrl('create'), { headers, body: {} });
      assert.equal(res.status, 401);
      assert.match(res.body.error_message, expected);
      assert.equal(t.lp.platform.state.conversations.length, before, 'no conversation was started');
    });
  }

  it('[CHAT-7] a version other than v1 answers 404 naming the supported version', async () => {
    const res = await call<ChatErrorBody>('POST', chatUrl('create', LOCAL_ACCOUNT.slug, LOCAL_PROJECT.slug, 'v2'), {
      headers: AUTH,
      body: {},
    });
    assert.equal(res.status, 404);
    assert.match(res.body.error_message, /v1/);
  });

  it('[CHAT-7] a body that is not application/json answers 415', async () => {
    const res = await call<ChatErrorBody>('POST', chatUrl('create'), {
      headers: { ...AUTH, 'content-type': 'text/plain' },
      rawBody: '{}',
    });
    assert.equal(res.status, 415);
  });

  it('[CHAT-7] invalid JSON answers 400 naming the body', async () => {
    const res = await call<ChatErrorBody>('POST', chatUrl('respond'), {
      headers: { ...AUTH, 'content-type': 'application/json' },
      rawBody: '{nope',
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.field, 'body');
  });

  it('[CHAT-7][ADDR-1] an unknown account or project answers 404; a key of another project answers 403', async () => {
    assert.equal((await call('POST', chatUrl('create', 'nobody'), { headers: AUTH, body: {} })).status, 404);
    assert.equal(
      (await call('POST', chatUrl('create', LOCAL_ACCOUNT.slug, 'nothing'), { headers: AUTH, body: {} })).status,
      404,
    );
    const state = t.lp.platform.state;
    state.projects.push({
      ...state.projects[0]!,
      id: 'PROJECT-0ther000',
      slug: 'other',
      settings: { ...state.projects[0]!.settings },
    });
    const res = await call<ChatErrorBody>('POST', chatUrl('create', LOCAL_ACCOUNT.slug, 'other'), {
      headers: AUTH,
      body: {},
    });
    assert.equal(res.status, 403);
  });

  it('[CHAT-2] variant_id on create is recorded on the conversation', async () => {
    const res = await create({ variant_id: 'var_friendly' });
    assert.equal(res.status, 200);
    const conv = stored(res.body.conversation_id);
    assert.equal(conv.variant_id, 'var_friendly');
    assert.equal(conv.variant_name, 'Friendly Tone');
  });

  it('[CHAT-2] an unknown variant_id on create answers 400 naming the field', async () => {
    const res = await call<ChatErrorBody>('POST', chatUrl('create'), {
      headers: AUTH,
      body: { variant_id: 'var_nope' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.field, 'variant_id');
  });

  it('[CHAT-2] variant_id on respond answers 400 naming the field and the variant stays', async () => {
    const { body } = await create({ variant_id: 'var_default' });
    const res = await respond({ conversation_id: body.conversation_id, message: 'hello', variant_id: 'var_friendly' });
    assert.equal(res.status, 400);
    assert.equal(res.body.field, 'variant_id');
    assert.match(res.body.error_message, /only on create/);
    assert.equal(stored(body.conversation_id).variant_id, 'var_default');
  });

  it('[CHAT-3] integration_attributes take effect on the first turn', async () => {
    const res = await create({ integration_attributes: { customer_name: 'Alex', plan: 'gold', visits: 3 } });
    assert.equal(res.body.response, "Hello Alex! I'm Sam, the support agent of Acme. How can I help you today?");
    const conv = stored(res.body.conversation_id);
    assert.deepEqual(conv.integration_attributes, { customer_name: 'Alex', plan: 'gold', visits: 3 });
    assert.deepEqual(conv.state.integration_attributes, { customer_name: 'Alex', plan: 'gold', visits: 3 });
  });

  it('[CHAT-3] integration_attributes may be absent or null', async () => {
    for (const body of [{}, { integration_attributes: null }]) {
      const res = await create(body);
      assert.equal(res.status, 200);
      assert.equal(stored(res.body.conversation_id).integration_attributes, null);
    }
  });

  it('[CHAT-3] integration_attributes that are not an object answer 400 naming the field', async () => {
    const res = await call<ChatErrorBody>('POST', chatUrl('create'), {
      headers: AUTH,
      body: { integration_attributes: 'x' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.field, 'integration_attributes');
  });

  it('[CHAT-4] respond without conversation_id answers 400 naming the field', async () => {
    const res = await respond({ message: 'hello' });
    assert.equal(res.status, 400);
    assert.equal(res.body.field, 'conversation_id');
  });

  it('[CHAT-4] respond takes message, integration_attributes, metadata and language codes, all optional', async () => {
    const { body } = await create();
    const bare = await respond({ conversation_id: body.conversation_id });
    assert.equal(bare.status, 200);
    const full = await respond({
      conversation_id: body.conversation_id,
      message: 'What are your opening hours?',
      integration_attributes: { order_id: 'A-1' },
      metadata: { page: '/help' },
      asr_lang_code: 'en-GB',
      tts_lang_code: 'en',
    });
    assert.equal(full.status, 200);
    const conv = stored(body.conversation_id);
    assert.deepEqual(conv.state.metadata, { page: '/help' });
    assert.deepEqual(conv.integration_attributes, { order_id: 'A-1' });
    assert.equal(conv.language, 'en-GB');
    const silence = conv.turns[1]!;
    assert.equal(silence.is_silence, true);
  });

  it('[CHAT-4] a malformed language code answers 400 naming the field', async () => {
    const { body } = await create();
    const res = await respond({
      conversation_id: body.conversation_id,
      message: 'hi',
      asr_lang_code: 'english please',
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.field, 'asr_lang_code');
  });

  it('[CHAT-4] respond to an unknown conversation answers 404', async () => {
    const res = await respond({ conversation_id: 'conv_unknown', message: 'hello' });
    assert.equal(res.status, 404);
  });

  it('[CHAT-5] a question is answered from the best knowledge topic; end_conversation false, no handoff', async () => {
    const { body } = await create();
    const res = await respond({ conversation_id: body.conversation_id, message: 'Can I return my shoes?' });
    assert.equal(res.status, 200);
    assert.equal(res.body.conversation_id, body.conversation_id);
    assert.match(res.body.response, /return any item within 30 days/);
    assert.equal(res.body.end_conversation, false);
    assert.equal('handoff' in res.body, false);
    const turn = stored(body.conversation_id).turns.at(-1)!;
    assert.deepEqual(turn.intents, ['faq.returns']);
    assert.equal(turn.is_ood, false);
  });

  it('[CHAT-5] an out-of-domain question gets a polite fallback and is recorded as out of domain', async () => {
    const { body } = await create();
    const res = await respond({ conversation_id: body.conversation_id, message: 'What is the weather like on Mars?' });
    assert.match(res.body.response, /^Sorry, I can't help with that\. I can help with/);
    const conv = stored(body.conversation_id);
    assert.equal(conv.turns.at(-1)!.is_ood, true);
  });

  it('[CHAT-5] asking for a person hands off to the connector destination', async () => {
    const { body } = await create();
    const res = await respond({
      conversation_id: body.conversation_id,
      message: 'Can I talk to a real person please?',
    });
    assert.deepEqual(res.body.handoff, {
      destination: 'human-support-queue',
      reason: 'The user asked to speak to a person',
    });
    assert.equal(res.body.end_conversation, false);
    const conv = stored(body.conversation_id);
    assert.equal(conv.handoff, true);
    assert.equal(conv.handoff_destination, 'human-support-queue');
  });

  it('[CHAT-5] goodbye ends the conversation with end_conversation true', async () => {
    const { body } = await create();
    const res = await respond({ conversation_id: body.conversation_id, message: "Thanks, that's all. Bye!" });
    assert.equal(res.body.end_conversation, true);
    assert.equal(stored(body.conversation_id).in_progress, false);
    const again = await respond({ conversation_id: body.conversation_id, message: 'hello?' });
    assert.equal(again.status, 409);
  });

  it('[CHAT-6] close returns success true and a later respond answers 409 naming the conversation', async () => {
    const { body } = await create();
    const closed = await call<{ success: boolean }>('PUT', chatUrl('close'), {
      headers: AUTH,
      body: { conversation_id: body.conversation_id },
    });
    assert.equal(closed.status, 200);
    assert.deepEqual(closed.body, { success: true });
    assert.equal(stored(body.conversation_id).in_progress, false);
    const res = await respond({ conversation_id: body.conversation_id, message: 'still there?' });
    assert.equal(res.status, 409);
    assert.match(res.body.error_message, new RegExp(body.conversation_id));
    const again = await call<{ success: boolean }>('PUT', chatUrl('close'), {
      headers: AUTH,
      body: { conversation_id: body.conversation_id },
    });
    assert.deepEqual(again.body, { success: true });
  });

  it('[CHAT-6] close without conversation_id answers 400; of an unknown conversation 404', async () => {
    const a = await call<ChatErrorBody>('PUT', chatUrl('close'), { headers: AUTH, body: {} });
    assert.equal(a.status, 400);
    assert.equal(a.body.field, 'conversation_id');
    const b = await call<ChatErrorBody>('PUT', chatUrl('close'), {
      headers: AUTH,
      body: { conversation_id: 'conv_nope' },
    });
    assert.equal(b.status, 404);
  });

  it('[CHAT-6] close is a PUT: POST on close answers 405', async () => {
    const res = await call('POST', chatUrl('close'), { headers: AUTH, body: { conversation_id: 'x' } });
    assert.equal(res.status, 405);
  });

  it("the seed's connector token with _pre-release or _live appended reaches that environment; another suffix is refused", async () => {
    for (const environment of ['pre-release', 'live'] as const) {
      const res = await call<ChatCreateReply>('POST', chatUrl('create'), {
        headers: { ...AUTH, 'X-TOKEN': `${LOCAL_CONNECTORS.chatToken}_${environment}` },
        body: {},
      });
      assert.equal(res.status, 200);
      assert.equal(stored(res.body.conversation_id).environment, environment);
    }
    const wrong = await call<ChatErrorBody>('POST', chatUrl('create'), {
      headers: { ...AUTH, 'X-TOKEN': `${LOCAL_CONNECTORS.chatToken}_staging` },
      body: {},
    });
    assert.equal(wrong.status, 401);
  });

  it("a Chat connector's handoff destination is set through the admin API; a webchat's settings on it are refused", async () => {
    const set = await call<{ handoffDestination: string | null }>(
      'PATCH',
      `${t.lp.urls.admin}/messaging/connectors/conn_chat`,
      {
        body: { handoffDestination: 'billing-queue' },
      },
    );
    assert.equal(set.status, 200);
    assert.equal(set.body.handoffDestination, 'billing-queue');
    const created = await create({});
    const handed = await respond({
      conversation_id: created.body.conversation_id,
      message: 'Can I speak to a person, please?',
    });
    assert.equal(handed.status, 200);
    assert.equal(stored(created.body.conversation_id).handoff_destination, 'billing-queue');
    const refused = await call<{ message?: string }>('PATCH', `${t.lp.urls.admin}/messaging/connectors/conn_chat`, {
      body: { handoffMode: 'connect-fails' },
    });
    assert.equal(refused.status, 400);
  });
});
