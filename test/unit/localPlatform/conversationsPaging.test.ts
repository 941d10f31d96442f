import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConversationsPageV3 } from '../../../src/contract/conversations';
import { LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { buildConversation, buildTurn, conversationSeries, insertConversations } from '../../support/conversations';
import { call } from '../../support/http';
import { useLocalPlatform } from '../../support/localPlatform';

type Page = ConversationsPageV3 & { error_message?: string };

describe('Conversations API: ordering, paging and retrieval modes (spec: Conversations API rules 1-5)', () => {
  const t = useLocalPlatform();
  const list = (qs = '', version = 'v3') =>
    call<Page>('GET', `${t.lp.urls.runtime}/${version}/acme/support-desk/conversations${qs ? `?${qs}` : ''}`, {
      headers: { 'x-api-key': LOCAL_KEYS.conversations },
    });
  const ids = (page: Page): string[] => page.conversations.map((c) => c.id);
  const range = 'start_time=2026-01-05T00:00:00Z&end_time=2026-01-06T00:00:00Z';

  /** Follows v3 cursors from a first request to the end; returns every page. */
  async function allPages(qs: string): Promise<Page[]> {
    const pages: Page[] = [];
    let res = await list(qs);
    for (;;) {
      assert.equal(res.status, 200, res.body.error_message);
      pages.push(res.body);
      if (res.body.cursor === null) return pages;
      assert.match(res.body.cursor, /^[A-Za-z0-9_-]+$/, 'the cursor is URL-safe');
      res = await list(`${qs}&cursor=${res.body.cursor}`);
    }
  }

  it('[CONV-14] conversations come in ascending order of started_at whatever the order they were stored in', async () => {
    const [late, early, mid] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T12:00:00Z'),
      buildConversation('2026-01-05T08:00:00Z'),
      buildConversation('2026-01-05T10:00:00Z'),
    );
    const res = await list();
    assert.deepEqual(ids(res.body), [early!.id, mid!.id, late!.id]);
  });

  it('[CONV-14] the reply carries descriptions, next_offset while more follow, and a v3 cursor that is null at the end', async () => {
    insertConversations(t.lp, ...conversationSeries('2026-01-05T09:00:00Z', 7, 1));
    const first = await list('limit=5');
    assert.equal(first.body.next_offset, 5);
    assert.equal(typeof first.body.cursor, 'string');
    assert.equal(typeof first.body.descriptions.started_at, 'string');
    assert.equal(typeof first.body.descriptions['turns.user_input'], 'string');
    const last = await list('limit=5&offset=5');
    assert.equal(last.body.conversations.length, 2);
    assert.equal('next_offset' in last.body, false);
    assert.equal(last.body.cursor, null);
  });

  it('[CONV-9][CONV-14] following cursors visits every conversation once, in order, also when one arrives meanwhile', async () => {
    const all = insertConversations(t.lp, ...conversationSeries('2026-01-05T09:00:00Z', 23, 1));
    const first = await list('limit=10');
    // A conversation that started earlier than the cursor position arrives between pages: keyset paging neither repeats nor skips.
    insertConversations(t.lp, buildConversation('2026-01-05T08:00:00Z'));
    const rest = await allPagesFrom(first.body.cursor!, 'limit=10');
    const seen = [...ids(first.body), ...rest.flatMap(ids)];
    assert.deepEqual(
      seen,
      all.map((c) => c.id),
    );
  });

  async function allPagesFrom(cursor: string, qs: string): Promise<Page[]> {
    const pages: Page[] = [];
    let next: string | null = cursor;
    while (next !== null) {
      const res = await list(`${qs}&cursor=${next}`);
      assert.equal(res.status, 200, res.body.error_message);
      pages.push(res.body);
      next = res.body.cursor;
    }
    return pages;
  }

  const malformed: Array<{ name: string; cursor: string }> = [
    { name: 'not URL-safe', cursor: 'abc%2Fdef%3D' },
    { name: 'not base64url of JSON', cursor: 'bm90IGpzb24' },
    { name: 'JSON without the filter hash', cursor: Buffer.from('{"p":1}').toString('base64url') },
    { name: 'JSON without a position', cursor: Buffer.from('{"h":"x"}').toString('base64url') },
  ];
  for (const m of malformed) {
    it(`[CONV-9] a malformed cursor (${m.name}) answers 400`, async () => {
      const res = await list(`cursor=${m.cursor}`);
      assert.equal(res.status, 400);
      assert.match(res.body.error_message!, /cursor/i);
    });
  }

  it('[CONV-9] a cursor sent with other filters than its first page answers 400; a changed limit is fine', async () => {
    insertConversations(t.lp, ...conversationSeries('2026-01-05T09:00:00Z', 6, 1));
    const first = await list('limit=2&channel=VOICE-SIP');
    const changed = await list(`limit=2&channel=CHAT&cursor=${first.body.cursor!}`);
    assert.equal(changed.status, 400);
    assert.match(changed.body.error_message!, /other filters/);
    const biggerPage = await list(`limit=4&channel=VOICE-SIP&cursor=${first.body.cursor!}`);
    assert.equal(biggerPage.status, 200);
    assert.equal(biggerPage.body.conversations.length, 4);
  });

  it('[CONV-15] when cursor and offset are both sent, the cursor wins', async () => {
    const all = insertConversations(t.lp, ...conversationSeries('2026-01-05T09:00:00Z', 6, 1));
    const first = await list('limit=2');
    const res = await list(`limit=2&offset=0&cursor=${first.body.cursor!}`);
    assert.deepEqual(
      ids(res.body),
      all.slice(2, 4).map((c) => c.id),
    );
  });

  it('[CONV-16] with no retrieval mode every conversation matching the filters is returned', async () => {
    const all = insertConversations(
      t.lp,
      ...conversationSeries('2026-01-05T09:00:00Z', 12, 7, (i) => ({ channel: i % 3 === 0 ? 'CHAT' : 'VOICE-SIP' })),
    );
    const res = await list('limit=5000&channel=VOICE-SIP');
    assert.deepEqual(
      ids(res.body),
      all.filter((c) => c.channel === 'VOICE-SIP').map((c) => c.id),
    );
  });

  it('[CONV-10][CONV-12] transcript search matches the words in user or agent turns; turn_type narrows the side', async () => {
    const [agentSide, userSide, neither] = insertConversations(
      t.lp,
      buildConversation('2026-01-05T09:00:00Z', {
        turns: [
          buildTurn('2026-01-05T09:00:05Z', {
            user_input: 'Where is my parcel?',
            agent_response: 'Express delivery arrives the next working day.',
          }),
        ],
      }),
      buildConversation('2026-01-05T09:10:00Z', {
        turns: [
          buildTurn('2026-01-05T09:10:05Z', {
            user_input: 'Is express delivery worth it?',
            agent_response: 'It costs 9 dollars.',
          }),
        ],
      }),
      buildConversation('2026-01-05T09:20:00Z'),
    );
    const search = (extra = '') => list(`query_type=transcript&query=express%20DELIVERY&${range}${extra}`);
    assert.deepEqual(ids((await search()).body), [agentSide!.id, userSide!.id]);
    assert.deepEqual(ids((await search('&turn_type=user')).body), [userSide!.id]);
    assert.deepEqual(ids((await search('&turn_type=agent')).body), [agentSide!.id]);
    assert.ok(!ids((await search()).body).includes(neither!.id));
  });

  it('[CONV-10] semantic search finds conversations about the meaning of the query, best matches first across pages', async () => {
    const refund = (at: string, text: string) =>
      buildConversation(at, {
        turns: [
          buildTurn(at, {
            user_input: text,
            agent_response: 'You can return any item within 30 days for a full refund.',
            intents: ['returns'],
          }),
        ],
      });
    const [r1, r2] = insertConversations(
      t.lp,
      refund('2026-01-05T09:00:00Z', 'I want my money back for these shoes'),
      refund('2026-01-05T11:00:00Z', 'How do I return an item and get a refund?'),
      buildConversation('2026-01-05T10:00:00Z'),
      buildConversation('2026-01-05T12:00:00Z', {
        turns: [
          buildTurn('2026-01-05T12:00:00Z', {
            user_input: 'Can you sing a song?',
            agent_response: 'Sorry, I can only help with orders.',
          }),
        ],
      }),
    );
    const res = await list(`query_type=semantic&query=${encodeURIComponent('refunds for returned items')}&${range}`);
    assert.equal(res.status, 200);
    assert.deepEqual(ids(res.body), [r1!.id, r2!.id], 'only the two refund conversations, shown in time order');
    // Page size 1: the best match (the one that mentions return and refund twice) comes first.
    const best = await list(
      `query_type=semantic&query=${encodeURIComponent('refunds for returned items')}&${range}&limit=1`,
    );
    assert.deepEqual(ids(best.body), [r2!.id]);
    assert.equal(best.body.next_offset, 1);
  });

  it('[CONV-10] searching transcripts while transcript visibility is off answers 403', async () => {
    await t.admin.setProjectSettings('PROJECT-5a7e1c0d', { transcriptVisibility: false });
    const res = await list(`query_type=transcript&query=hours&${range}`);
    assert.equal(res.status, 403);
    assert.match(res.body.error_message!, /transcript visibility/);
  });

  it('[CONV-11] sample=random needs no query, returns a random subset of the range, the same for the same request, and pages through it', async () => {
    const all = insertConversations(t.lp, ...conversationSeries('2026-01-05T01:00:00Z', 40, 20));
    const inRange = all.filter((c) => c.started_at < '2026-01-06');
    const first = await list(`sample=random&${range}&limit=5`);
    assert.equal(first.status, 200);
    assert.equal(first.body.conversations.length, 5);
    assert.notDeepEqual(
      ids(first.body),
      inRange.slice(0, 5).map((c) => c.id),
      'a sample, not the first five',
    );
    const starts = first.body.conversations.map((c) => c.started_at);
    assert.deepEqual(starts, [...starts].sort(), 'each page in time order');
    assert.deepEqual(ids((await list(`sample=random&${range}&limit=5`)).body), ids(first.body));
    const pages = await allPages(`sample=random&${range}&limit=7`);
    const seen = pages.flatMap(ids);
    assert.equal(new Set(seen).size, seen.length, 'no conversation twice');
    assert.deepEqual([...seen].sort(), inRange.map((c) => c.id).sort(), 'every conversation of the range once');
  });
});
