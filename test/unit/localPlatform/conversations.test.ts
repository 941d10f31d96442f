import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConversationsPageV3 } from '../../../src/contract/conversations';
import { LOCAL_ACCOUNT, LOCAL_KEYS, LOCAL_PROJECT } from '../../../src/localPlatform/seed/credentials';
import { buildConversation, conversationSeries, insertConversations } from '../../support/conversations';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

type Page = ConversationsPageV3 & { error_message?: string };

describe('Conversations API: addresses, keys and parameters (spec: Conversations API, Authentication)', () => {
  const t = useLocalPlatform();
  const auth = { 'x-api-key': LOCAL_KEYS.conversations };
  const url = (version: string, qs = '', account = 'acme', project = 'support-desk'): string =>
    `${t.lp.urls.runtime}/${version}/${account}/${project}/conversations${qs ? `?${qs}` : ''}`;
  const list = (qs = '', version = 'v3') => call<Page>('GET', url(version, qs), { headers: auth });
  const ids = (page: Page): string[] => page.conversations.map((c) => c.id);

  for (const version of ['v1', 'v2', 'v3']) {
    it(`[CONV-1][AUTH-1] ${version} lists conversations with the x-api-key header`, async () => {
      const [conv] = insertConversations(t.lp, buildConversation('2026-01-05T09:00:00Z'));
      const res = await list('', version);
      assert.equal(res.status, 200);
      assert.deepEqual(ids(res.body), [conv!.id]);
    });
  }

  it('[ADDR-1][CONV-1] the slug form and the prefixed form of account and project give the same records', async () => {
    insertConversations(t.lp, buildConversation('2026-01-05T09:00:00Z'));
    const slug = await call<Page>('GET', url('v3'), { headers: auth });
    const prefixed = await call<Page>('GET', url('v3', '', LOCAL_ACCOUNT.id, LOCAL_PROJECT.id), { headers: auth });
    assert.equal(prefixed.status, 200);
    assert.deepEqual(prefixed.body, slug.body);
  });

  it('[CONV-1] an unknown version answers 404 naming the versions', async () => {
    const res = await list('', 'v4');
    assert.equal(res.status, 404);
    assert.match(res.body.error_message!, /v3.*v2.*v1/);
  });

  const authCases: Array<{
    name: string;
    status: number;
    headers: Record<string, string>;
    account?: string;
    project?: string;
  }> = [
    { name: 'no key', status: 401, headers: {} },
    { name: 'an unknown key', status: 401, headers: { 'x-api-key': 'nope' } },
    { name: 'a key of another family (chat)', status: 401, headers: { 'x-api-key': LOCAL_KEYS.chat } },
    { name: 'a key of another project', status: 403, headers: { 'x-api-key': 'other_project_key' } },
    { name: 'an unknown account', status: 404, headers: auth, account: 'nobody' },
    { name: 'an unknown project', status: 404, headers: auth, project: 'PROJECT-00000000' },
  ];
  for (const c of authCases) {
    it(`[CONV-1][AUTH-1] ${c.name}: ${c.status} with error_message`, async () => {
      t.lp.platform.state.projects.push({
        id: 'PROJECT-0b11ab1e',
        slug: 'billing',
        accountId: LOCAL_ACCOUNT.id,
        name: 'Billing',
        settings: { ...t.lp.platform.state.projects[0]!.settings },
      });
      t.lp.platform.state.keys.push({
        key: 'other_project_key',
        family: 'conversations',
        accountId: LOCAL_ACCOUNT.id,
        projectId: 'PROJECT-0b11ab1e',
        dataPermission: true,
        label: 'billing',
      });
      const res = await call<Page>('GET', url('v3', '', c.account, c.project), { headers: c.headers });
      assert.equal(res.status, c.status);
      assert.equal(typeof res.body.error_message, 'string');
    });
  }

  it('[CONV-1] a key without Conversations data permission sees an empty list', async () => {
    insertConversations(t.lp, buildConversation('2026-01-05T09:00:00Z'));
    t.lp.platform.state.keys.find((k) => k.key === LOCAL_KEYS.conversations)!.dataPermission = false;
    const res = await list();
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.conversations, []);
    assert.equal(res.body.cursor, null);
  });

  // Parameter validation: each row is a request that must be refused with 400 naming the parameter.
  const range = 'start_time=2026-01-05T00:00:00Z&end_time=2026-01-06T00:00:00Z';
  const invalid: Array<{ rule: string; qs: string; version?: string; names: RegExp }> = [
    { rule: 'CONV-2', qs: 'start_time=yesterday', names: /start_time.*ISO 8601/ },
    { rule: 'CONV-2', qs: 'end_time=2026-02-31T00:00:00Z', names: /end_time.*ISO 8601/ },
    {
      rule: 'CONV-2',
      qs: 'start_time=2026-01-06T00:00:00Z&end_time=2026-01-05T00:00:00Z',
      names: /end_time must not be before start_time/,
    },
    {
      rule: 'CONV-2',
      qs: 'query_type=transcript&query=hours',
      names: /start_time is required with query_type=transcript/,
    },
    {
      rule: 'CONV-2',
      qs: 'query_type=semantic&query=hours&start_time=2026-01-05T00:00:00Z',
      names: /end_time is required/,
    },
    { rule: 'CONV-2', qs: 'sample=random', names: /start_time is required with sample=random/ },
    { rule: 'CONV-3', qs: 'client_env=production', names: /client_env must be one of sandbox, pre-release, live/ },
    {
      rule: 'CONV-5',
      qs: 'variant_id=var_default&variant_name=Default',
      names: /variant_id and variant_name cannot be used together/,
    },
    { rule: 'CONV-6', qs: 'in_progress=yes', names: /in_progress must be true or false/ },
    { rule: 'CONV-7', qs: 'limit=0', names: /limit must be an integer from 1 to 5000/ },
    { rule: 'CONV-7', qs: 'limit=5001', names: /limit must be an integer from 1 to 5000/ },
    { rule: 'CONV-7', qs: 'limit=ten', names: /limit must be an integer from 1 to 5000/ },
    { rule: 'CONV-7', qs: 'limit=2.5', names: /limit must be an integer/ },
    { rule: 'CONV-8', qs: 'offset=-1', names: /offset must be an integer >= 0/ },
    { rule: 'CONV-9', qs: 'cursor=abc', version: 'v1', names: /cursor is available on v3 only/ },
    { rule: 'CONV-9', qs: 'cursor=abc', version: 'v2', names: /cursor is available on v3 only/ },
    { rule: 'CONV-10', qs: `query_type=semantic&${range}`, names: /query is required when query_type is semantic/ },
    {
      rule: 'CONV-10',
      qs: `query_type=keyword&query=x&${range}`,
      names: /query_type must be one of transcript, semantic/,
    },
    {
      rule: 'CONV-10',
      qs: `query_type=transcript&query=hours&sample=random&${range}`,
      names: /query_type and sample cannot be used together/,
    },
    { rule: 'CONV-10', qs: 'query=hours', names: /query needs query_type/ },
    { rule: 'CONV-11', qs: `sample=all&${range}`, names: /sample must be one of random/ },
    { rule: 'CONV-12', qs: 'turn_type=user', names: /turn_type applies to query_type=transcript only/ },
    {
      rule: 'CONV-12',
      qs: `query_type=semantic&query=x&turn_type=agent&${range}`,
      names: /turn_type applies to query_type=transcript only/,
    },
    {
      rule: 'CONV-12',
      qs: `query_type=transcript&query=x&turn_type=bot&${range}`,
      names: /turn_type must be one of user, agent/,
    },
    { rule: 'CONV-13', qs: 'include_latency=1', names: /include_latency must be true or false/ },
    { rule: 'CONV-7', qs: 'limit=5&limit=6', names: /limit may be given only once/ },
    { rule: 'CONV-16', qs: 'chanel=CHAT', names: /unknown parameter chanel/ },
  ];
  for (const row of invalid) {
    it(`[${row.rule}] ${row.version ?? 'v3'} ?${row.qs} answers 400 naming the parameter`, async () => {
      const res = await list(row.qs, row.version ?? 'v3');
      assert.equal(res.status, 400);
      assert.match(res.body.error_message!, row.names);
    });
  }

  it('[CONV-2] without start_time and end_time there is no lower or upper bound; with them only that range', async () => {
    const [old, mid, late] = insertConversations(
      t.lp,
      buildConversation('2019-03-01T10:00:00Z'),
      buildConversation('2026-01-05T10:00:00Z'),
      buildConversation('2026-01-06T10:00:00Z'),
    );
    assert.deepEqual(ids((await list()).body), [old!.id, mid!.id, late!.id]);
    assert.deepEqual(ids((await list('start_time=2026-01-05T00:00:00Z')).body), [mid!.id, late!.id]);
    assert.deepEqual(ids((await list('end_time=2026-01-06T00:00:00Z')).body), [old!.id, mid!.id]);
    assert.deepEqual(
      ids((await list('start_time=2026-01-05T11:00:00%2B01:00&end_time=2026-01-05T12:00:00%2B01:00')).body),
      [mid!.id],
    );
    // An unencoded + arrives as a space; a date alone is midnight UTC.
    assert.deepEqual(
      ids((await list('start_time=2026-01-05T11:00:00+01:00&end_time=2026-01-05T12:00:00+01:00')).body),
      [mid!.id],
    );
    assert.deepEqual(ids((await list('start_time=2026-01-05&end_time=2026-01-06')).body), [mid!.id]);
  });

  it('[CONV-3] client_env defaults to live; sandbox and pre-release are asked for by name', async () => {
    const [live, sandbox, pre] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z'),
      buildConversation('2026-01-05T09:01:00Z', { environment: 'sandbox' }),
      buildConversation('2026-01-05T09:02:00Z', { environment: 'pre-release' }),
    );
    assert.deepEqual(ids((await list()).body), [live!.id]);
    assert.deepEqual(ids((await list('client_env=sandbox')).body), [sandbox!.id]);
    assert.deepEqual(ids((await list('client_env=pre-release')).body), [pre!.id]);
  });

  it('[CONV-4] channel is repeatable and matches any of the given channels', async () => {
    const [voice, web, chat] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z', { channel: 'VOICE-SIP' }),
      buildConversation('2026-01-05T09:01:00Z', { channel: 'WEBCHAT' }),
      buildConversation('2026-01-05T09:02:00Z', { channel: 'CHAT' }),
    );
    assert.deepEqual(ids((await list('channel=WEBCHAT')).body), [web!.id]);
    assert.deepEqual(ids((await list('channel=VOICE-SIP&channel=CHAT')).body), [voice!.id, chat!.id]);
  });

  it('[CONV-5] variant_id or variant_name (spaces as %20) narrows to one variant', async () => {
    const [def, friendly] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z'),
      buildConversation('2026-01-05T09:01:00Z', { variant_id: 'var_friendly', variant_name: 'Friendly Tone' }),
    );
    assert.deepEqual(ids((await list('variant_id=var_default')).body), [def!.id]);
    assert.deepEqual(ids((await list('variant_name=Friendly%20Tone')).body), [friendly!.id]);
  });

  it('[CONV-6] in_progress true gives only active conversations, false only finished, omitted both', async () => {
    const [done, active] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z'),
      buildConversation('2026-01-05T09:01:00Z', { in_progress: true }),
    );
    assert.deepEqual(ids((await list('in_progress=true')).body), [active!.id]);
    assert.deepEqual(ids((await list('in_progress=false')).body), [done!.id]);
    assert.deepEqual(ids((await list()).body), [done!.id, active!.id]);
  });

  it('[CONV-7][CONV-8] limit defaults to 5 and offset to 0; offset skips, limit 5000 is accepted', async () => {
    const all = insertConversations(t.lp, ...conversationSeries('2026-01-05T09:00:00Z', 8, 1));
    const first = await list();
    assert.deepEqual(
      ids(first.body),
      all.slice(0, 5).map((c) => c.id),
    );
    assert.deepEqual(
      ids((await list('offset=6')).body),
      all.slice(6).map((c) => c.id),
    );
    assert.deepEqual(
      ids((await list('limit=2&offset=3')).body),
      all.slice(3, 5).map((c) => c.id),
    );
    assert.equal((await list('limit=5000')).body.conversations.length, 8);
  });
});
