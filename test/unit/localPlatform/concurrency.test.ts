import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ConcurrencyReply, concurrencyReplySchema } from '../../../src/contract/concurrency';
import { LOCAL_ACCOUNT, LOCAL_KEYS, LOCAL_PROJECT } from '../../../src/localPlatform/seed/credentials';
import { buildConversation, insertConversations } from '../../support/conversations';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

type Reply = ConcurrencyReply & { error_message?: string };

/** A conversation from `from` to `to` (HH:MM:SS on 2026-01-05). */
function span(from: string, to: string, over: Parameters<typeof buildConversation>[1] = {}) {
  const start = Date.parse(`2026-01-05T${from}Z`);
  return buildConversation(`2026-01-05T${from}Z`, {
    total_duration: (Date.parse(`2026-01-05T${to}Z`) - start) / 1000,
    ...over,
  });
}

describe('Concurrent Calls API (spec: Concurrent Calls API, Errors)', () => {
  const t = useLocalPlatform();
  const auth = { 'x-api-key': LOCAL_KEYS.conversations };
  const url = (qs: string, account = 'acme', project = 'support-desk') =>
    `${t.lp.urls.runtime}/v1/${account}/${project}/conversations/concurrency?${qs}`;
  const get = (qs: string, headers: Record<string, string> = auth) => call<Reply>('GET', url(qs), { headers });
  const day = (from: string, to: string) => `start_time=2026-01-05T${from}Z&end_time=2026-01-05T${to}Z`;
  const series = (r: Reply) => r.intervals.map((i) => [i.time.slice(11, 16), i.max_concurrent_conversations]);

  it('[CONC-1][CONC-6][AUTH-1] answers account_id, project_id and ascending 5-minute intervals with the x-api-key header', async () => {
    insertConversations(t.lp, span('10:01:00', '10:02:00'));
    const res = await get(day('10:00:00', '10:15:00'));
    assert.equal(res.status, 200);
    const body = concurrencyReplySchema.parse(res.body);
    assert.equal(body.account_id, LOCAL_ACCOUNT.id);
    assert.equal(body.project_id, LOCAL_PROJECT.id);
    assert.deepEqual(
      body.intervals.map((i) => i.time),
      ['2026-01-05T10:00:00.000Z', '2026-01-05T10:05:00.000Z', '2026-01-05T10:10:00.000Z'],
    );
    assert.deepEqual(
      series(res.body),
      [
        ['10:00', 1],
        ['10:05', 0],
        ['10:10', 0],
      ],
      'empty windows are listed with 0',
    );
  });

  it('[ADDR-1][CONC-1] the prefixed account and project ids work like the slugs', async () => {
    const res = await call<Reply>('GET', url(day('10:00:00', '10:05:00'), LOCAL_ACCOUNT.id, LOCAL_PROJECT.id), {
      headers: auth,
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.intervals.length, 1);
  });

  it('[CONC-2] start_time is rounded down and end_time up to 5 minutes', async () => {
    const res = await get(day('10:02:30', '10:11:00'));
    assert.deepEqual(
      res.body.intervals.map((i) => i.time.slice(11, 19)),
      ['10:00:00', '10:05:00', '10:10:00'],
    );
    const aligned = await get(day('10:00:00', '10:10:00'));
    assert.equal(aligned.body.intervals.length, 2, 'aligned bounds stay where they are');
  });

  it('[CONC-6] max_concurrent_conversations is the true maximum of overlapping conversations in each window, not a count', async () => {
    insertConversations(
      t.lp,
      // 10:00 window: three conversations, never more than two at once.
      span('10:00:00', '10:02:00'),
      span('10:01:00', '10:03:00'),
      span('10:02:30', '10:06:00'),
      // One ends the moment another starts: not an overlap.
      span('10:12:00', '10:13:00'),
      span('10:13:00', '10:14:00'),
      // 10:20 window: three at once.
      span('10:20:00', '10:24:00'),
      span('10:21:00', '10:24:00'),
      span('10:22:00', '10:23:00'),
    );
    const res = await get(day('10:00:00', '10:25:00'));
    assert.deepEqual(series(res.body), [
      ['10:00', 2],
      ['10:05', 1],
      ['10:10', 1],
      ['10:15', 0],
      ['10:20', 3],
    ]);
  });

  it('[CONC-6] a conversation in progress counts until now', async () => {
    await t.admin.setClock('2026-01-05T10:12:00Z');
    insertConversations(t.lp, buildConversation('2026-01-05T10:01:00Z', { in_progress: true }));
    const res = await get(day('10:00:00', '10:20:00'));
    assert.deepEqual(series(res.body), [
      ['10:00', 1],
      ['10:05', 1],
      ['10:10', 1],
      ['10:15', 0],
    ]);
  });

  it('[CONC-3] a range of exactly one week is accepted; more than a week answers 400', async () => {
    const week = await get('start_time=2026-01-01T00:00:00Z&end_time=2026-01-08T00:00:00Z');
    assert.equal(week.status, 200);
    assert.equal(week.body.intervals.length, 7 * 24 * 12);
    const more = await get('start_time=2026-01-01T00:00:00Z&end_time=2026-01-08T00:00:01Z');
    assert.equal(more.status, 400);
    assert.match(more.body.error_message!, /at most 1 week apart/);
  });

  it('[CONC-4] client_env defaults to live and selects sandbox or pre-release by name', async () => {
    insertConversations(
      t.lp,
      span('10:00:00', '10:04:00'),
      span('10:00:00', '10:04:00', { environment: 'sandbox' }),
      span('10:01:00', '10:04:00', { environment: 'sandbox' }),
    );
    assert.deepEqual(series((await get(day('10:00:00', '10:05:00'))).body), [['10:00', 1]]);
    assert.deepEqual(series((await get(`${day('10:00:00', '10:05:00')}&client_env=sandbox`)).body), [['10:00', 2]]);
    assert.deepEqual(series((await get(`${day('10:00:00', '10:05:00')}&client_env=pre-release`)).body), [['10:00', 0]]);
  });

  it('[CONC-4] variant_id, variant_name, language and phone_number filter the conversations counted', async () => {
    insertConversations(
      t.lp,
      span('10:00:00', '10:04:00', { language: 'en-GB', to_number: '+14155550123' }),
      span('10:00:00', '10:04:00', {
        variant_id: 'var_friendly',
        variant_name: 'Friendly Tone',
        language: 'es-ES',
        to_number: '+14155550124',
      }),
      span('10:00:00', '10:04:00', {
        variant_id: 'var_friendly',
        variant_name: 'Friendly Tone',
        language: 'es-ES',
        to_number: '+14155550124',
      }),
    );
    const at = (extra: string) =>
      get(`${day('10:00:00', '10:05:00')}&${extra}`).then((r) => r.body.intervals[0]!.max_concurrent_conversations);
    assert.equal(await at('variant_id=var_default'), 1);
    assert.equal(await at('variant_name=Friendly%20Tone'), 2);
    assert.equal(await at('language=es-ES'), 2);
    assert.equal(await at('language=en'), 1, 'a language matches its regional forms');
    assert.equal(await at('phone_number=%2B14155550124'), 2);
    assert.equal(await at('phone_number=%2B14155550999'), 0);
    const echoed = await get(`${day('10:00:00', '10:05:00')}&language=es-ES`);
    assert.equal(echoed.body.intervals[0]!.language, 'es-ES');
  });

  it('[CONC-5] slice_by=variant gives every window per variant with variant_id and variant_name', async () => {
    insertConversations(
      t.lp,
      span('10:00:00', '10:04:00'),
      span('10:06:00', '10:08:00', { variant_id: 'var_friendly', variant_name: 'Friendly Tone' }),
      span('10:06:00', '10:09:00', { variant_id: 'var_friendly', variant_name: 'Friendly Tone' }),
    );
    const res = await get(`${day('10:00:00', '10:10:00')}&slice_by=variant`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.intervals.map((i) => [
        i.time.slice(11, 16),
        i.variant_id,
        i.variant_name,
        i.max_concurrent_conversations,
      ]),
      [
        ['10:00', 'var_default', 'Default', 1],
        ['10:00', 'var_friendly', 'Friendly Tone', 0],
        ['10:05', 'var_default', 'Default', 0],
        ['10:05', 'var_friendly', 'Friendly Tone', 2],
      ],
    );
  });

  for (const slice of ['language', 'phone_number']) {
    it(`[CONC-5][CONC-7] slice_by=${slice} is reserved: 501 with error_message`, async () => {
      const res = await get(`${day('10:00:00', '10:05:00')}&slice_by=${slice}`);
      assert.equal(res.status, 501);
      assert.match(res.body.error_message!, new RegExp(`slice_by=${slice}`));
    });
  }

  const invalid: Array<{ rule: string; qs: string; names: RegExp }> = [
    {
      rule: 'CONC-2',
      qs: 'end_time=2026-01-05T10:00:00Z',
      names: /start_time must be an ISO 8601 timestamp.*\(required\)/,
    },
    {
      rule: 'CONC-2',
      qs: 'start_time=2026-01-05T10:00:00Z',
      names: /end_time must be an ISO 8601 timestamp.*\(required\)/,
    },
    {
      rule: 'CONC-2',
      qs: 'start_time=noon&end_time=2026-01-05T10:00:00Z',
      names: /start_time must be an ISO 8601 timestamp/,
    },
    { rule: 'CONC-3', qs: day('10:00:00', '09:00:00'), names: /end_time must be after start_time/ },
    {
      rule: 'CONC-4',
      qs: `${day('10:00:00', '10:05:00')}&client_env=prod`,
      names: /client_env must be one of sandbox, pre-release, live/,
    },
    {
      rule: 'CONC-4',
      qs: `${day('10:00:00', '10:05:00')}&variant_id=var_default&variant_name=Default`,
      names: /variant_id and variant_name cannot be used together/,
    },
    {
      rule: 'CONC-5',
      qs: `${day('10:00:00', '10:05:00')}&slice_by=channel`,
      names: /slice_by must be one of variant, language, phone_number/,
    },
    { rule: 'CONC-7', qs: `${day('10:00:00', '10:05:00')}&bucket=10m`, names: /unknown parameter bucket/ },
  ];
  for (const row of invalid) {
    it(`[${row.rule}][CONC-7] ?${row.qs} answers 400 with an error_message naming the parameter`, async () => {
      const res = await get(row.qs);
      assert.equal(res.status, 400);
      assert.match(res.body.error_message!, row.names);
    });
  }

  const authCases: Array<{
    name: string;
    status: number;
    headers: Record<string, string>;
    account?: string;
    project?: string;
  }> = [
    { name: 'no key', status: 401, headers: {} },
    { name: 'an unknown key', status: 401, headers: { 'x-api-key': 'wrong' } },
    { name: 'a key of another account', status: 403, headers: { 'x-api-key': 'other_account_key' } },
    { name: 'a key without Conversations data permission', status: 403, headers: { 'x-api-key': 'no_data_key' } },
    { name: 'an unknown account', status: 404, headers: auth, account: 'ACCOUNT-0000000' },
    { name: 'an unknown project', status: 404, headers: auth, project: 'nowhere' },
  ];
  for (const c of authCases) {
    it(`[CONC-7][AUTH-1] ${c.name}: ${c.status} with error_message`, async () => {
      t.lp.platform.state.keys.push(
        {
          key: 'other_account_key',
          family: 'conversations',
          accountId: 'ACCOUNT-9999999',
          dataPermission: true,
          label: 'other',
        },
        {
          key: 'no_data_key',
          family: 'conversations',
          accountId: LOCAL_ACCOUNT.id,
          projectId: LOCAL_PROJECT.id,
          dataPermission: false,
          label: 'no data',
        },
      );
      const res = await call<Reply>('GET', url(day('10:00:00', '10:05:00'), c.account, c.project), {
        headers: c.headers,
      });
      assert.equal(res.status, c.status);
      assert.equal(typeof res.body.error_message, 'string');
    });
  }

  it('[CONC-7] an internal error answers 500 with error_message', async () => {
    await t.admin.addFault({ family: 'runtime', path: '/conversations/concurrency', status: 500, times: 1 });
    const res = await get(day('10:00:00', '10:05:00'));
    assert.equal(res.status, 500);
    assert.equal(typeof res.body.error_message, 'string');
  });
});
