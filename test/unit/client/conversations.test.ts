import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { ClientContext } from '../../../src/client/context';
import { ConversationsClient } from '../../../src/client/conversations';
import { PlatformError } from '../../../src/client/errors';
import { type RequestLog, Transport } from '../../../src/client/transport';
import type { ConversationsQueryInput } from '../../../src/contract/conversations';
import { LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { isError, localContext, localProfile } from '../../support/localClient';
import { buildConversation, buildTurn, conversationSeries, insertConversations } from '../../support/conversations';
import { useLocalPlatform } from '../../support/localPlatform';

const DAY = { start_time: '2026-01-05T00:00:00Z', end_time: '2026-01-06T00:00:00Z' };

describe('client: Conversations API', () => {
  const t = useLocalPlatform();
  const context = (opts: Parameters<typeof localContext>[1] = {}) => localContext(t.lp, opts);

  it('[CONV-1][CONV-14][CONV-21] v3 by default: one page in ascending order with descriptions and a cursor', async () => {
    const [late, early] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T12:00:00Z'),
      buildConversation('2026-01-05T08:00:00Z'),
    );
    const client = new ConversationsClient(context());
    assert.equal(client.version, 'v3');
    const page = await client.page({ limit: 1 });
    assert.deepEqual(
      page.conversations.map((c) => c.id),
      [early!.id],
    );
    assert.equal(typeof page.cursor, 'string');
    assert.equal(page.next_offset, 1);
    assert.equal(typeof page.descriptions.started_at, 'string');
    const record = page.conversations[0]!;
    assert.deepEqual([record.channel, record.num_turns, record.turns.length], ['VOICE-SIP', 1, 1]);
    const rest = await client.page({ limit: 5, cursor: page.cursor! });
    assert.deepEqual(
      rest.conversations.map((c) => c.id),
      [late!.id],
    );
    assert.equal(rest.cursor, null);
  });

  it('[CONV-9][CONV-14] walking v3 by cursor visits every matching conversation once, in order, with the filters unchanged', async () => {
    const logs: RequestLog[] = [];
    const wanted = insertConversations(
      t.lp,
      ...conversationSeries('2026-01-05T09:00:00Z', 23, 3, (i) => ({ channel: i % 2 === 0 ? 'WEBCHAT' : 'CHAT' })),
    );
    insertConversations(
      t.lp,
      ...conversationSeries('2026-01-05T09:01:00Z', 6, 3, () => ({ channel: 'VOICE-SIP' })),
      buildConversation('2026-01-05T10:00:00Z', { channel: 'CHAT', environment: 'sandbox' }),
    );
    const client = new ConversationsClient(context({ logs }));
    const seen: string[] = [];
    // The platform refuses a cursor sent with other filters, so finishing proves the filters stayed the same.
    for await (const c of client.conversations({ ...DAY, channel: ['WEBCHAT', 'CHAT'], limit: 5 })) seen.push(c.id);
    assert.deepEqual(
      seen,
      wanted.map((c) => c.id),
    );
    assert.equal(logs.length, 5);
  });

  it('[CONV-8][CONV-17][CONV-1] v1 and v2 walk by offset; v1 keeps null for empty text', async () => {
    const all = insertConversations(
      t.lp,
      ...conversationSeries('2026-01-05T09:00:00Z', 12, 1, () => ({ handoff_reason: null })),
    );
    for (const version of ['v1', 'v2'] as const) {
      const logs: RequestLog[] = [];
      const client = new ConversationsClient(context({ logs }), version);
      const ids: string[] = [];
      const reasons: unknown[] = [];
      for await (const c of client.conversations({ limit: 5 })) {
        ids.push(c.id);
        reasons.push(c.handoff_reason);
      }
      assert.deepEqual(
        ids,
        all.map((c) => c.id),
        version,
      );
      assert.deepEqual(
        logs.map((l) => l.path),
        Array(3).fill(`/runtime/${version}/acme/support-desk/conversations`),
      );
      assert.equal(reasons[0], version === 'v1' ? null : '');
    }
  });

  it('[CONV-8] a walk can start at an offset and stop after some pages', async () => {
    const all = insertConversations(t.lp, ...conversationSeries('2026-01-05T09:00:00Z', 9, 1));
    const client = new ConversationsClient(context(), 'v2');
    const pages: string[][] = [];
    for await (const page of client.pages({ limit: 2, offset: 3 }, { maxPages: 2 })) pages.push(page.map((c) => c.id));
    assert.deepEqual(pages, [
      [all[3]!.id, all[4]!.id],
      [all[5]!.id, all[6]!.id],
    ]);
  });

  describe('the query is checked before sending', () => {
    const cases: Array<{
      ids: string;
      title: string;
      query: ConversationsQueryInput;
      field: string;
      version?: 'v1' | 'v3';
    }> = [
      {
        ids: '[CONV-5]',
        title: 'variant_id with variant_name',
        query: { variant_id: 'var_a', variant_name: 'A' },
        field: 'variant_name',
      },
      { ids: '[CONV-7]', title: 'limit 0', query: { limit: 0 }, field: 'limit' },
      { ids: '[CONV-7]', title: 'limit 5001', query: { limit: 5001 }, field: 'limit' },
      { ids: '[CONV-8]', title: 'a negative offset', query: { offset: -1 }, field: 'offset' },
      {
        ids: '[CONV-3]',
        title: 'an unknown client_env',
        query: { client_env: 'production' as 'live' },
        field: 'client_env',
      },
      {
        ids: '[CONV-10]',
        title: 'query_type without query',
        query: { ...DAY, query_type: 'transcript' },
        field: 'query',
      },
      {
        ids: '[CONV-10]',
        title: 'query_type with sample',
        query: { ...DAY, query_type: 'semantic', query: 'refund', sample: 'random' },
        field: 'sample',
      },
      {
        ids: '[CONV-2][CONV-11]',
        title: 'sample without start_time and end_time',
        query: { sample: 'random' },
        field: 'start_time',
      },
      {
        ids: '[CONV-2]',
        title: 'a search without end_time',
        query: { start_time: DAY.start_time, query_type: 'transcript', query: 'refund' },
        field: 'end_time',
      },
      {
        ids: '[CONV-12]',
        title: 'turn_type with a semantic search',
        query: { ...DAY, query_type: 'semantic', query: 'refund', turn_type: 'user' },
        field: 'turn_type',
      },
      { ids: '[CONV-9]', title: 'a cursor on v1', query: { cursor: 'abc' }, field: 'cursor', version: 'v1' },
    ];
    for (const c of cases) {
      it(`${c.ids} ${c.title} is refused, naming ${c.field}, and nothing is sent`, async () => {
        const logs: RequestLog[] = [];
        const client = new ConversationsClient(context({ logs }), c.version ?? 'v3');
        await assert.rejects(client.page(c.query), (err: unknown) => {
          assert.ok(err instanceof PlatformError);
          assert.equal(err.kind, 'invalidInput');
          assert.ok(
            err.fieldErrors.some((e) => e.field === c.field),
            err.message,
          );
          return true;
        });
        assert.deepEqual(logs, []);
      });
    }
  });

  it('[CONV-1] a 403 says the key is not for this project and region or lacks data permission, and how to fix it', async () => {
    await t.admin.addFault({ family: 'runtime', path: 'conversations', status: 403, times: 1 });
    await assert.rejects(
      new ConversationsClient(context()).page({}),
      isError(
        'forbidden',
        /not one for this project and region, or lacks Conversations data permission.*Set a Conversations API key of this project's region/s,
      ),
    );
  });

  it("[CONV-9] a malformed cursor is a 400 with the spec's meaning", async () => {
    await assert.rejects(
      new ConversationsClient(context()).page({ cursor: 'not-a-cursor' }),
      isError('validation', /the cursor is malformed \(Conversations API, HTTP 400\)\. Malformed cursor/),
    );
  });

  it('[CONV-4][CONV-6][CONV-3] channels repeat, in_progress and client_env filter as sent', async () => {
    const [chat, web] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z', { channel: 'CHAT' }),
      buildConversation('2026-01-05T09:01:00Z', { channel: 'WEBCHAT', in_progress: true }),
      buildConversation('2026-01-05T09:02:00Z', { channel: 'VOICE-SIP' }),
    );
    const [sandbox] = insertConversations(t.lp, buildConversation('2026-01-05T09:03:00Z', { environment: 'sandbox' }));
    const client = new ConversationsClient(context());
    const ids = async (q: ConversationsQueryInput): Promise<string[]> =>
      (await client.page({ limit: 50, ...q })).conversations.map((c) => c.id);
    assert.deepEqual(await ids({ channel: ['CHAT', 'WEBCHAT'] }), [chat!.id, web!.id]);
    assert.deepEqual(await ids({ channel: ['CHAT', 'WEBCHAT'], in_progress: true }), [web!.id]);
    assert.deepEqual(await ids({ client_env: 'sandbox' }), [sandbox!.id]);
  });

  it('[CONV-10][CONV-11][CONV-12][CONV-13] transcript search, random samples and latency', async () => {
    const [refund] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z', {
        turns: [buildTurn('2026-01-05T09:00:02Z', { user_input: 'I want a refund', latency: 640 })],
      }),
      ...conversationSeries('2026-01-05T10:00:00Z', 6, 1),
    );
    const client = new ConversationsClient(context());
    const found = await client.page({
      ...DAY,
      query_type: 'transcript',
      query: 'refund',
      turn_type: 'user',
      include_latency: true,
    });
    assert.deepEqual(
      found.conversations.map((c) => c.id),
      [refund!.id],
    );
    assert.equal(found.conversations[0]!.turns[0]!.latency, 640);
    const sampled: string[] = [];
    for await (const c of client.conversations({ ...DAY, sample: 'random', limit: 2 })) sampled.push(c.id);
    assert.equal(sampled.length, 7);
    assert.equal(new Set(sampled).size, 7, 'a sample walked by cursor repeats nothing');
  });

  it("[CONV-1] spaces in variant_name go out as %20 (the spec's rule) and a + of a time offset as %2B", async () => {
    const [friendly] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z', { variant_id: 'var_friendly', variant_name: 'Friendly Tone' }),
      buildConversation('2026-01-05T09:01:00Z'),
    );
    const ids = (await new ConversationsClient(context()).page({ variant_name: 'Friendly Tone' })).conversations.map(
      (c) => c.id,
    );
    assert.deepEqual(ids, [friendly!.id]);

    // What goes on the wire, seen by a bare HTTP server in place of the platform.
    const urls: string[] = [];
    const server = createServer((req, res) => {
      urls.push(req.url ?? '');
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ conversations: [], descriptions: {}, cursor: null }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const transport = new Transport();
    try {
      const profile = {
        ...localProfile(t.lp),
        runtimeUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      };
      await new ConversationsClient(new ClientContext(profile, async () => 'key', transport)).page({
        variant_name: 'Friendly Tone',
        start_time: '2026-01-05T09:00:00+01:00',
      });
      assert.match(urls[0]!, /variant_name=Friendly%20Tone(&|$)/);
      assert.match(urls[0]!, /start_time=2026-01-05T09%3A00%3A00%2B01%3A00/);
    } finally {
      transport.dispose();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('[AUTH-1] a rejected key says which credential to check', async () => {
    await assert.rejects(
      new ConversationsClient(context({ overrides: { conversationsApiKey: LOCAL_KEYS.alerts } })).page(),
      isError('unauthorized', /Conversations API key/),
    );
  });

  it('reads are retried on a 5xx', async () => {
    const logs: RequestLog[] = [];
    await t.admin.addFault({ family: 'runtime', path: '/conversations', method: 'GET', status: 502, times: 1 });
    const page = await new ConversationsClient(context({ logs })).page();
    assert.deepEqual(page.conversations, []);
    assert.equal(logs.at(-1)?.retries, 1);
  });
});
