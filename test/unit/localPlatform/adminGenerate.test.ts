import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ListAgentsResponse } from '../../../src/contract/agents';
import type { ConversationsPageV3 } from '../../../src/contract/conversations';
import { LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';
import { call } from '../../support/http';
import { AdminError } from '../../support/localAdmin';
import { useLocalPlatform } from '../../support/localPlatform';

describe('Local platform admin API: many agents and conversations at once, for load figures', () => {
  const t = useLocalPlatform();

  it('[CONV-14] generated conversations are listed in start order among the stored ones, the same for the same seed', async () => {
    const start = '2026-01-05T00:00:00Z';
    const end = '2026-01-06T00:00:00Z';
    await t.admin.recordConversation({ started_at: '2026-01-05T12:00:00Z', id: 'conv_noon' });
    const reply = await t.admin.generateConversations({ count: 300, start_time: start, end_time: end, seed: 7 });
    assert.deepEqual(reply, { created: 300, total: 301 });
    const seen: ConversationsPageV3['conversations'] = [];
    let cursor: string | null | undefined;
    do {
      const qs = `start_time=${start}&end_time=${end}&limit=120${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await call<ConversationsPageV3>(
        'GET',
        `${t.lp.urls.runtime}/v3/acme/support-desk/conversations?${qs}`,
        {
          headers: { 'x-api-key': LOCAL_KEYS.conversations },
        },
      );
      assert.equal(res.status, 200);
      seen.push(...res.body.conversations);
      cursor = res.body.cursor;
    } while (cursor);
    assert.equal(seen.length, 301);
    assert.ok(seen.some((c) => c.id === 'conv_noon'));
    const times = seen.map((c) => Date.parse(c.started_at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
      'in start order',
    );
    const unfinished = seen.filter((c) => c.id !== 'conv_noon' && !(c.turns.length > 0 && !c.in_progress));
    assert.deepEqual(
      unfinished.map((c) => [c.id, c.turns.length, c.in_progress]),
      [],
    );

    // The same seed over the same range makes the same conversations (ids aside).
    const again = t.lp.platform.state.conversations.filter((c) => c.id !== 'conv_noon').map((c) => c.turns);
    await t.admin.reset();
    await t.admin.generateConversations({ count: 300, start_time: start, end_time: end, seed: 7 });
    assert.deepEqual(
      t.lp.platform.state.conversations.map((c) => c.turns),
      again,
    );
  });

  it('refuses a count or range it cannot make', async () => {
    for (const body of [
      { count: 0, start_time: '2026-01-05T00:00:00Z', end_time: '2026-01-06T00:00:00Z' },
      { count: 1.5, start_time: '2026-01-05T00:00:00Z', end_time: '2026-01-06T00:00:00Z' },
      { count: 10, start_time: '2026-01-06T00:00:00Z', end_time: '2026-01-05T00:00:00Z' },
      { count: 10, start_time: 'yesterday', end_time: '2026-01-05T00:00:00Z' },
    ]) {
      await assert.rejects(t.admin.generateConversations(body), (err: unknown) => {
        assert.ok(err instanceof AdminError);
        assert.equal(err.status, 400);
        return true;
      });
    }
    await assert.rejects(t.admin.generateAgents({ count: 0 }), (err: unknown) => err instanceof AdminError);
  });

  it('generated agents are listed by the Agents API, each with its main branch', async () => {
    const reply = await t.admin.generateAgents({ count: 1200, prefix: 'Load' });
    assert.deepEqual(reply, { created: 1200, total: 1201 });
    const names: string[] = [];
    for (let offset = 0; ;) {
      const res = await call<ListAgentsResponse>('GET', `${t.lp.urls.build}/v1/agents?limit=1000&offset=${offset}`, {
        headers: { 'x-api-key': LOCAL_KEYS.agents },
      });
      assert.equal(res.status, 200);
      names.push(...res.body.agents.map((a) => a.name));
      assert.ok(res.body.agents.every((a) => a.defaultBranchId));
      if (res.body.nextOffset === null || res.body.nextOffset === undefined) break;
      offset = res.body.nextOffset;
    }
    assert.equal(names.length, 1201);
    assert.equal(names[0], 'Load 0001');
    assert.equal(names[1199], 'Load 1200');
    assert.equal(names[1200], 'Support Desk');
  });
});
