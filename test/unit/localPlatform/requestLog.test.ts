import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type LocalPlatform, startLocalPlatform } from '../../../src/localPlatform/server';
import { LOCAL_KEYS } from '../../../src/localPlatform/seed/credentials';

describe('local platform admin API: the request log and recorded conversations', () => {
  let lp: LocalPlatform;
  before(async () => {
    lp = await startLocalPlatform({ seed: 'base' });
  });
  after(() => lp.close());

  const json = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(url, {
      method,
      headers: { 'x-api-key': LOCAL_KEYS.conversations, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('lists what the families were asked, with every query value and no header', async () => {
    await json('DELETE', `${lp.urls.admin}/requests`);
    const list = `${lp.urls.runtime}/v3/acme/support-desk/conversations?channel=CHAT&channel=WEBCHAT&limit=7&token=s3cret`;
    assert.equal((await json('GET', list)).status, 400, 'an unknown parameter is refused, and still logged');
    await json('GET', `${lp.urls.runtime}/v3/acme/support-desk/conversations?limit=7`);
    const { body } = await json('GET', `${lp.urls.admin}/requests?path=/conversations`);
    const requests = body.requests as Array<{
      seq: number;
      base: string;
      path: string;
      query: Record<string, string[]>;
    }>;
    assert.equal(requests.length, 2);
    assert.deepEqual(requests[0]!.query, { channel: ['CHAT', 'WEBCHAT'], limit: ['7'], token: ['‹redacted›'] });
    assert.equal(requests[0]!.base, 'runtime');
    assert.equal(requests[0]!.path, '/v3/acme/support-desk/conversations');
    assert.ok(!JSON.stringify(body).includes(LOCAL_KEYS.conversations), 'no key in the log');
    const since = await json('GET', `${lp.urls.admin}/requests?since=${requests[0]!.seq}`);
    assert.equal((since.body.requests as unknown[]).length, 1);
  });

  it('records a conversation as given, and adds turns to it until it ends', async () => {
    const created = await json('POST', `${lp.urls.admin}/conversations`, {
      in_progress: true,
      channel: 'CHAT',
      turns: [{ user_input: '<script>x</script>', agent_response: 'Hi', latency: 300 }],
    });
    assert.equal(created.status, 201);
    const id = created.body.id as string;
    const more = await json('POST', `${lp.urls.admin}/conversations/${id}/turns`, {
      turns: [{ user_input: 'Next' }],
      in_progress: false,
    });
    assert.deepEqual(more.body, { id, turns: 2, in_progress: false });
    const page = await json(
      'GET',
      `${lp.urls.runtime}/v3/acme/support-desk/conversations?include_latency=true&limit=5000`,
    );
    const conv = (
      page.body.conversations as Array<{ id: string; turns: Array<{ user_input: string; latency: number }> }>
    ).find((c) => c.id === id)!;
    assert.equal(conv.turns[0]!.user_input, '<script>x</script>');
    assert.equal(conv.turns[0]!.latency, 300);
    assert.equal((await json('POST', `${lp.urls.admin}/conversations`, { id, turns: [] })).status, 409);
    assert.equal((await json('POST', `${lp.urls.admin}/conversations`, { turns: 'x' })).status, 400);
  });
});
