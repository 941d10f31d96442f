import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  conversationRecordSchema,
  type ConversationsPageV1,
  conversationsPageV1Schema,
  type ConversationsPageV3,
  conversationsPageV2Schema,
  conversationsPageV3Schema,
} from '../../../src/contract/conversations';
import { LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { buildConversation, buildTurn, insertConversations } from '../../support/conversations';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

const RECORD_FIELDS = [
  'id',
  'account_id',
  'project_id',
  'variant_id',
  'variant_name',
  'environment',
  'started_at',
  'channel',
  'from_number',
  'to_number',
  'in_progress',
  'num_turns',
  'total_duration',
  'polyai_duration',
  'handoff',
  'handoff_reason',
  'handoff_destination',
  'num_silences',
  'num_ood',
  'metrics',
  'state',
  'turns',
];
const TURN_FIELDS = [
  'user_input',
  'user_input_dtmf',
  'user_input_datetime',
  'barge_in',
  'agent_response',
  'agent_response_datetime',
  'latency',
  'translated_user_input',
  'english_agent_response',
  'intents',
  'entities',
  'is_ood',
  'is_silence',
];

describe('Conversations API: records, turns and versions (spec: Conversation record, Versioning)', () => {
  const t = useLocalPlatform();
  const get = <T = ConversationsPageV3>(version: string, qs = '') =>
    call<T>('GET', `${t.lp.urls.runtime}/${version}/acme/support-desk/conversations${qs ? `?${qs}` : ''}`, {
      headers: { 'x-api-key': LOCAL_KEYS.conversations },
    });
  const settings = (body: Record<string, unknown>) =>
    call('PATCH', `${t.lp.urls.admin}/projects/PROJECT-5a7e1c0d/settings`, { body });

  /** A conversation with a greeting, an out-of-domain turn, a silence and a handoff. */
  function rich() {
    const at = '2026-01-05T09:00:00Z';
    return buildConversation(at, {
      handoff: true,
      handoff_reason: 'caller asked for a person',
      handoff_destination: 'human-support-queue',
      total_duration: 95,
      polyai_duration: 80,
      metrics: { CSAT: '5', INTERNAL_ONLY: 'x' },
      turns: [
        buildTurn('2026-01-05T09:00:01Z', {
          user_input: null,
          user_input_datetime: null,
          agent_response: 'Hi, this is Sam from Acme. How can I help?',
          intents: [],
          latency: 0,
        }),
        buildTurn('2026-01-05T09:00:10Z', {
          user_input: 'Can you book me a taxi?',
          agent_response: 'Sorry, I can only help with orders, returns, delivery and opening hours.',
          is_ood: true,
          intents: [],
          latency: 910,
        }),
        buildTurn('2026-01-05T09:00:20Z', {
          user_input: '',
          agent_response: 'Are you still there?',
          is_silence: true,
          intents: [],
          latency: 400,
        }),
        buildTurn('2026-01-05T09:00:30Z', {
          user_input: 'Let me talk to a person',
          user_input_dtmf: '0',
          barge_in: true,
          agent_response: 'Connecting you now.',
          intents: ['handoff'],
          entities: { queue: 'support' },
          latency: 1200,
        }),
      ],
    });
  }

  it('[CONV-21] a v3 record carries every field of the record table and each turn every field of the turn table', async () => {
    await settings({ translation: true });
    insertConversations(t.lp, rich());
    const res = await get('v3', 'include_latency=true');
    assert.equal(res.status, 200);
    const page = conversationsPageV3Schema.parse(res.body);
    const rec = page.conversations[0]!;
    assert.deepEqual(Object.keys(rec).sort(), [...RECORD_FIELDS].sort());
    for (const turn of rec.turns) assert.deepEqual(Object.keys(turn).sort(), [...TURN_FIELDS].sort());
    assert.equal(rec.num_turns, 4);
    assert.equal(rec.num_ood, 1);
    assert.equal(rec.num_silences, 1);
    assert.equal(rec.handoff, true);
    assert.equal(rec.handoff_destination, 'human-support-queue');
    assert.equal(rec.total_duration, 95);
    assert.equal(rec.polyai_duration, 80);
    assert.deepEqual(rec.state, { from_: '+14155559876', to: '+14155550123', call_sid: rec.state.call_sid });
    assert.deepEqual(rec.turns[3]!.entities, { queue: 'support' });
    assert.equal(rec.turns[3]!.user_input_dtmf, '0');
    assert.equal(rec.turns[3]!.barge_in, true);
  });

  it('[CONV-13] include_latency=true adds the per-turn latency in ms; without it there is none', async () => {
    insertConversations(t.lp, rich());
    const withLatency = await get('v3', 'include_latency=true');
    assert.deepEqual(
      withLatency.body.conversations[0]!.turns.map((x) => x.latency),
      [0, 910, 400, 1200],
    );
    const without = await get('v3');
    assert.ok(without.body.conversations[0]!.turns.every((x) => !('latency' in x)));
  });

  it('[CONV-13][CONV-18] include_latency never fills an empty turns list', async () => {
    await settings({ transcriptVisibility: false });
    insertConversations(t.lp, rich());
    const res = await get('v3', 'include_latency=true');
    assert.deepEqual(res.body.conversations[0]!.turns, []);
  });

  for (const version of ['v1', 'v2', 'v3']) {
    it(`[CONV-18] ${version}: transcript visibility off gives empty turns while num_turns is the true count`, async () => {
      await settings({ transcriptVisibility: false });
      insertConversations(t.lp, rich());
      const res = await get(version);
      const rec = res.body.conversations[0]!;
      assert.deepEqual(rec.turns, []);
      assert.equal(rec.num_turns, 4);
      assert.equal(rec.num_ood, 1);
    });
  }

  it('[CONV-19] no response metrics enabled gives metrics {}; enabled ones appear (built-in computed, custom from the record)', async () => {
    insertConversations(t.lp, rich());
    const all = (await get('v3')).body.conversations[0]!.metrics;
    assert.equal(all.CALL_DURATION, '95');
    assert.deepEqual(
      all.CALL_TURN,
      ['2026-01-05T09:00:01.000Z', '2026-01-05T09:00:10.910Z', '2026-01-05T09:00:20.400Z', '2026-01-05T09:00:31.200Z'],
      'one timestamp per turn',
    );
    assert.equal(all.CALL_IN_PROGRESS, 'false');
    assert.equal(all.CALL_COMPLETED, 'true');
    assert.equal(all.HANDOFF_TO, 'human-support-queue');
    assert.equal(all.HANDOFF_REASON, 'caller asked for a person');
    assert.equal('CSAT' in all, false, 'a custom metric appears only when enabled');
    await settings({ responseMetrics: ['CALL_DURATION', 'CSAT'] });
    assert.deepEqual((await get('v3')).body.conversations[0]!.metrics, { CALL_DURATION: '95', CSAT: '5' });
    await settings({ responseMetrics: [] });
    for (const version of ['v1', 'v2', 'v3']) assert.deepEqual((await get(version)).body.conversations[0]!.metrics, {});
  });

  it('[CONV-20] v3 and v2 give "" for empty text fields, never null; v2 has the same schema', async () => {
    insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z', {
        channel: 'CHAT',
        from_number: null,
        to_number: null,
        variant_id: null,
        variant_name: null,
        turns: [buildTurn('2026-01-05T09:00:01Z', { user_input: null, user_input_datetime: null })],
      }),
    );
    const v3 = conversationsPageV3Schema.parse((await get('v3')).body).conversations[0]!;
    const v2res = await get('v2');
    const v2 = conversationsPageV2Schema.parse(v2res.body).conversations[0]!;
    for (const rec of [v3, v2]) {
      for (const field of [
        'from_number',
        'to_number',
        'variant_id',
        'variant_name',
        'handoff_reason',
        'handoff_destination',
      ] as const)
        assert.equal(rec[field], '', field);
      assert.equal(rec.turns[0]!.user_input, '');
      assert.equal(rec.turns[0]!.user_input_dtmf, '');
      assert.equal(rec.turns[0]!.user_input_datetime, '');
    }
    assert.deepEqual(Object.keys(v2).sort(), Object.keys(v3).sort());
    assert.ok(!JSON.stringify(v2res.body).includes('null'));
    assert.equal('cursor' in v2res.body, false, 'cursor paging is v3 only');
  });

  it('[CONV-17] latency and translated fields only on v3', async () => {
    await settings({ translation: true });
    insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z', {
        language: 'es-ES',
        turns: [
          buildTurn('2026-01-05T09:00:01Z', {
            user_input: '¿A qué hora abren?',
            translated_user_input: 'What time do you open?',
            agent_response: 'Abrimos a las 9.',
            english_agent_response: 'We open at 9.',
          }),
        ],
      }),
    );
    const v3 = (await get('v3', 'include_latency=true')).body.conversations[0]!.turns[0]!;
    assert.equal(v3.translated_user_input, 'What time do you open?');
    assert.equal(v3.english_agent_response, 'We open at 9.');
    assert.equal(v3.latency, 700);
    for (const version of ['v1', 'v2']) {
      const turn = (await get<ConversationsPageV3>(version, 'include_latency=true')).body.conversations[0]!.turns[0]!;
      for (const field of ['latency', 'translated_user_input', 'english_agent_response'])
        assert.equal(field in turn, false, `${version} ${field}`);
    }
    await settings({ translation: false });
    const off = (await get('v3')).body.conversations[0]!.turns[0]!;
    assert.equal('translated_user_input' in off, false);
  });

  it('[CONV-17] v1 keeps null for empty text; with field whitelisting records carry only id, started_at, account_id, project_id', async () => {
    const [conv] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z', { from_number: null, handoff_reason: null }),
    );
    const full = conversationsPageV1Schema.parse((await get<ConversationsPageV1>('v1')).body).conversations[0]!;
    assert.equal(full.from_number, null);
    assert.equal(full.handoff_reason, null);
    assert.equal(full.turns![0]!.user_input_dtmf, null);
    assert.equal(full.num_turns, 1);
    await settings({ v1FieldWhitelist: true });
    const res = await get<ConversationsPageV1>('v1');
    assert.deepEqual(res.body.conversations, [
      { id: conv!.id, started_at: conv!.started_at, account_id: 'ACCOUNT-a1b2c3d', project_id: 'PROJECT-5a7e1c0d' },
    ]);
    assert.deepEqual(Object.keys(res.body.descriptions).sort(), ['account_id', 'id', 'project_id', 'started_at']);
    // The whitelist is a v1 setting: v3 still gets the full record.
    assert.ok(conversationRecordSchema.safeParse((await get('v3')).body.conversations[0]).success);
  });

  it('[CONV-21] a finished conversation that changes later (a late external event result) is read with the change', async () => {
    const [conv] = insertConversations(t.lp, buildConversation('2026-01-05T09:00:00Z'));
    assert.equal((await get('v3')).body.conversations[0]!.state.payment_status, undefined);
    conv!.state.payment_status = 'paid';
    t.lp.platform.conversationChanged(conv!);
    assert.equal((await get('v3')).body.conversations[0]!.state.payment_status, 'paid');
  });

  it('[CONV-22] in_progress is true while the conversation is active and false once it has ended', async () => {
    const [conv] = insertConversations(
      t.lp,
      buildConversation(new Date(t.lp.platform.clock.now() - 30_000).toISOString(), { in_progress: true }),
    );
    const during = (await get('v3')).body.conversations[0]!;
    assert.equal(during.in_progress, true);
    assert.equal(during.metrics.CALL_IN_PROGRESS, 'true');
    assert.ok(during.total_duration! >= 30, 'the running duration so far');
    t.lp.platform.endConversation(conv!);
    const after = (await get('v3')).body.conversations[0]!;
    assert.equal(after.in_progress, false);
    assert.equal(after.metrics.CALL_COMPLETED, 'true');
  });
});
